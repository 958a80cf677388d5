"""GameView: what it shows, what it hides, and determinized clones that never depend on hidden cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ccg_env.agents.heuristic import choose
from ccg_env.engine import Choice, ChoiceKind, Game, Rules
from ccg_env.engine.actions import ChangeTurn
from ccg_env.engine.choices import END_TURN
from ccg_env.engine.invariants import check_invariants
from ccg_env.env.codec import ActionCodec, ActionLayout
from ccg_env.engine.view import GameView

CODEC = ActionCodec(ActionLayout.for_rules(Rules.load()))

SCENARIO = {
    "current": 0,
    "players": [
        {"mana": 5, "hand": ["fireball", "wisp"], "deck": ["river_crocolisk", "chillwind_yeti", "wisp"],
         "battlefield": ["bloodfen_raptor"], "secrets": []},
        {"mana": 5, "hand": ["magma_rager", "consecration", "the_coin"], "secrets": ["explosive_trap"],
         "deck": ["core_hound", "wisp", "fireball", "explosive_trap"], "battlefield": ["river_crocolisk"]},
    ],
}


def mid_game(seed: int = 3, decisions: int = 30) -> Game:
    """A seeded game after some heuristic decisions (hands, boards and decks all in use)."""
    game = Game.new(seed=seed, log=True)
    for _ in range(decisions):
        game.apply(choose(GameView(game, game.current_player)))
    return game


def test_view_shows_own_cards_and_only_counts_of_enemy_hidden_zones():
    view = GameView(Game.from_scenario(SCENARIO), 0, CODEC)
    own, enemy = view.own, view.enemy
    assert [c.card_id for c in own.hand] == ["fireball", "wisp"]
    assert [c.card_id for c in enemy.battlefield] == ["river_crocolisk"]
    assert enemy.hand == () and enemy.hand_size == 3
    assert enemy.secrets == () and enemy.secret_count == 1
    assert (own.deck_size, enemy.deck_size) == (3, 4)


def test_card_lookup_hides_enemy_hand_secrets_and_decks():
    game = Game.from_scenario(SCENARIO)
    view = GameView(game, 0)
    enemy, me = game.player(1), game.player(0)
    for hidden in (enemy.hand[0], enemy.secrets[0], enemy.deck[0], me.deck[0]):
        assert view.card(hidden.uid) is None
    assert view.card(me.hand[0].uid).card_id == "fireball"
    assert view.card(enemy.battlefield[0].uid).card_id == "river_crocolisk"


def test_public_log_names_own_draws_but_not_enemy_draws():
    game = mid_game()
    lines = GameView(game, 0).public_log()
    enemy_draws = [line for line in lines if line.strip().startswith("DrawCards(enemy")]
    own_draws = [line for line in lines if line.strip().startswith("DrawCards(you")]
    assert enemy_draws and all("drawn=[a card" in line for line in enemy_draws)
    assert own_draws and all("#" in line.split("drawn=")[1] for line in own_draws)


def test_public_log_names_visible_cards_and_heroes_from_each_side():
    game = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hand": ["arcane_explosion"], "battlefield": [{"card": "chillwind_yeti", "sleeping": False}]},
        {"mana": 10, "battlefield": ["river_crocolisk"]}]})
    me, enemy = game.player(0), game.player(1)
    spell, yeti, croc = me.hand[0].uid, me.battlefield[0].uid, enemy.battlefield[0].uid
    start = len(game.log)
    game.apply(Choice(ChoiceKind.PLAY, spell))
    game.apply(Choice(ChoiceKind.ATTACK, yeti, enemy.hero.uid))

    def lines(who: str, hero: str) -> list[str]:
        return [f"PlayCard({who}, card=Arcane Explosion#{spell}, target=None)",
                f"  CastSpell({who}, card=Arcane Explosion#{spell}, target=None)",
                f"    TriggerAbility({who}, card=Arcane Explosion#{spell}, ability=battlecry:damage, target=None, "
                f"trigger_card=None, fizzled=False)",
                f"      Damage({who}, hits=[{{source: Arcane Explosion#{spell}, target: River Crocolisk#{croc}, "
                f"amount: 1}}])",
                f"Attack({who}, attacker=Chillwind Yeti#{yeti}, defender={hero})",
                f"  Damage({who}, hits=[{{source: Chillwind Yeti#{yeti}, target: {hero}, amount: 4}}])"]

    assert GameView(game, 0).public_log(start) == lines("you", "enemy hero")
    assert GameView(game, 1).public_log(start) == lines("enemy", "your hero")


def test_public_log_names_each_card_the_viewer_drew_and_no_card_the_enemy_drew():
    game = Game.new(0)
    own = ", ".join(f"{card.name}#{card.uid}" for card in game.player(0).hand)
    assert GameView(game, 0).public_log()[:3] == ["StartGame(you)", f"  DrawCards(you, amount=3, drawn=[{own}])",
                                                  "  DrawCards(enemy, amount=4, drawn=[a card, a card, a card, a card])"]


def test_public_log_hides_the_enemys_mulligan_marks_and_shows_why_an_action_was_cancelled():
    game = Game.new(seed=4)
    start = len(game.log)
    card = game.player(0).hand[0]
    game.apply(Choice(ChoiceKind.MULLIGAN, card.uid))
    game.perform(ChangeTurn(0, 1))
    why = "  [cancelled: the mulligan is not over (end_turn in the mulligan means: done, keep the rest of the hand)]"
    assert GameView(game, 0).public_log(start) == [f"MulliganMark(you, card={card.name}#{card.uid})",
                                                   f"ChangeTurn(you, next_player=1){why}"]
    assert GameView(game, 1).public_log(start) == ["MulliganMark(enemy, card=a card)",
                                                   f"ChangeTurn(enemy, next_player=1){why}"]


def test_choices_and_action_ids_line_up_with_the_codec():
    game = mid_game()
    view = GameView(game, game.current_player, CODEC)
    choices = view.legal_choices()
    ids = view.legal_action_ids()
    assert [view.choice_of(i) for i in ids] == choices
    assert GameView(game, 1 - game.current_player, CODEC).legal_choices() == []


def test_bad_player_and_missing_codec_raise_clear_errors():
    game = Game.new(seed=0)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        GameView(game, 2)
    with pytest.raises(ValueError, match="without a codec"):
        GameView(game, 0).legal_action_ids()


def _hidden_pool(game: Game, player: int) -> Counter:
    p = game.player(player)
    return Counter(c.definition.id for c in (*p.hand, *p.deck, *p.secrets))


def test_determinize_keeps_public_state_and_hidden_multisets():
    game = Game.from_scenario(SCENARIO, seed=1)
    before = game.to_json()
    view = GameView(game, 0)
    for seed in range(10):
        world = view.determinize(random.Random(seed))
        me, enemy = world.player(0), world.player(1)
        assert [c.uid for c in me.hand] == [c.uid for c in game.player(0).hand]
        assert [c.uid for c in enemy.battlefield] == [c.uid for c in game.player(1).battlefield]
        assert (len(enemy.hand), len(enemy.deck), len(enemy.secrets)) == (3, 4, 1)
        assert enemy.hand[2].definition.id == "the_coin"  # created by a public effect: stays
        assert enemy.secrets[0].definition.card_type.value == "secret"
        assert _hidden_pool(world, 1) == _hidden_pool(game, 1)
        assert Counter(c.definition.id for c in me.deck) == Counter(c.definition.id for c in game.player(0).deck)
        assert world.legal_actions() == game.legal_actions()
        assert world.state.log is None
        check_invariants(world)  # every redealt card stands in the zone that lists it
    assert game.to_json() == before


def test_determinize_deals_the_enemy_as_many_distinct_secrets_as_it_has():
    scenario = {"current": 0, "players": [
        {"mana": 5, "hand": ["wisp"], "deck": ["wisp"]},
        {"secrets": ["explosive_trap", "snipe"], "hand": ["wisp", "snipe"],
         "deck": ["snipe", "snipe", "ice_barrier", "ice_barrier", "explosive_trap", "wisp"]}]}
    game = Game.from_scenario(scenario, seed=1)
    seen = set()
    for seed in range(30):
        world = GameView(game, 0).determinize(random.Random(seed))
        secrets = [c.definition.id for c in world.player(1).secrets]
        assert len(secrets) == 2 and len(set(secrets)) == 2
        check_invariants(world)
        seen.add(frozenset(secrets))
    assert len(seen) > 1  # which two is resampled


def test_determinize_in_the_enemys_mulligan_forgets_its_marks_and_plays_on():
    game = Game.new(seed=4)
    game.apply(END_TURN)  # seat 0 keeps its hand; seat 1 decides now
    game.apply(Choice(ChoiceKind.MULLIGAN, game.player(1).hand[0].uid))
    world = GameView(game, 0).determinize(random.Random(0))
    assert world.player(1).marked == [] and world.in_mulligan
    world.apply(Choice(ChoiceKind.MULLIGAN, world.player(1).hand[1].uid))
    world.apply(END_TURN)
    assert not world.in_mulligan
    check_invariants(world)


def test_determinize_resamples_the_enemy_hand():
    view = GameView(Game.from_scenario(SCENARIO, seed=1), 0)
    hands = {tuple(c.definition.id for c in view.determinize(random.Random(s)).player(1).hand) for s in range(20)}
    assert len(hands) > 3


def _hide_differently(game: Game, viewer: int) -> Game:
    """A clone that differs from ``game`` only in what ``viewer`` cannot see."""
    other = game.clone()
    enemy, me = other.player(1 - viewer), other.player(viewer)
    hand_slot = next(i for i, c in enumerate(enemy.hand) if c.definition.collectible)
    deck_slot = next(i for i, c in enumerate(enemy.deck) if c.definition is not enemy.hand[hand_slot].definition)
    enemy.hand[hand_slot], enemy.deck[deck_slot] = enemy.deck[deck_slot].copy(), enemy.hand[hand_slot].copy()
    enemy.hand[hand_slot].zone, enemy.deck[deck_slot].zone = enemy.deck[deck_slot].zone, enemy.hand[hand_slot].zone
    random.Random(7).shuffle(me.deck)
    random.Random(8).shuffle(enemy.deck)
    other.state.rng.state ^= 0xDEADBEEF
    return other


def test_determinize_depends_only_on_what_the_viewer_may_know():
    game = mid_game()
    viewer = game.current_player
    other = _hide_differently(game, viewer)
    assert _hidden_pool(other, 1 - viewer) == _hidden_pool(game, 1 - viewer)
    assert [c.definition.id for c in other.player(1 - viewer).hand] != \
        [c.definition.id for c in game.player(1 - viewer).hand]
    for seed in range(5):
        a = GameView(game, viewer).determinize(random.Random(seed))
        b = GameView(other, viewer).determinize(random.Random(seed))
        for p in (0, 1):
            for zone in ("hand", "deck", "secrets"):
                assert [c.definition.id for c in getattr(a.player(p), zone)] == \
                    [c.definition.id for c in getattr(b.player(p), zone)]
        assert a.state.rng.state == b.state.rng.state


def test_preferred_targets_follow_the_cards_preferred_mark():
    game = Game.from_scenario(SCENARIO)
    view = GameView(game, 0)
    fireball = game.player(0).hand[0]
    enemy = game.player(1)
    assert view.preferred_targets(fireball.uid) == [enemy.hero.uid, enemy.battlefield[0].uid]
    assert view.preferred_target(fireball.uid) == enemy.hero.uid
    assert view.preferred_targets(game.player(0).hand[1].uid) == []  # a wisp takes no target
    assert view.preferred_target(game.player(0).hand[1].uid) is None
    with pytest.raises(ValueError, match="not in player 0's hand"):
        view.preferred_targets(enemy.hand[0].uid)


def test_off_turn_views_cannot_decode_or_describe_the_enemys_cards():
    game = Game.from_scenario(SCENARIO)
    view = GameView(game, 1, CODEC)
    with pytest.raises(ValueError, match=r"^GameView.choice_of: player 1 is not on turn"):
        view.choice_of(1)
    with pytest.raises(ValueError, match=r"^GameView.action_ids: player 1 is not on turn"):
        view.action_ids(game.legal_actions())
    probe = Choice(ChoiceKind.PLAY, game.player(0).hand[0].uid, None)
    with pytest.raises(ValueError, match="not a legal choice"):
        GameView(game, 0).describe(probe)
    assert GameView(game, 0).describe(END_TURN) == "End turn"


def test_side_views_show_every_field_and_card_views_every_stat():
    game = Game.from_scenario({"current": 0, "turn": 5, "players": [
        {"mana": 4, "max_mana": 6, "fatigue": 2, "hero": "mage", "hand": ["wisp"], "secrets": ["snipe"],
         "weapon": "fiery_war_axe", "deck": ["wisp", "wisp"],
         "battlefield": [{"card": "chillwind_yeti", "health": 3, "attacks_made": 1, "sleeping": True}]},
        {"mana": 1, "max_mana": 3, "hand": ["wisp", "wisp"], "secrets": ["explosive_trap"],
         "battlefield": ["river_crocolisk"]}]})
    me, enemy = game.player(0), game.player(1)
    me.hero_power_uses = 1
    enemy.battlefield[0].frozen_on_turn = 1  # frozen on the game's first turn still shows
    own, other = GameView(game, 0).own, GameView(game, 0).enemy
    assert (own.index, own.mana, own.max_mana, own.fatigue, own.hand_size, own.deck_size, own.secret_count) == (
        0, 4, 6, 2, 1, 2, 1)
    assert (own.hero.uid, own.weapon.card_id, own.hero_class.value, own.hero_power.card_id, own.hero_power_uses) == (
        me.hero.uid, "fiery_war_axe", "mage", "fireblast", 1)
    assert [c.card_id for c in own.hand] == ["wisp"] and [c.card_id for c in own.secrets] == ["snipe"]
    assert (other.index, other.mana, other.max_mana, other.hand_size, other.secret_count, other.weapon) == (
        1, 1, 3, 2, 1, None)
    assert other.hand == () and other.secrets == () and other.hero_power is None
    yeti = own.battlefield[0]
    assert (yeti.owner, yeti.zone, yeti.health, yeti.max_health, yeti.attacks_made, yeti.sleeping, yeti.frozen) == (
        0, me.battlefield[0].zone, 3, 5, 1, True, False)
    croc = other.battlefield[0]
    assert (croc.owner, croc.frozen, croc.sleeping) == (1, True, False)
    axe = own.weapon
    assert (axe.attack, axe.durability, axe.cost) == (3, 2, 3)


def test_a_view_reads_the_games_turn_rules_result_and_log_size():
    game = Game.from_scenario({"current": 1, "turn": 4, "players": [{"health": 3}, {"mana": 10, "hand": ["fireball"]}]})
    view = GameView(game, 0)
    assert (view.turn, view.current_player, view.is_my_turn, view.is_over, view.winner) == (4, 1, False, False, None)
    assert view.rules is game.state.rules and view.log_size() == len(game.log) and not view.in_mulligan
    game.apply(Choice(ChoiceKind.PLAY, game.player(1).hand[0].uid, game.player(0).hero.uid))
    assert (view.is_over, view.winner, view.is_my_turn) == (True, 1, False) and view.log_size() == len(game.log) > 0
    assert GameView(game, 0).graveyard(1)[0].card_type.value == "spell"


def test_marks_show_on_the_own_side_only_and_hero_power_targets_follow_its_marks():
    game = Game.new(seed=4)
    card = game.player(0).hand[0]
    game.apply(Choice(ChoiceKind.MULLIGAN, card.uid))
    assert GameView(game, 0).own.marked == (card.uid,) and GameView(game, 1).enemy.marked == ()
    board = Game.from_scenario({"current": 0, "turn": 3, "players": [
        {"mana": 10, "hero": "mage", "battlefield": ["wisp"]}, {"battlefield": ["river_crocolisk"]}]})
    view = GameView(board, 0)
    me, enemy = board.player(0), board.player(1)
    preferred = [enemy.hero.uid, enemy.battlefield[0].uid]
    assert view.hero_power_targets() == view.hero_power_targets(preferred=True) == preferred
    assert view.hero_power_targets(preferred=False) == [me.hero.uid, me.battlefield[0].uid, *preferred]


def test_both_heroes_classes_and_powers_are_public():
    from ccg_env.engine import CardClass

    game = Game.from_scenario({"players": [{"hero": "priest", "mana": 2, "battlefield": [
        {"card": "chillwind_yeti", "health": 3}]}, {"hero": "rogue"}]})
    mine, theirs = GameView(game, 0), GameView(game, 1)
    power = game.player(0).hero_power[0]
    assert mine.own.hero_class is CardClass.PRIEST and mine.enemy.hero_class is CardClass.ROGUE
    assert mine.own.hero_power.card_id == "lesser_heal" and mine.enemy.hero_power.card_id == "dagger_mastery"
    assert theirs.card(power.uid).card_id == "lesser_heal"  # the enemy's power is public, unlike its hand
    yeti = game.player(0).battlefield[0]
    assert mine.hero_power_targets(preferred=True) == [yeti.uid]  # only injured allies are preferred
    assert set(mine.hero_power_targets(preferred=False)) == {c.uid for c in (
        game.player(0).hero, yeti, game.player(1).hero)}
    assert theirs.hero_power_targets() == [None]  # Dagger Mastery takes no target
    game.apply(Choice(ChoiceKind.HERO_POWER, power.uid, yeti.uid))
    assert GameView(game, 1).enemy.hero_power_uses == 1
    assert "Enemy uses the hero power Lesser Heal on Chillwind Yeti" in GameView(game, 1).log_in_words()
    clone = GameView(game, 1).determinize(random.Random(0))
    assert clone.player(0).hero_power[0].definition is power.definition and clone.player(0).hero_power_uses == 1
    plain = GameView(Game.from_scenario({"players": [{}, {}]}), 0)
    assert plain.own.hero_power is None and plain.own.hero_class is CardClass.NEUTRAL
    assert plain.hero_power_targets() == []
