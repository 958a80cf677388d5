"""Draft conformance: 30 picks per seat, only offered cards, legal decks, seeded, and the battle a normal game."""

import dataclasses
import random

import pytest

from ccg_env.engine import (CardClass, Choice, ChoiceKind, DataError, Game, IllegalActionError, Rules, StateError,
                            default_cards)
from ccg_env.engine.choices import describe_choice
from ccg_env.engine.cards import CardSet
from ccg_env.engine.decks import Deck, parse_deck
from ccg_env.engine.draft import OFFER_SIZE, Draft, DraftView, as_hero, draft_pool

CARDS = default_cards()
RULES = Rules.load()


def draft_randomly(seed, pick_seed=0, heroes=None):
    """A finished draft with random picks; also return every (seat, offer ids, picked id) in order."""
    draft, rng, trace = Draft(CARDS, RULES, seed, heroes), random.Random(pick_seed), []
    while not draft.is_over:
        seat, offer = draft.current, tuple(c.id for c in draft.offer(draft.current))
        picked = draft.pick(rng.randrange(len(draft.legal_picks())))
        trace.append((seat, offer, picked.id))
    return draft, trace


def as_counts(cards):
    counts = {}
    for card_id in cards:
        counts[card_id] = counts.get(card_id, 0) + 1
    return counts


@pytest.mark.parametrize("seed", range(6))
def test_thirty_picks_each_only_offered_cards_and_legal_decks(seed):
    draft, trace = draft_randomly(seed, pick_seed=seed)
    assert [seat for seat, _, _ in trace] == [0, 1] * RULES.deck_size  # seat 0 picks first in every round
    for seat, offer, picked in trace:
        assert len(offer) == OFFER_SIZE and len(set(offer)) == OFFER_SIZE and picked in offer
    for seat, deck in enumerate(draft.decks()):
        assert list(deck.cards) == [picked for s, _, picked in trace if s == seat]
        assert len(deck.cards) == RULES.deck_size
        assert deck.hero is draft.sides[seat].hero
        # the deck loader accepts it: size, copies, collectible, class
        data = {"name": deck.name, "hero": deck.hero.value, "cards": as_counts(deck.cards)}
        assert parse_deck(data, CARDS, RULES, source="<drafted>").cards == tuple(
            card_id for card_id, n in as_counts(deck.cards).items() for _ in range(n))


def test_offers_hold_only_cards_the_hero_may_play_and_respect_the_copy_limit():
    for seed in range(4):
        draft = Draft(CARDS, RULES, seed, heroes=["mage", "rogue"])
        while not draft.is_over:
            side = draft.sides[draft.current]
            for card in draft.offer(draft.current):
                assert card.collectible and card.card_class in (CardClass.NEUTRAL, side.hero)
                assert side.counts.get(card.id, 0) < RULES.max_copies
            draft.pick(0)  # always the first: pushes the copy limit
        for deck in draft.decks():
            assert max(as_counts(deck.cards).values()) <= RULES.max_copies


def test_same_seed_and_picks_same_draft_and_other_seeds_differ():
    first, trace1 = draft_randomly(7, pick_seed=3)
    again, trace2 = draft_randomly(7, pick_seed=3)
    assert trace1 == trace2 and first.decks() == again.decks()
    other, trace3 = draft_randomly(8, pick_seed=3)
    assert trace3 != trace1


def test_one_seats_picks_do_not_change_the_other_seats_offers():
    a, b = Draft(CARDS, RULES, 11), Draft(CARDS, RULES, 11)
    seen_a, seen_b = [], []
    for _ in range(RULES.deck_size):
        a.pick(0), b.pick(2)  # seat 0 picks differently
        seen_a.append(a.sides[1].offer), seen_b.append(b.sides[1].offer)
        a.pick(1), b.pick(1)
    assert seen_a == seen_b


def test_heroes_drawn_from_the_seed_or_given():
    drawn = {tuple(s.hero for s in Draft(CARDS, RULES, seed).sides) for seed in range(40)}
    assert len({hero for pair in drawn for hero in pair}) >= 4 and CardClass.NEUTRAL not in {h for p in drawn for h in p}
    given = Draft(CARDS, RULES, 0, heroes=["warlock", CardClass.PALADIN])
    assert [s.hero for s in given.sides] == [CardClass.WARLOCK, CardClass.PALADIN]
    with pytest.raises(DataError, match="unknown hero class 'druid'"):
        Draft(CARDS, RULES, 0, heroes=["druid", "mage"])
    with pytest.raises(ValueError, match="two hero classes"):
        Draft(CARDS, RULES, 0, heroes=["mage"])


