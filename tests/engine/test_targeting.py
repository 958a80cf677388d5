"""The TargetSystem: candidates and their order, play validation, fizzles, random picks and auto-targeting."""

import textwrap

import pytest

from ccg_env.engine import (COMPILED, Alliance, CardType, Choice, ChoiceKind, Game, IllegalActionError, Mark, Zones,
                            auto_target, candidates, load_cards)
from ccg_env.engine.cards import default_cards
from ccg_env.engine.rng import Rng

from .helpers import board, play

TEST_CARDS = """
cards:
  - id: touch_the_hand
    name: Touch the Hand
    type: spell
    cost: 1
    text: Every effect on the cards in your hand and deck (none of them is in play, so nothing changes).
    abilities:
      - {trigger: battlecry, effect: buff, attack: 2, health: 2, select: all, mark: {alliance: ally, zones: [hand, deck]}}
      - {trigger: battlecry, effect: give_keyword, keyword: taunt, select: all, mark: {alliance: ally, zones: [hand, deck]}}
      - {trigger: battlecry, effect: freeze, select: all, mark: {alliance: ally, zones: [hand, deck]}}
      - {trigger: battlecry, effect: damage, amount: 1, select: all, mark: {alliance: ally, zones: [hand, deck]}}
      - {trigger: battlecry, effect: heal, amount: 1, select: all, mark: {alliance: ally, zones: [hand, deck]}}
      - {trigger: battlecry, effect: destroy, select: all, mark: {alliance: ally, zones: [hand, deck]}}
  - id: heal_ally_minion
    name: Heal Ally Minion
    type: spell
    cost: 1
    text: Restore 2 health to a friendly minion.
    target: {required: true, allowed: {alliance: ally, zones: battlefield}}
    abilities: [{trigger: battlecry, effect: heal, amount: 2}]
  - id: optional_poke
    name: Optional Poke
    type: minion
    cost: 1
    attack: 1
    health: 1
    text: "Battlecry: deal 1 damage (optional target)."
    target: {required: false, allowed: {alliance: any, zones: active}, preferred: {alliance: enemy, zones: active}}
    abilities: [{trigger: battlecry, effect: damage, amount: 1}]
  - id: non_hero_bolt
    name: Non-hero Bolt
    type: spell
    cost: 1
    text: Deal 3 damage to a non-hero character.
    target: {required: true, allowed: {alliance: any, zones: active, exclude: [hero]}}
    abilities: [{trigger: battlecry, effect: damage, amount: 3}]
  - id: injured_only
    name: Injured Only
    type: spell
    cost: 1
    text: Destroy an injured enemy minion.
    target: {required: true, allowed: {alliance: enemy, zones: battlefield, filters: [injured]}}
    abilities: [{trigger: battlecry, effect: destroy}]
  - id: two_step_bolt
    name: Two Step Bolt
    type: spell
    cost: 1
    text: Deal 1 damage to all enemy minions, then 2 damage to a chosen minion.
    target: {required: true, allowed: {alliance: any, zones: battlefield}}
    abilities:
      - {trigger: battlecry, effect: damage, amount: 1, select: all, mark: {alliance: enemy, zones: battlefield}}
      - {trigger: battlecry, effect: damage, amount: 2}
  - id: random_pinger
    name: Random Pinger
    type: spell
    cost: 1
    text: Deal 1 damage to all enemy minions, then 5 damage to 2 random enemy minions.
    abilities:
      - {trigger: battlecry, effect: damage, amount: 1, select: all, mark: {alliance: enemy, zones: battlefield}}
      - {trigger: battlecry, effect: damage, amount: 5, select: random, count: 2,
         mark: {alliance: enemy, zones: battlefield}}
"""


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    path = tmp_path_factory.mktemp("cards") / "targeting.yaml"
    path.write_text(textwrap.dedent(TEST_CARDS))
    return load_cards([*default_cards().sources, path])


def _game(cards, p0=None, p1=None, seed=0):
    return Game.from_scenario(board(p0, p1), seed=seed, cards=cards)


def _plays(game, card):
    return [c.target for c in game.legal_actions() if c.kind is ChoiceKind.PLAY and c.source == card.uid]


def test_candidates_follow_ally_then_enemy_and_the_zone_order(cards):
    game = _game(cards, {"battlefield": ["wisp"], "hand": ["wisp"]}, {"battlefield": ["wisp", "river_crocolisk"]})
    me, enemy = game.player(0), game.player(1)
    mark = Mark(Alliance.ANY, Zones.ACTIVE | Zones.HAND)
    assert candidates(game.state, 0, mark) == [me.hero, me.hand[0], me.battlefield[0], enemy.hero,
                                               *enemy.battlefield]
    # seen from the enemy's cards, "ally" is the enemy player, whoever's turn it is
    assert candidates(game.state, 1, Mark(Alliance.ALLY, Zones.HERO)) == [enemy.hero]


