"""Cards that set themselves off without end: the engine stops them at its bounds and ends the game as a loop.

Each looping board is played in a subprocess with a timeout, in both builds, so a regression fails instead of
hanging the suite (the compiled engine used to crash with a segmentation fault, the pure one with
RecursionError, and a deathrattle loop used to grow past 1 GB without returning).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
import warnings

import gymnasium
import numpy as np
import pytest

import ccg_env
from ccg_env.engine import Game, Result, Rules, default_cards, load_cards
from ccg_env.engine.action_system import MAX_REACTION_DEPTH
from ccg_env.engine.cards import CardLoopWarning, self_loops
from ccg_env.engine.decks import Deck
from ccg_env.engine.invariants import InvariantMonitor, check_invariants
from ccg_env.engine.native import PURE_ENV_VAR

from tests.card_files import packaged_card_files

from .child_process import PEAK_MB_PRELUDE
from .loop_cards import BOARDS, LOOP_CARDS

SCRIPT = PEAK_MB_PRELUDE + textwrap.dedent("""
    import ccg_env.engine as engine
    from ccg_env.engine import Game, load_cards
    from ccg_env.engine.datafiles import config_dir
    from ccg_env.engine.invariants import InvariantMonitor, check_invariants
    card_file, board, kind, source, target = sys.argv[1], json.loads(sys.argv[2]), *sys.argv[3:6]
    if len(sys.argv) > 6:  # pure build only: a smaller bound on actions per root action
        import ccg_env.engine.action_system as action_system
        action_system.MAX_ACTIONS_PER_ROOT = int(sys.argv[6])
    cards = load_cards(sorted(config_dir().joinpath("cards").glob("*.yaml")) + [card_file])
    game = Game.from_scenario(board, cards=cards)
    def uid(card_id):
        return next(c.uid for p in game.state.players for z, cs in p.zones() for c in cs if c.definition.id == card_id)
    choice = next(c for c in game.legal_actions() if c.kind.value == kind and c.source == uid(source)
                  and (target == "-" or c.target == uid(target)))
    start = time.perf_counter()
    game.apply(choice)
    seconds = time.perf_counter() - start
    check_invariants(game)
    again = Game.from_json(game.to_json(), cards=cards)
    stop = game.log[-1]
    print(json.dumps({"build": engine.ENGINE_BUILD, "result": game.result.value, "winner": game.winner,
                      "again": again.result.value, "kind": stop.kind, "fields": stop.fields,
                      "card": stop.action.card.definition.id, "seconds": seconds,
                      "log": len(game.log), "maxrss_mb": peak_mb()}))
