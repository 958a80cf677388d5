"""The compiled modules and their pure-Python sources: which ones run, and that both play the same games."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

import ccg_env
from ccg_env.engine import COMPILED, ENGINE_BUILD, Game
from ccg_env.engine.actions import GameAction
from ccg_env.engine.events import Phase
from ccg_env.engine.native import COMPILED_MODULES, MANIFEST, PURE_ENV_VAR, source_path

needs_compiled = pytest.mark.skipif(not COMPILED, reason=f"the engine is not compiled here: {ENGINE_BUILD}")

#: Plays seeded random games on every packaged deck pair and prints a digest of logs, legal lists and states.
DIGEST_SCRIPT = textwrap.dedent("""
    import hashlib, random, sys
    import ccg_env.engine as engine
    from ccg_env.engine import Game
    from ccg_env.engine.decks import default_deck_paths
    decks = sorted(default_deck_paths())
    digest = hashlib.sha256()
    for seed in range(40):
        game = Game.new(seed=seed, decks=[decks[seed % len(decks)], decks[(seed * 3 + 1) % len(decks)]])
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            digest.update(repr(legal).encode())
            game.apply(rng.choice(legal))
        digest.update("\\n".join(str(e) for e in game.log).encode())
        digest.update(game.to_json().encode())
    print(engine.ENGINE_BUILD)
    print(digest.hexdigest())
""")

#: Steps the batched env (observation writer, codec and mask included) and prints a digest of what it returns.
ENV_DIGEST_SCRIPT = textwrap.dedent("""
    import hashlib, random
    import numpy as np
    from ccg_env.env.vector import CcgDuelVectorEnv
    digest = hashlib.sha256()
    for normalize in (False, True):
        env = CcgDuelVectorEnv(8, normalize_observations=normalize)
        observations, infos = env.reset(seed=5)
        rng = random.Random(5)
        for _ in range(300):
            actions = [rng.choice(np.flatnonzero(m).tolist()) if m.any() else 0 for m in infos["action_mask"]]
            observations, rewards, terminated, truncated, infos = env.step(np.array(actions))
            for array in (observations, rewards, terminated, truncated, infos["action_mask"]):
                digest.update(array.tobytes())
    print(digest.hexdigest())