def test_a_mark_with_types_keeps_only_cards_of_those_types(cards):
    game = _game(cards, {"battlefield": ["wisp"], "hand": ["fireball", "wisp"]}, {"battlefield": ["river_crocolisk"]})
    me, enemy = game.player(0), game.player(1)
    minions = Mark(Alliance.ANY, Zones.ACTIVE | Zones.HAND, frozenset({CardType.MINION}))
    assert candidates(game.state, 0, minions) == [me.hand[1], me.battlefield[0], *enemy.battlefield]
    spells = Mark(Alliance.ANY, Zones.ACTIVE | Zones.HAND, frozenset({CardType.SPELL}))
    assert candidates(game.state, 0, spells) == [me.hand[0]]
    assert Mark(Alliance.ENEMY, Zones.BATTLEFIELD).describe_short() == "ENEMY:BATTLEFIELD"  # as logs show a mark


def test_effects_on_cards_out_of_play_change_nothing(cards):
    game = _game(cards, {"hand": ["touch_the_hand", "chillwind_yeti"], "deck": ["wisp"]})
    yeti, wisp = game.player(0).hand[1], game.player(0).deck[0]
    before = [(c.attack, c.health, c.max_health, c.keywords, c.frozen_on_turn, c.zone) for c in (yeti, wisp)]
    play(game, "touch_the_hand")
    assert [(c.attack, c.health, c.max_health, c.keywords, c.frozen_on_turn, c.zone) for c in (yeti, wisp)] == before
    assert {"Buff", "GiveKeyword", "Freeze", "Damage", "Heal", "Destroy"} <= {e.kind for e in game.log}  # all ran


def test_required_target_without_candidates_makes_the_card_unplayable(cards):
    game = _game(cards, {"hand": ["heal_ally_minion"]}, {"battlefield": ["wisp"]})
    card = game.player(0).hand[0]
    assert _plays(game, card) == []
    with pytest.raises(IllegalActionError, match="requires a target"):
        game.apply(Choice(ChoiceKind.PLAY, card.uid))


def test_optional_target_may_be_left_empty(cards):
    game = _game(cards, {"hand": ["optional_poke"]}, {"battlefield": ["wisp"]})
    card = game.player(0).hand[0]
    options = _plays(game, card)
    assert options[0] is None and len(options) == 1 + 3  # no target, own hero, enemy hero, enemy wisp
    play(game, "optional_poke")
    assert [e.kind for e in game.log][-2:] == ["Summon", "TriggerAbility"]  # nothing to damage
    assert game.player(1).battlefield[0].health == 1


@pytest.mark.parametrize("card_id, target_of, error", [
    ("heal_ally_minion", lambda g: g.player(1).battlefield[0], "not an allowed target"),  # wrong alliance
    ("non_hero_bolt", lambda g: g.player(1).hero, "not an allowed target"),  # exclusion filter
    ("heal_ally_minion", lambda g: g.player(0).hero, "not an allowed target"),  # wrong zone
    ("injured_only", lambda g: g.player(1).battlefield[0], "not an allowed target"),  # predicate filter
    ("non_hero_bolt", lambda g: g.player(0).deck[0], "not an allowed target"),  # a card in the deck
])
def test_invalid_manual_targets_raise_with_state_unchanged(cards, card_id, target_of, error):
    game = _game(cards, {"hand": [card_id], "battlefield": ["wisp"], "deck": ["wisp"]}, {"battlefield": ["wisp"]})
    card = game.player(0).hand[0]
    before = game.to_json()
    with pytest.raises(IllegalActionError, match=error):
        game.apply(Choice(ChoiceKind.PLAY, card.uid, target_of(game).uid))
    assert game.to_json() == before


def test_exclusion_and_predicate_filters_in_candidates(cards):
    game = _game(cards, {"hand": ["non_hero_bolt", "injured_only"]},
                 {"battlefield": ["wisp", {"card": "chillwind_yeti", "health": 3}]})
    bolt, destroy = game.player(0).hand
    enemy = game.player(1)
    assert _plays(game, bolt) == [c.uid for c in enemy.battlefield]
    assert _plays(game, destroy) == [enemy.battlefield[1].uid]


def test_stealthed_enemies_cannot_be_targeted_but_allies_can(cards):
    game = _game(cards, {"hand": ["non_hero_bolt"], "battlefield": [{"card": "wisp", "keywords": ["stealth"]}]},
                 {"battlefield": [{"card": "wisp", "keywords": ["stealth"]}, "river_crocolisk"]})
    bolt = game.player(0).hand[0]
    assert _plays(game, bolt) == [game.player(0).battlefield[0].uid, game.player(1).battlefield[1].uid]