""")


def play_loop(tmp_path, board_name: str, *, pure: bool, max_actions: int | None = None) -> dict:
    """Play one looping board in a subprocess (at most 120 s) and return what it reports."""
    card_file = tmp_path / "loops.yaml"
    card_file.write_text(LOOP_CARDS)
    board, (kind, source, target), _ = BOARDS[board_name]
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV_VAR}
    if pure:
        env[PURE_ENV_VAR] = "1"
    args = [sys.executable, "-W", "ignore", "-c", SCRIPT, str(card_file), json.dumps(board), kind, source,
            target or "-"]
    if max_actions is not None:
        args.append(str(max_actions))
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.splitlines()[-1])
    print(board_name, report["build"], f"{report['seconds']:.3f} s, {report['maxrss_mb']:.0f} MB")
    return report


@pytest.mark.parametrize("build", ["compiled", "pure"])
@pytest.mark.parametrize("board_name", sorted(BOARDS))
def test_a_looping_card_ends_the_game_as_a_loop_in_both_builds(tmp_path, board_name, build):
    report = play_loop(tmp_path, board_name, pure=build == "pure")
    if build == "compiled" and not report["build"].startswith("compiled"):
        pytest.skip(f"the engine is not compiled here: {report['build']}")
    assert report["build"].startswith(build)
    assert report["result"] == "loop" and report["winner"] is None and report["again"] == "loop"
    assert report["kind"] == "StopLoop" and report["card"] == BOARDS[board_name][2]
    bound = "death-phase rounds" if board_name == "deathrattle-summon" else "nested more than 100 deep"
    assert bound in report["fields"]["reason"]
    assert report["log"] < 12_000  # bounded by MAX_ACTIONS_PER_ROOT, not by memory
    assert report["maxrss_mb"] < 200, report  # the deathrattle loop grew past 1 GB before


def test_the_bound_on_actions_per_root_action_ends_the_game_too(tmp_path):
    report = play_loop(tmp_path, "heal-then-damage", pure=True, max_actions=50)
    assert report["result"] == "loop" and "more than 50 actions" in report["fields"]["reason"]
    assert report["log"] <= 52


def _loop_cards(tmp_path):
    card_file = tmp_path / "loops.yaml"
    card_file.write_text(LOOP_CARDS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cards = load_cards(packaged_card_files() + [card_file])
    return cards, caught


def test_the_loader_warns_about_cards_that_set_themselves_off(tmp_path):
    cards, caught = _loop_cards(tmp_path)
    messages = [str(w.message) for w in caught if w.category is CardLoopWarning]
    assert len(messages) == 3, messages
    assert "card 'self_harmer', abilities[1]: whenever it is damaged it damages itself (select: self)" in messages[0]
    assert "card 'mender', abilities[1]" in messages[1] and "Result.LOOP" in messages[1]
    assert "card 'mirror_blade', abilities[0]: its battlecry equips a copy of itself" in messages[2]
    assert self_loops(cards["phoenix"]) == [] and self_loops(cards["summon_hater"]) == []


def test_no_packaged_card_warns():
    assert [card.id for card in default_cards().values() if self_loops(card)] == []


def test_a_loop_in_process_leaves_a_consistent_finished_state(tmp_path):
    cards, _ = _loop_cards(tmp_path)
    game = Game.from_scenario(BOARDS["self-damage"][0], cards=cards)
    game.apply(game.legal_actions()[1])
    assert game.is_over and game.result is Result.LOOP and game.winner is None
    assert game.legal_actions() == []
    check_invariants(game)
    harmer = game.player(0).graveyard[-1]
    assert harmer.definition.id == "self_harmer" and game.player(0).battlefield == []  # buried, not left dying
    assert max(entry.depth for entry in game.log) == MAX_REACTION_DEPTH  # the next level was refused
    # issue 21 (deaths per phase): a played minion's battlecry is now a reaction of the play's battlecry step (one
    # level shallower than under the Summon), so the level the bound refuses holds the trigger, not its damage
    assert game.log[-1].action.reason == "reactions nested more than 100 deep (at TriggerAbility, card self_harmer)"


def test_a_spell_broken_off_while_being_cast_goes_to_the_graveyard(tmp_path):
    cards, _ = _loop_cards(tmp_path)
    game = Game.from_scenario(BOARDS["weapon-battlecry-while-casting"][0], cards=cards)
    monitor = InvariantMonitor(game)
    coin = game.player(0).hand[0]
    game.apply(game.legal_actions()[1])
    assert game.result is Result.LOOP and game.log[-1].action.unplayed is coin
    assert coin in game.player(0).graveyard
    monitor.check()  # no card left every zone


# --- the envs report a loop as a truncation ------------------------------------------------------------------


def _looping_setup(tmp_path):
    cards, _ = _loop_cards(tmp_path)
    rules = dataclasses.replace(Rules.load(), max_copies=30, mulligan=False)  # turn 1 at once: the first play loops
    deck = Deck("self harmers", ("self_harmer",) * 30)
    return cards, rules, [deck, deck]


def test_the_gymnasium_env_truncates_a_looping_game(tmp_path):
    cards, rules, decks = _looping_setup(tmp_path)
    env = gymnasium.make("ccg_env/Duel-v1", cards=cards, rules=rules, decks=decks, seat=0, opponent="random")
    observation, info = env.reset(seed=3)
    play = np.flatnonzero(info["action_mask"])[1]  # id 0 ends the turn; the next one plays a Self Harmer
    observation, reward, terminated, truncated, info = env.step(play)
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["outcome"] == "loop" and not info["action_mask"].any()
    assert env.observation_space.contains(observation)
    env.close()


def test_the_aec_env_truncates_a_looping_game(tmp_path):
    cards, rules, decks = _looping_setup(tmp_path)
    env = ccg_env.env(cards=cards, rules=rules, decks=decks)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask)[1]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(info["result"] == "loop" and info["winner"] is None for info in env.infos.values())
    assert all(reward == 0 for reward in env.rewards.values())
    env.close()


def test_minions_dying_as_the_turn_limit_ends_the_game_are_buried_without_hanging(tmp_path):
    """A turn-end effect killing minions on the last turn: the reaper's actions are cancelled once the game is
    over, so the death phase used to post them again and again, forever; the end of the game now buries them."""
    card_file = tmp_path / "doom.yaml"
    card_file.write_text(textwrap.dedent("""
        cards:
          - {id: doom_clock, name: Doom Clock, type: minion, cost: 3, attack: 0, health: 2,
             abilities: [{trigger: turn_end, effect: damage, amount: 5, select: all,
                          mark: {alliance: any, zones: battlefield}}]}
    """))
    cards = load_cards(packaged_card_files() + [card_file])
    game = Game.from_scenario({"turn": 80, "players": [{"battlefield": ["doom_clock", "wisp"]}, {}]}, cards=cards)
    game.apply(game.legal_actions()[0])  # end the last turn
    assert game.result is Result.TURN_LIMIT and game.player(0).battlefield == []
    assert [card.definition.id for card in game.player(0).graveyard] == ["doom_clock", "wisp"]
    check_invariants(game)