""")

#: Plays seeded heuristic-against-heuristic games on every packaged deck pair (the heuristic reads a GameView,
#: both compiled with the engine) and prints a digest of every choice and final state.
HEURISTIC_DIGEST_SCRIPT = textwrap.dedent("""
    import hashlib
    from pathlib import Path
    import ccg_env.agents.heuristic
    from ccg_env.agents.heuristic import choose
    from ccg_env.engine import Game
    from ccg_env.engine.decks import default_deck_paths
    from ccg_env.engine.view import GameView
    decks = sorted(default_deck_paths())
    digest = hashlib.sha256()
    for seed in range(len(decks) ** 2):
        game = Game.new(seed=seed, decks=[decks[seed % len(decks)], decks[seed // len(decks)]])
        while not game.is_over:
            view = GameView(game, game.state.current)
            choice = choose(view)
            digest.update(repr((choice, view.own, view.enemy)).encode())
            game.apply(choice)
        digest.update(game.to_json().encode())
    print(Path(ccg_env.agents.heuristic.__file__).suffix, digest.hexdigest())
""")


def _run(script: str, *, pure: bool, cwd: Path | None = None, path: Path | None = None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV_VAR}
    if pure:
        env[PURE_ENV_VAR] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    out = subprocess.run([sys.executable, "-c", script], env=env, cwd=cwd, capture_output=True, text=True,
                         check=True)
    return out.stdout.splitlines() + out.stderr.splitlines()


def test_the_build_is_described():
    assert ENGINE_BUILD.startswith("compiled (mypyc") if COMPILED else ENGINE_BUILD.startswith("pure Python")
    game_module = sys.modules["ccg_env.engine.game"]
    assert Path(game_module.__file__).suffix == (".so" if COMPILED else ".py")


@needs_compiled
def test_compiled_and_pure_python_engines_play_identical_games():
    compiled = _run(DIGEST_SCRIPT, pure=False)
    pure = _run(DIGEST_SCRIPT, pure=True)
    assert compiled[0].startswith("compiled") and pure[0] == f"pure Python ({PURE_ENV_VAR} is set)"
    assert compiled[1] == pure[1]


@needs_compiled
def test_compiled_and_pure_python_envs_write_identical_observations_and_masks():
    assert _run(ENV_DIGEST_SCRIPT, pure=False)[0] == _run(ENV_DIGEST_SCRIPT, pure=True)[0]


@needs_compiled
def test_compiled_and_pure_python_heuristics_make_identical_choices():
    compiled, pure = _run(HEURISTIC_DIGEST_SCRIPT, pure=False)[0], _run(HEURISTIC_DIGEST_SCRIPT, pure=True)[0]
    assert compiled.split()[0] == ".so" and pure.split()[0] == ".py"
    assert compiled.split()[1] == pure.split()[1]


@needs_compiled
def test_an_edited_source_runs_uncompiled_with_a_warning(tmp_path):
    """A copy of the package whose game.py changed after compiling must not run the stale compiled module."""
    root = Path(ccg_env.__file__).parent.parent
    shutil.copytree(root / "ccg_env", tmp_path / "ccg_env", ignore=shutil.ignore_patterns("__pycache__"))
    game_py = source_path("ccg_env.engine.game", tmp_path)
    game_py.write_text(game_py.read_text() + "\nEDITED_AFTER_COMPILING = True\n")
    lines = _run("import ccg_env.engine as e, ccg_env.engine.game as g; print(e.ENGINE_BUILD); "
                 "print(g.EDITED_AFTER_COMPILING, g.__file__)", pure=False, cwd=tmp_path, path=tmp_path)
    assert lines[0] == "pure Python (compiled modules out of date)"
    assert lines[1] == f"True {game_py}"
    assert any("does not match its sources (ccg_env.engine.game)" in line and "make build" in line
               for line in lines[2:])


@needs_compiled
def test_a_copy_of_the_engine_without_the_agents_still_runs_compiled(tmp_path):
    """The heuristic is compiled with the engine, but the engine does not need it: without ``ccg_env/agents``,
    the rest of ``ccg_env`` still runs its compiled modules."""
    shutil.copytree(Path(ccg_env.__file__).parent, tmp_path / "ccg_env",
                    ignore=shutil.ignore_patterns("__pycache__", "agents"))
    lines = _run("import ccg_env.engine as e, ccg_env.engine.game as g; print(e.ENGINE_BUILD); print(g.__file__)",
                 pure=False, cwd=tmp_path, path=tmp_path)
    assert lines[0].startswith("compiled (mypyc") and lines[1].endswith(".so"), lines


@needs_compiled
def test_the_manifest_records_every_compiled_source():
    manifest = json.loads((Path(ccg_env.__file__).parent / "engine" / MANIFEST).read_text())
    assert set(manifest["sources"]) == set(COMPILED_MODULES)
    game_hash = hashlib.sha256(source_path("ccg_env.engine.game").read_bytes()).hexdigest()
    assert manifest["sources"]["ccg_env.engine.game"] == game_hash and manifest["compiler"].startswith("mypyc ")


def test_a_slotted_python_subclass_of_a_compiled_action_keeps_its_fields():
    @dataclass(slots=True, eq=False)
    class Shout(GameAction):
        words: str = ""

    game = Game.new(seed=0)
    heard = []
    game.bus.on(Phase.PERFORM, Shout, lambda g, a: heard.append((a.player, a.words, a.priority)))
    game.perform(Shout(1, "hello", priority=4))
    assert heard == [(1, "hello", 4)]
    assert not Shout(0).cancelled


def test_numpy_integers_work_where_python_ones_do():
    """Compiled code checks declared types: the entry points that take an index accept any integer type."""
    np = pytest.importorskip("numpy")
    from ccg_env.env.codec import ActionCodec, ActionLayout

    game = Game.new(seed=0)
    assert game.player(np.int64(1)) is game.player(1)
    codec = ActionCodec(ActionLayout.for_rules(game.state.rules))
    assert codec.decode(game, np.int64(0)) == codec.decode(game, 0)