def test_illegal_picks_change_nothing():
    draft = Draft(CARDS, RULES, 2)
    before = (draft.current, draft.sides[0].offer, list(draft.sides[0].picks))
    for bad in (-1, 3, 1.0, True, "0"):
        with pytest.raises(IllegalActionError):
            draft.pick(bad)
    assert (draft.current, draft.sides[0].offer, list(draft.sides[0].picks)) == before
    with pytest.raises(IllegalActionError, match="not complete"):
        draft.decks()
    finished, _ = draft_randomly(2)
    with pytest.raises(IllegalActionError, match="over"):
        finished.pick(0)
    assert list(finished.legal_picks()) == []


def test_clone_is_independent_and_replays_the_same_offers():
    draft = Draft(CARDS, RULES, 5)
    for _ in range(9):
        draft.pick(1)
    copy = draft.clone()
    for _ in range(20):
        assert copy.sides[copy.current].offer == draft.sides[draft.current].offer
        draft.pick(2), copy.pick(2)
    copy.pick(0)
    assert len(copy.sides[0].picks) + len(copy.sides[1].picks) == len(draft.sides[0].picks) + len(
        draft.sides[1].picks) + 1


def test_the_battle_is_a_normal_game_with_the_drafted_decks():
    draft, _ = draft_randomly(3)
    decks = draft.decks()
    game = Game.new(3, decks=decks, log=False)
    for seat, deck in enumerate(decks):
        player = game.state.players[seat]
        ids = sorted(c.definition.id for zone in (player.deck, player.hand) for c in zone if c.definition.id != "the_coin")
        assert ids == sorted(deck.cards)


def test_a_small_pool_offers_fewer_cards_and_a_too_small_pool_is_refused():
    small_ids = sorted(draft_pool(CARDS, CardClass.NEUTRAL))[:15]  # 15 cards x 2 copies = exactly 30
    small = CardSet({i: CARDS[i] for i in small_ids}, ("<test>",))
    draft = Draft(small, RULES, 0, heroes=["neutral", "neutral"])
    while not draft.is_over:
        assert 1 <= len(draft.legal_picks()) <= OFFER_SIZE
        draft.pick(len(draft.legal_picks()) - 1)
    assert all(sorted(set(d.cards)) == small_ids for d in draft.decks())  # every card twice: forced
    tiny = CardSet({i: CARDS[i] for i in small_ids[:14]}, ("<test>",))
    with pytest.raises(DataError, match="fewer than the 30"):
        Draft(tiny, RULES, 0, heroes=["neutral", "neutral"])


def test_view_shows_own_offer_and_picks_with_action_ids():
    draft = Draft(CARDS, RULES, 4)
    draft.pick(0)
    view = DraftView.of(draft, 1, draft_offset=235)
    assert view.seat == 1 and view.picks == () and view.offer == draft.offer(1)
    assert [view.action_id(k) for k in range(3)] == [235, 236, 237]
    assert [DraftView.of(draft, 0).action_id(k) for k in range(3)] == [0, 1, 2]  # no offset: picks are actions 0..


def test_a_hero_class_is_taken_by_name_or_refused_listing_every_class():
    assert as_hero("mage") is CardClass.MAGE and as_hero(CardClass.WARRIOR) is CardClass.WARRIOR
    with pytest.raises(DataError) as info:
        as_hero("bard")
    assert str(info.value) == ("<draft>, field 'heroes': unknown hero class 'bard' (allowed: neutral, mage, warrior, "
                               "paladin, priest, rogue, warlock)")


def test_a_clone_keeps_heroes_picks_and_copy_counts_and_a_view_shows_its_seats_draft():
    draft = Draft(CARDS, RULES, 5, heroes=["mage", "rogue"])
    for _ in range(6):
        draft.pick(0)
    clone = draft.clone()
    assert [s.hero for s in clone.sides] == [CardClass.MAGE, CardClass.ROGUE]
    assert [clone.picks(seat) for seat in (0, 1)] == [draft.picks(seat) for seat in (0, 1)]
    assert [s.counts for s in clone.sides] == [s.counts for s in draft.sides] and clone.sides[0].counts
    clone.pick(0)
    assert len(clone.picks(0)) == len(draft.picks(0)) + 1 and clone.sides[0].counts != draft.sides[0].counts
    view = DraftView.of(draft, 1, draft_offset=7)
    assert (view.seat, view.hero, view.round, view.rules, view.cards) == (1, CardClass.ROGUE, draft.round, RULES, CARDS)
    assert view.offer == draft.offer(1) and view.picks == draft.picks(1) and view.action_id(2) == 9


