"""One env core under every front-end, and an engine that owns its queries: checked on the sources and at run time.

- each front-end (AEC, Gymnasium, batched vector, SB3 VecEnv, league opponents, the arena's match runner) goes
  through ``ccg_env.env.core``: it imports the core and none of them lists legal choices, encodes ids, writes a
  mask, picks decks, resolves rules or scores a game by itself;
- one implementation each of the mask, the deck pick, rules resolution and greedy masked play;
- no module outside the engine reads the engine's underscore names or its event bus tables;
- no import loop between env modules at run time.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FRONT_ENDS = {
    "ccg_env/env/aec.py": "ccg_env.env.aec", "ccg_env/env/duel.py": "ccg_env.env.duel",
    "ccg_env/env/gym_env.py": "ccg_env.env.gym_env", "ccg_env/env/vector.py": "ccg_env.env.vector",
    "ccg_env/env/sb3_vec.py": "ccg_env.env.sb3_vec", "ccg_env/training/league.py": "ccg_env.training.league",
    "agents/match.py": "agents.match", "ccg_env/rllib/env.py": "ccg_env.rllib.env",
}
#: Calls that only the core (and the modules it is made of) may make: each is one of its jobs.
CORE_JOBS = {"legal_actions": "listing legal choices", "encode_all": "encoding ids", "Game.new": "starting games",
             "Game.from_scenario": "starting games", "Rules.load": "resolving rules", "resolve_deck": "resolving decks",
             "load_cards": "resolving cards", "default_cards": "resolving cards", "pick_decks": "picking decks",
             "MaskWriter": "writing masks", "legal_by_id": "listing legal ids"}
#: Modules allowed to do a core job (the core, what it is made of, and opponents choosing engine choices).
CORE_MODULES = {"ccg_env/env/core.py", "ccg_env/env/masks.py", "ccg_env/env/codec.py",
                "ccg_env/engine/game_setup.py"}


def _source(path: str) -> ast.Module:
    return ast.parse((ROOT / path).read_text(), path)


def _called_names(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                owner = func.value.id if isinstance(func.value, ast.Name) else ""
                names += [func.attr, f"{owner}.{func.attr}"]
            elif isinstance(func, ast.Name):
                names.append(func.id)
    return names


@pytest.mark.parametrize("path", sorted(FRONT_ENDS))
def test_every_front_end_imports_the_env_core(path):
    imported = [node.module for node in ast.walk(_source(path)) if isinstance(node, ast.ImportFrom)]
    uses_core = any(module and module.endswith("core") for module in imported)
    # the duel is the core's adapter for the Gymnasium envs, and the batched env holds duels
    uses_adapter = any(module and module.endswith(("duel", "vector")) for module in imported)
    assert uses_core or uses_adapter, f"{path} does not go through ccg_env.env.core"


@pytest.mark.parametrize("path", sorted(FRONT_ENDS))
def test_no_front_end_does_a_core_job_itself(path):
    calls = set(_called_names(_source(path)))
    allowed = {"legal_actions"} if path == "ccg_env/env/duel.py" else set()  # opponents choose engine choices
    done_here = {name: job for name, job in CORE_JOBS.items() if name in calls and name not in allowed}
    assert not done_here, f"{path} does core jobs itself: {done_here}"


def _defining_modules(function: str) -> list[str]:
    found = []
    for path in sorted((ROOT / "ccg_env").rglob("*.py")) + sorted((ROOT / "agents").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        if any(isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == function for node in ast.walk(tree)):
            found.append(str(path.relative_to(ROOT)))
    return found


@pytest.mark.parametrize("name, home", [
    ("MaskWriter", "ccg_env/env/masks.py"), ("pick_decks", "ccg_env/engine/game_setup.py"),
    ("resolve_rules", "ccg_env/engine/game_setup.py"), ("greedy_action", "ccg_env/training/greedy.py"),
    ("attacks_per_turn", "ccg_env/engine/attacks.py"), ("determinize", "ccg_env/engine/view.py"),
    ("seat_rewards", "ccg_env/env/core.py"), ("is_truncation", "ccg_env/env/core.py"),
])
def test_each_rule_and_helper_is_written_once(name, home):
    assert _defining_modules(name) == [home]


def test_no_second_mask_deck_pick_or_windfury_rule_is_written_by_hand():
    offenders = []
    for path in sorted((ROOT / "ccg_env").rglob("*.py")) + sorted((ROOT / "agents").rglob("*.py")):
        text, where = path.read_text(), str(path.relative_to(ROOT))
        if '"decks-' in text and where != "ccg_env/engine/game_setup.py":
            offenders.append(f"{where}: deck pick")
        if "WINDFURY else 1" in text and where != "ccg_env/engine/attacks.py":
            offenders.append(f"{where}: windfury rule")
        if ("mask[ids] = 1" in text or "mask[action_id] = 1" in text) and where != "ccg_env/env/masks.py":
            offenders.append(f"{where}: hand-written mask")
    assert not offenders


def _engine_private_names() -> set[str]:
    names = set()
    for path in (ROOT / "ccg_env" / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                names.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name.startswith("_") \
                    and not node.name.startswith("__"):
                names.add(node.name)
    return names | {"tables"}


def test_no_module_outside_the_engine_reads_engine_internals():
    private = _engine_private_names()
    offenders = []
    for folder in ("ccg_env", "agents", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            if where.startswith("ccg_env/engine/"):
                continue
            tree = ast.parse(path.read_text(), where)
            own = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                   and n.value.id in ("self", "cls") and n.attr.startswith("_")}
            own |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("ccg_env.engine", ".engine",
                                                                                         "..engine")):
                    offenders += [f"{where}: imports {a.name}" for a in node.names if a.name.startswith("_")]
                if isinstance(node, ast.Attribute) and node.attr in private and node.attr not in own:
                    offenders.append(f"{where}:{node.lineno}: reads .{node.attr}")
    assert not offenders


ENV_MODULES = ["ccg_env.env.core", "ccg_env.env.aec", "ccg_env.env.duel", "ccg_env.env.gym_env",
               "ccg_env.env.vector", "ccg_env.env.observation", "ccg_env.env.observation_writer",
               "ccg_env.env.masks", "ccg_env.env.codec", "ccg_env.env.render", "ccg_env.env.sb3_vec"]


@pytest.mark.parametrize("module", ENV_MODULES)
def test_each_env_module_imports_first_in_a_fresh_interpreter(module):
    """A module that needs another one half-imported (an import loop) fails when it is imported first."""
    run = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]


def test_front_ends_play_the_same_game_for_the_same_seed_and_decks():
    """The core deals the game: the AEC env, the arena's runner and the duel start identical games."""
    from agents.match import MatchRunner
    from agents.random_agent import RandomAgent
    from ccg_env.engine import Game
    from ccg_env.engine.game_setup import pick_decks
    from ccg_env.env.aec import raw_env
    from ccg_env.env.core import EnvCore

    aec = raw_env(decks="random")
    aec.reset(seed=11)
    runner_game = MatchRunner(decks="random").new_game(11)
    core_game = EnvCore(decks="random").new_game(11)
    assert aec.game.to_json() == runner_game.to_json() == core_game.to_json()
    pool = EnvCore(decks="random").deck_pool
    by_hand = Game.new(11, decks=pick_decks(pool, 11), log=False)
    assert by_hand.to_json() == core_game.to_json()
    assert MatchRunner().play([RandomAgent(), RandomAgent()], 11, decks=list(pick_decks(pool, 5))).decisions > 0
