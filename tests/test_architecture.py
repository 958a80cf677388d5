"""One env core under every front-end, and an engine that owns its queries: checked on the sources and at run time.

- each front-end (AEC, Gymnasium, draft, batched vector, SB3 VecEnv, league opponents, the arena's match runner,
  the CLI, the notebook helpers, the web server) goes through ``ccg_env.env.core``: it imports the core and none of
  them lists legal choices, encodes ids, writes a mask, picks decks, resolves rules, handles an illegal action,
  scores a game or loops over the other seat's moves by itself;
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
    "ccg_env/env/sb3_vec.py": "ccg_env.env.sb3_vec", "ccg_env/training/sb3_league.py": "ccg_env.training.sb3_league",
    "ccg_env/agents/match.py": "ccg_env.agents.match", "ccg_env/rllib/env.py": "ccg_env.rllib.env",
    "ccg_env/env/draft_env.py": "ccg_env.env.draft_env", "ccg_env/env/opponent_turns.py": "ccg_env.env.opponent_turns",
    "ccg_env/agents/notebook_helpers.py": "ccg_env.agents.notebook_helpers", "ccg_env/viewer/server.py": "ccg_env.viewer.server",
}
#: Modules that start or play games without being a front-end of their own: they go through one that is.
PLAYERS = ["ccg_env/cli.py"]
#: What only the core's step decides: reading the illegal-action mode, the rewards and outcome of an ended game.
STEP_JOBS = {"illegal_action", "illegal_reward", "seat_rewards", "is_truncation", "forfeit_rewards",
             "FORFEIT_REWARD", "TRUNCATING_RESULTS", "refusal", "draft_refusal"}
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


def _step_jobs(tree: ast.AST) -> list[str]:
    """Names of the step's jobs the module reads: an attribute (``core.illegal_action``) or a name it calls or
    imports (``seat_rewards``); passing a setting on by keyword (``illegal_action=...``) is no job."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in STEP_JOBS:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in STEP_JOBS and not node.id.islower():
            found.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in STEP_JOBS:
            found.append(f"{node.lineno}: {node.func.id}()")
        elif isinstance(node, ast.ImportFrom):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names if a.name in STEP_JOBS]
    return found


def _own_play_loops(tree: ast.AST) -> list[str]:
    """``while`` loops that run until someone is on turn or the game (or draft) is over: an opponent or play loop."""
    return [f"{node.lineno}: while {ast.unparse(node.test)}" for node in ast.walk(tree) if isinstance(node, ast.While)
            and any(word in ast.unparse(node.test) for word in ("current", "is_over", "result is None", "to_move"))]


def _step_offenders(path: str) -> list[str]:
    tree = _source(path)
    return [f"{path}:{where}" for where in _step_jobs(tree) + _own_play_loops(tree)]


@pytest.mark.parametrize("path", sorted(FRONT_ENDS) + PLAYERS)
def test_no_front_end_handles_illegal_actions_scores_a_game_or_loops_over_turns_itself(path):
    """The step (illegal actions, the end of the game, rewards) and the opponent and play loop are the core's."""
    assert not _step_offenders(path)


def test_the_step_checks_would_see_a_hand_written_forfeit_and_opponent_loop():
    """The two checks above catch the code they forbid (so their passing means something)."""
    tree = ast.parse("if core.illegal_action == 'forfeit':\n    reward = seat_rewards(game, seat)[seat]\n"
                     "while game.state.result is None and game.state.current != seat:\n    game.apply(pick(game))\n")
    assert len(_step_jobs(tree)) == 2 and len(_own_play_loops(tree)) == 1
    assert not _step_jobs(ast.parse("env = make(illegal_action=illegal_action)"))


def _defining_modules(function: str) -> list[str]:
    found = []
    for path in sorted((ROOT / "ccg_env").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        if any(isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == function for node in ast.walk(tree)):
            found.append(str(path.relative_to(ROOT)))
    return found


@pytest.mark.parametrize("name, home", [
    ("MaskWriter", "ccg_env/env/masks.py"), ("pick_decks", "ccg_env/engine/game_setup.py"),
    ("resolve_rules", "ccg_env/engine/game_setup.py"), ("greedy_rows", "ccg_env/training/greedy.py"),
    ("attacks_per_turn", "ccg_env/engine/attacks.py"), ("determinize", "ccg_env/engine/view.py"),
    ("seat_rewards", "ccg_env/env/core.py"), ("is_truncation", "ccg_env/env/core.py"),
    ("play_until", "ccg_env/env/core.py"), ("HealthShaping", "ccg_env/env/reward_shaping.py"),
])
def test_each_rule_and_helper_is_written_once(name, home):
    assert _defining_modules(name) == [home]


def test_no_second_mask_deck_pick_or_windfury_rule_is_written_by_hand():
    offenders = []
    for path in sorted((ROOT / "ccg_env").rglob("*.py")):
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
    for folder in ("ccg_env", "benchmarks"):
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
    from ccg_env.agents.match import MatchRunner
    from ccg_env.agents.random_agent import RandomAgent
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