def test_a_drafts_dealing_is_pinned_by_its_seed():
    """Failure files and saved drafts replay from the seed: the heroes and first offers of seed 7 must not move."""
    draft = Draft(CARDS, RULES, 7)
    assert [side.hero for side in draft.sides] == [CardClass.WARLOCK, CardClass.WARLOCK]
    assert [[card.id for card in draft.offer(seat)] for seat in (0, 1)] == [
        ["goldshire_footman", "magma_rager", "sprint"], ["worgen_infiltrator", "dread_infernal", "harvest_golem"]]


def test_each_seat_drafts_from_its_class_pool_until_its_deck_is_full():
    with pytest.raises(TypeError, match=r"^seed must be an integer, got True$"):
        Draft(CARDS, RULES, True)
    draft = Draft(CARDS, RULES, 2, heroes=["mage", "rogue"])
    for side in draft.sides:
        assert side.pool == draft_pool(CARDS, side.hero)
        assert any(CARDS[card_id].card_class is side.hero for card_id in side.pool)  # class cards, not only neutral
    while not draft.is_over:
        draft.pick(0)
    assert draft.current == 0 and len(draft.legal_picks()) == 0 and draft.offer(0) == draft.offer(1) == ()
    assert draft.deck(1) == Deck("draft-2-seat1", draft.deck(1).cards, "drafted", CardClass.ROGUE)


def test_a_draft_under_a_one_copy_rule_offers_every_card_once_at_most():
    draft = Draft(CARDS, dataclasses.replace(RULES, max_copies=1), 3)
    while not draft.is_over:
        assert len(draft.offer(draft.current)) == OFFER_SIZE
        draft.pick(0)
    assert all(len(set(deck.cards)) == len(deck.cards) for deck in draft.decks())


# --- the draft as the first phase of a game (Game.new_draft) -----------------------------------------------------


def test_a_game_starts_with_its_draft_whose_picks_are_its_legal_actions():
    game = Game.new_draft(4, log=False)
    assert game.in_draft and not game.in_mulligan and game.current_player == 0 and game.turn == 0
    assert game.legal_actions() == [Choice(ChoiceKind.PICK, k) for k in range(OFFER_SIZE)]
    offered = game.draft.offer(0)
    game.apply(Choice(ChoiceKind.PICK, 2))
    assert game.draft.picks(0) == (offered[2],) and game.current_player == 1 == game.draft.current
    assert str(Choice(ChoiceKind.PICK, 2)) == "pick offered card 2"
    assert describe_choice(game, game.legal_actions()[0]) == f"Pick {game.draft.offer(1)[0].name}"


@pytest.mark.parametrize("battle_seed", [None, 9])
def test_the_last_pick_deals_the_battle_in_place_as_game_new_would(battle_seed):
    game, rng = Game.new_draft(3, hero_classes=["mage", "rogue"], battle_seed=battle_seed), random.Random(1)
    while game.in_draft:
        game.apply(rng.choice(game.legal_actions()))
    dealt = Game.new(3 if battle_seed is None else battle_seed, decks=game.draft.decks())
    assert game.to_json() == dealt.to_json() and game.in_mulligan and game.log[0].action.kind == "StartGame"
    assert [game.player(seat).hero.definition.card_class for seat in (0, 1)] == [CardClass.MAGE, CardClass.ROGUE]
    assert [c.kind for c in game.legal_actions()] == [c.kind for c in dealt.legal_actions()]


def test_a_pick_that_is_not_offered_and_a_battle_choice_in_the_draft_are_refused_and_change_nothing():
    game = Game.new_draft(0)
    before = game.clone()
    with pytest.raises(IllegalActionError, match=r"seat 0 is offered 3 cards \(indices 0..2\)"):
        game.apply(Choice(ChoiceKind.PICK, 3))
    with pytest.raises(IllegalActionError, match="the game is in its draft: pick one of the offered cards"):
        game.apply(Choice(ChoiceKind.END_TURN))
    assert game.draft.picks(0) == before.draft.picks(0) == () and game.draft.offer(0) == before.draft.offer(0)
    battle = Game.new(0)
    with pytest.raises(IllegalActionError, match="there is no draft now"):
        battle.apply(Choice(ChoiceKind.PICK, 0))


def test_a_clone_in_the_draft_plays_on_alone_and_a_game_in_its_draft_is_not_saved():
    game = Game.new_draft(7)
    copy = game.clone()
    copy.apply(copy.legal_actions()[1])
    assert game.draft.picks(0) == () and len(copy.draft.picks(0)) == 1 and game.current_player == 0
    game.apply(game.legal_actions()[1])
    assert game.draft.offer(1) == copy.draft.offer(1)  # the same pick, the same next offer
    with pytest.raises(StateError, match="a game in its draft cannot be saved"):
        game.to_json()
