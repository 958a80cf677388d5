"""The env core's draft mode, the contract every draft front-end adapts: a game starts with the engine's draft, and
the seat picking has one action id per offered card (the last range of the layout, ``draft_offset + k``); a pick id
takes that offered card and any other id takes nothing and changes nothing; a refused pick is named with its meaning
and the legal ids; and the battle after the draft is dealt the two drafted decks, under the core's rules and cards,
seeded by the game's seed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ccg_env.engine import Game
from ccg_env.env.core import EnvCore
from tests.card_files import packaged_card_files

CARD_FILES = packaged_card_files()  # the packaged cards, loaded afresh
ROOT = Path(__file__).resolve().parents[2]


def drafted(core: EnvCore, seed: int):
    """A game of ``core`` whose draft is over: each seat always takes the first offered card."""
    game = core.new_game(seed)
    while game.in_draft:
        assert core.play(game, core.codec.layout.draft_offset)
    return game


def test_the_seat_picking_has_one_id_per_offered_card_after_every_battle_id():
    core = EnvCore(mode="draft")
    game = core.new_game(0)
    offset = core.codec.layout.draft_offset
    assert offset == 262 and core.size == 265 and game.in_draft
    assert {action_id: choice.source for action_id, choice in core.legal(game).items()} == {262: 0, 263: 1, 264: 2}
    assert all(action_id < offset for action_id in core.legal(drafted(core, 0)))  # the battle's ids after the draft


@pytest.mark.parametrize("k", [0, 1, 2])
def test_a_pick_id_takes_that_offered_card_for_the_seat_picking(k):
    core = EnvCore(mode="draft")
    game = core.new_game(5)
    draft = game.draft
    offered = draft.offer(0)
    assert core.play(game, core.codec.layout.draft_offset + k) is True
    assert draft.picks(0) == (offered[k],) and draft.picks(1) == () and draft.current == 1
    assert game.state.current == 1  # the seat to move is the one picking


@pytest.mark.parametrize("action_id", [0, 1, 261])
def test_an_id_that_is_no_pick_takes_nothing_and_changes_nothing(action_id):
    core = EnvCore(mode="draft")
    game = core.new_game(5)
    draft = game.draft
    offers = [draft.offer(0), draft.offer(1)]
    assert core.play(game, action_id) is False
    assert [draft.offer(0), draft.offer(1)] == offers and draft.picks(0) == draft.picks(1) == ()
    assert draft.current == 0 and game.in_draft


def test_a_refused_pick_is_named_with_its_meaning_and_the_legal_pick_ids():
    core = EnvCore(mode="draft")
    assert core.refusal("learner", core.new_game(0), 0) == (
        "learner: action 0 (end turn) is not a legal draft pick now (legal ids: [262, 263, 264]); "
        "pick an action with action_mask == 1")


@pytest.mark.parametrize("log", [False, True])
def test_the_battle_is_dealt_the_drafted_decks_under_the_core_s_rules_cards_and_seed(log):
    core = EnvCore(mode="draft", cards=CARD_FILES, turn_limit=30, log=log)
    game = drafted(core, 3)
    draft = game.draft
    assert game.state.rules is core.rules and game.state.rules.turn_limit == 30 and game.cards is core.cards
    for seat, deck in enumerate(draft.decks()):
        player = game.player(seat)
        assert sorted(card.definition.id for card in (*player.deck, *player.hand)) == sorted(deck.cards)
    assert bool(game.log) is log  # the core's log setting
    assert game.to_json() == dealt(core, draft, 3).to_json()  # dealt with the game's own seed
    assert drafted(core, 3).to_json() == game.to_json()  # the same draft and seed, the same battle
    assert dealt(core, draft, 12).to_json() != game.to_json()


def dealt(core: EnvCore, draft, seed: int) -> Game:
    """The battle ``Game.new`` deals the drafted decks with ``seed`` under the core's rules and cards."""
    return Game.new(seed, decks=draft.decks(), rules=core.rules, cards=core.cards)



#: Front-ends that play draft games without a draft branch of their own (duel.py's make_opponent reads the mode
#: once, when it builds an opponent, to give it its drafter).
NO_DRAFT_BRANCH = ("ccg_env/env/aec.py", "ccg_env/env/gym_env.py", "ccg_env/env/draft_env.py", "ccg_env/env/vector.py",
                   "ccg_env/env/sb3_vec.py", "ccg_env/env/opponent_turns.py", "ccg_env/agents/match.py",
                   "ccg_env/training/eval_games.py", "ccg_env/training/run.py")


@pytest.mark.parametrize("path", NO_DRAFT_BRANCH)
def test_front_ends_compare_no_mode_to_draft(path):
    tree = ast.parse((ROOT / path).read_text(), path)
    compared = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Compare)
                and any(isinstance(side, ast.Constant) and side.value == "draft"
                        for side in (node.left, *node.comparators))]
    assert not compared, f"{path} branches on the draft mode at lines {compared}: the engine's phase does that"