def test_a_target_that_dies_before_its_effect_resolves_fizzles(cards):
    game = _game(cards, {"hand": ["two_step_bolt"]}, {"battlefield": ["wisp", "river_crocolisk"]})
    wisp, croc = game.player(1).battlefield
    play(game, "two_step_bolt", wisp)  # the first ability kills the wisp before the second resolves
    fizzled = [e.action for e in game.log if e.kind == "TriggerAbility" and e.action.fizzled]
    assert len(fizzled) == 1 and fizzled[0].target is wisp
    assert croc.health == 2  # only the 'all' damage; the chosen 2 damage fizzled instead of moving
    assert wisp.zone is Zones.GRAVEYARD


def test_chosen_target_is_never_overwritten_by_auto_target(cards):
    game = _game(cards, {"hand": ["optional_poke"]}, {"battlefield": ["wisp", "river_crocolisk"]})
    card = game.player(0).hand[0]
    croc = game.player(1).battlefield[1]
    proposal = auto_target(game, card, preferred=True)
    assert proposal is game.player(1).hero  # the first preferred (enemy) candidate
    assert auto_target(game, card, preferred=True, rng=Rng(3)) in candidates(
        game.state, 0, card.definition.target.preferred, targeted=True)
    play(game, "optional_poke", croc)  # the player declared the crocolisk: auto_target must not change it
    assert croc.health == 2 and game.player(1).hero.health == 30
    playing = next(e.action for e in game.log if e.kind == "PlayCard")
    assert playing.target is croc


def test_auto_target_proposes_from_the_preferred_or_allowed_mark_never_a_stealthed_enemy(cards):
    game = _game(cards, {"hand": ["optional_poke"]}, {"battlefield": ["worgen_infiltrator", "wisp", "river_crocolisk"]})
    card, me, enemy = game.player(0).hand[0], game.player(0), game.player(1)
    assert auto_target(game, card) is enemy.hero  # the preferred mark (enemies) by default, its first candidate
    assert auto_target(game, card, preferred=False) is me.hero  # the allowed mark (any side), allies first
    picks = {auto_target(game, card, rng=Rng(seed)).uid for seed in range(40)}
    assert picks == {enemy.hero.uid, *(m.uid for m in enemy.battlefield[1:])}  # random, and stealth is not targeted


def test_random_picks_never_land_on_minions_waiting_for_the_reaper(cards):
    for seed in range(30):
        game = _game(cards, {"hand": ["random_pinger"]},
                     {"battlefield": ["wisp", "wisp", "chillwind_yeti", "river_crocolisk"]}, seed=seed)
        yeti, croc = game.player(1).battlefield[2:]
        play(game, "random_pinger")  # the wisps are at 0 health after the first ability, not yet reaped
        random_hits = [e.action.hits for e in game.log if e.kind == "Damage"][-1]
        assert sorted(h.target.definition.id for h in random_hits) == ["chillwind_yeti", "river_crocolisk"]
        assert (yeti.health, croc.health) == (5 - 1 - 5, 3 - 1 - 5)


@pytest.mark.skipif(COMPILED, reason="patches a module function, which compiled callers bind at build time; "
                                      "`make test` runs this tier again on the pure-Python engine")
def test_the_mask_validation_and_random_targets_share_one_candidate_function(cards, monkeypatch):
    import ccg_env.engine.targeting as targeting

    game = _game(cards, {"hand": ["non_hero_bolt"]}, {"battlefield": ["wisp"]})
    calls = []
    real = targeting.candidates
    monkeypatch.setattr(targeting, "candidates", lambda *a, **k: calls.append(1) or real(*a, **k))
    game.legal_actions()
    assert calls, "legal actions must come from TargetSystem candidates"
    calls.clear()
    play(game, "non_hero_bolt", game.player(1).battlefield[0])
    assert calls, "validation must come from TargetSystem candidates"


def test_a_declared_target_stays_targetable_until_it_leaves_play_or_hides_in_stealth():
    from ccg_env.engine.targeting import still_targetable

    game = Game.from_scenario(board({}, {"battlefield": ["river_crocolisk", {"card": "wisp", "keywords": ["stealth"]}]}))
    croc, hidden = game.player(1).battlefield
    mark = Mark(Alliance.ENEMY, Zones.BATTLEFIELD)
    assert still_targetable(game.state, 0, mark, croc)
    assert not still_targetable(game.state, 0, mark, hidden)  # stealth hides it from a chosen target
    assert still_targetable(game.state, 1, Mark(Alliance.ALLY, Zones.BATTLEFIELD), hidden)  # not from its owner
    croc.health = 0
    assert not still_targetable(game.state, 0, mark, croc)  # dying


@pytest.mark.parametrize("alliance, sides", [(Alliance.ALLY, (True, False)), (Alliance.ENEMY, (False, True)),
                                             (Alliance.ANY, (True, True))])
def test_a_marks_sides_say_whether_it_looks_at_the_ally_side_and_the_enemy_side(alliance, sides):
    """Agents read ``sides`` to weigh an area effect (whose minions it hits) without listing its candidates."""
    assert Mark(alliance, Zones.BATTLEFIELD).sides == sides
