"""Card features in the observation (``card_features=True``): the table, the layout, hidden information, the spec."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from ccg_env.engine import Game, Rules, default_cards, load_cards
from ccg_env.env.card_features import (MAX_FEATURE_ABILITIES, CardFeatures, ability_columns, card_columns,
                                       feature_columns)
from ccg_env.env.core import EnvCore
from ccg_env.env.observation import DECK_HEAD, FEATURE_PIECES, ObservationEncoder, card_order
from ccg_env.env.observation_spec import ObservationSpec

DOC = Path(__file__).resolve().parents[2] / "docs" / "observation.md"


@pytest.fixture(scope="module")
def features() -> CardFeatures:
    cards = default_cards()
    return CardFeatures(card_order(cards), cards)


def _row(features: CardFeatures, card_id: str) -> dict[str, float]:
    """The non-zero columns of a card's row."""
    index = [c.id for c in card_order(default_cards())].index(card_id)
    return {name: float(value) for name, value in zip(features.columns, features.table[index]) if value}


def test_a_taunt_minion_row_is_its_type_stats_and_keyword(features):
    assert _row(features, "goldshire_footman") == {"type_minion": 1, "cost": 1, "attack": 1, "health": 2,
                                                   "keyword_taunt": 1}


def test_frostbolt_row_is_a_targeted_spell_with_a_damage_and_a_freeze_ability(features):
    chosen = {"mark_ally": 1, "mark_enemy": 1, "zone_hero": 1, "zone_battlefield": 1}
    expected = {"type_spell": 1, "cost": 2, "has_target": 1, "target_required": 1,
                "a0_present": 1, "a0_trigger_battlecry": 1, "a0_effect_damage": 1, "a0_select_chosen": 1,
                "a0_amount": 3, **{f"a0_{k}": v for k, v in chosen.items()},
                "a1_present": 1, "a1_trigger_battlecry": 1, "a1_effect_freeze": 1, "a1_select_chosen": 1,
                **{f"a1_{k}": v for k, v in chosen.items()}}
    assert _row(features, "frostbolt") == expected


def test_summon_and_equip_abilities_carry_the_stats_of_the_card_they_put_into_play(features):
    row = _row(features, "muster_for_battle")  # three 1/1 recruits, then a 1/4 weapon
    assert (row["a0_effect_summon"], row["a0_amount"], row["a0_card_attack"], row["a0_card_health"]) == (1, 3, 1, 1)
    assert (row["a1_effect_equip_weapon"], row["a1_card_attack"], row["a1_card_health"]) == (1, 1, 4)
    assert "a2_present" not in row


def test_the_columns_are_the_card_columns_then_one_block_per_ability(features):
    assert features.columns == feature_columns()
    assert len(features.columns) == len(card_columns()) + MAX_FEATURE_ABILITIES * len(ability_columns())
    assert len(set(features.columns)) == len(features.columns)
    assert features.table.shape == (len(default_cards()), features.width)
    assert (features.table >= 0).all() and (features.table <= features.high).all()


def _card_file(tmp_path: Path, abilities: int) -> Path:
    ability = "      - {trigger: battlecry, effect: damage, select: enemy_hero, amount: 1}\n"
    path = tmp_path / "many.yaml"
    path.write_text("cards:\n  - id: many_pings\n    name: Many Pings\n    type: spell\n    cost: 1\n"
                    "    abilities:\n" + ability * abilities, encoding="utf-8")
    return path


def test_a_card_over_the_ability_bound_is_refused_when_the_env_is_built(tmp_path):
    cards = load_cards([*sorted(Path("configs/cards").glob("*.yaml")), _card_file(tmp_path, MAX_FEATURE_ABILITIES + 1)])
    with pytest.raises(ValueError, match=rf"card 'many_pings' has {MAX_FEATURE_ABILITIES + 1} abilities.*at most "
                                         rf"{MAX_FEATURE_ABILITIES}"):
        EnvCore(cards=cards, card_features=True)
    EnvCore(cards=cards)  # without card features the card set is fine
    at_bound = load_cards([*sorted(Path("configs/cards").glob("*.yaml")), _card_file(tmp_path, MAX_FEATURE_ABILITIES)])
    EnvCore(cards=at_bound, card_features=True)


def test_card_ids_false_needs_card_features_and_the_duel_mode():
    with pytest.raises(ValueError, match="card_ids=False needs card_features=True"):
        EnvCore(card_ids=False)
    with pytest.raises(ValueError, match="card_ids=False: the draft mode"):
        EnvCore(card_features=True, card_ids=False, mode="draft")
    with pytest.raises(ValueError, match="card_features: expected True or False"):
        EnvCore(card_features="yes")


def _positions(seed: int, count: int) -> list[Game]:
    """Clones of the positions of a random game (both seats to move, in the mulligan and after)."""
    game, rng, seen = Game.new(seed=seed), random.Random(seed), []
    while game.state.result is None and len(seen) < count:
        seen.append(game.clone())
        game.apply(rng.choice(game.legal_actions()))
    return seen


@pytest.mark.parametrize("options", [{"card_features": True}, {"card_features": True, "card_ids": False}])
def test_the_default_pieces_are_unchanged_and_card_rows_end_with_their_feature_row(options):
    plain, featured = ObservationEncoder(Rules(), default_cards()), ObservationEncoder(Rules(), default_cards(),
                                                                                         **options)
    a, b = plain.new_buffer(), featured.new_buffer()
    table = featured.features.table
    index = {card.id: i for i, card in enumerate(featured.cards)}
    for game in _positions(3, 120):
        seat = game.state.current
        plain.encode(game, seat, a)
        featured.encode(game, seat, b)
        va, vb = plain.view(a), featured.view(b)
        for name, values in va.items():
            if name in ("own_hand", "own_battlefield", "enemy_battlefield"):
                width = featured.feature_starts[0] - len(featured.cards) * featured.card_ids if name == "own_hand" \
                    else featured.feature_starts[1] - len(featured.cards) * featured.card_ids
                assert (vb[name][..., :width] == values[..., :width]).all()
            elif name != "own_secrets" or options.get("card_ids", True):
                assert (vb[name] == values).all(), name
        me = game.state.players[seat]
        hand_start, minion_start = featured.feature_starts
        for slot, card in enumerate(me.hand):
            assert (vb["own_hand"][slot, hand_start:] == table[index[card.definition.id]]).all()
        for slot, card in enumerate(game.state.players[1 - seat].battlefield):
            assert (vb["enemy_battlefield"][slot, minion_start:] == table[index[card.definition.id]]).all()
        deck = vb["own_deck_cards"]
        assert deck[0] == len(me.deck)
        assert (deck[len(DECK_HEAD):] == np.minimum(sum((table[index[c.definition.id]] for c in me.deck),
                                                        np.zeros(table.shape[1])) , featured.view(featured.high)
                                                    ["own_deck_cards"][len(DECK_HEAD):])).all()
        assert list(vb["graveyard_cards"][:, 0]) == [len(me.graveyard), len(game.state.players[1 - seat].graveyard)]


def test_hidden_cards_show_no_features():
    """Swapping the enemy's hand and deck cards (both hidden) changes nothing in the own observation."""
    encoder = ObservationEncoder(Rules(), default_cards(), card_features=True, card_ids=False)
    a, b = encoder.new_buffer(), encoder.new_buffer()
    checked = 0
    for game in _positions(5, 60):
        seat = game.state.current
        enemy = game.state.players[1 - seat]
        other = next((c for c in enemy.deck if enemy.hand and c.definition is not enemy.hand[0].definition), None)
        if other is None:
            continue
        encoder.encode(game, seat, a)
        k = enemy.deck.index(other)
        enemy.hand[0], enemy.deck[k] = enemy.deck[k], enemy.hand[0]
        enemy.deck.reverse()
        encoder.encode(game, seat, b)
        assert (a == b).all()
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("normalize", [False, True])
def test_exclusive_writes_equal_fresh_writes_within_the_bounds(normalize):
    encoder = ObservationEncoder(Rules(), default_cards(), card_features=True)
    kept, fresh = encoder.new_buffer(), encoder.new_buffer()
    write = encoder.writer(kept, normalize=normalize, exclusive=True)
    high = encoder.high * (encoder.scale if normalize else 1)
    for game in _positions(11, 200):
        write(game, game.state.current)
        encoder.writer(fresh, normalize=normalize)(game, game.state.current)
        assert (kept == fresh).all()
        assert (kept >= 0).all() and (kept <= high * (1 + 1e-6)).all()


def test_the_spec_records_the_feature_columns_and_its_digest_differs():
    plain = ObservationEncoder(Rules(), default_cards()).spec
    featured = ObservationEncoder(Rules(), default_cards(), card_features=True).spec
    no_ids = ObservationEncoder(Rules(), default_cards(), card_features=True, card_ids=False).spec
    assert "card_features" not in plain.to_dict() and plain.card_features == ()
    assert featured.card_features == feature_columns() and no_ids.card_ids == ()
    assert len({plain.digest(), featured.digest(), no_ids.digest()}) == 3
    for spec in (plain, featured, no_ids):
        assert ObservationSpec.from_dict(spec.to_dict()) == spec
    differences = featured.differences(plain)
    assert differences[0] == f"card feature column {feature_columns()[0]!r} is not in the game's card feature columns"
    assert any("piece 'weapon_cards' is not in the game's observation" in d for d in differences)
    assert any(d.startswith("card ") and d.endswith("is new (the model was trained without it)")
               for d in no_ids.differences(featured))


def test_a_recorded_spec_with_bad_card_feature_columns_is_refused_by_name():
    data = ObservationEncoder(Rules(), default_cards(), card_features=True).spec.to_dict()
    for bad, complaint in ((7, "expected a list of card feature column names"),
                           (["cost", "cost"], "a card feature column appears twice"),
                           (["x" * 201], "expected a list of card feature column names")):
        with pytest.raises(ValueError, match=f"model.ccgmodel: card_features: {complaint}"):
            ObservationSpec.from_dict({**data, "card_features": bad}, "model.ccgmodel")
    with pytest.raises(ValueError, match="expected an object with the fields .* \\(card_features optional\\)"):
        ObservationSpec.from_dict({**data, "card_feature": []}, "model.ccgmodel")


def test_the_same_game_plays_the_same_moves_with_and_without_card_features():
    """The option changes only the observation: the same action ids give the same legal ids and the same end."""
    plain, featured = EnvCore(), EnvCore(card_features=True, card_ids=False)
    assert featured.observation_encoder.size != plain.observation_encoder.size
    for seed in (0, 1):
        rng, ends = random.Random(seed), []
        a, b = plain.new_match(seed), featured.new_match(seed)
        while not a.is_over:
            legal = sorted(plain.legal_ids(a))
            assert legal == sorted(featured.legal_ids(b))
            action = rng.choice(legal)
            ends = [plain.step(a, action), featured.step(b, action)]
        assert b.is_over and (ends[0].result, ends[0].winner) == (ends[1].result, ends[1].winner)
        assert a.game.to_json() == b.game.to_json()


def test_the_draft_env_takes_card_features_and_its_battle_part_carries_them():
    import gymnasium as gym

    env = gym.make("ccg_env/Draft-v1", card_features=True, opponent="random", opponent_draft="random")
    encoder = env.unwrapped.setup.encoder
    assert encoder.battle.features is not None
    observation, info = env.reset(seed=0)
    rng, battle_rows = random.Random(0), 0
    for _ in range(200):
        assert env.observation_space.contains(observation)
        battle_rows += int(encoder.view(observation)["own_hand"][:, encoder.battle.feature_starts[0]:].any())
        legal = np.flatnonzero(info["action_mask"])
        observation, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            break
    assert battle_rows > 0


# --- docs/observation.md ---------------------------------------------------------------------------------------


def _meaning(column: str) -> str:
    """What a feature column holds, in a few words."""
    kinds = [("type_", "1 if the card's type is {}"), ("keyword_", "1 if the card has {}"),
             ("trigger_", "1 if the ability fires on {}"), ("effect_", "1 if the ability's effect is {}"),
             ("select_", "1 if the ability acts on selector {}"), ("gives_", "1 if the ability gives the keyword {}"),
             ("zone_", "1 if the ability's mark includes the zone {}"),
             ("mark_type_", "1 if the mark keeps only (among others) cards of type {}"),
             ("exclude_", "1 if the mark leaves out cards of type {}"), ("filter_", "1 if the mark has the filter {}")]
    fixed = {"cost": "printed cost", "attack": "printed attack", "health": "printed health (minions)",
             "durability": "printed durability (weapons)", "has_target": "1 if the card takes a target when played",
             "target_required": "1 if that target is required", "present": "1 if the card has this ability",
             "amount": "damage, heal, cards drawn, armor, mana or copies summoned",
             "count": "picks of a random selector", "attack_gain": "attack a buff adds",
             "attack_loss": "attack a buff removes", "health_gain": "health a buff adds",
             "health_loss": "health a buff removes", "card_attack": "attack of the card summoned or equipped",
             "card_health": "health (durability) of the card summoned or equipped",
             "mark_ally": "1 if the mark (or the chosen target) can be on the owner's side",
             "mark_enemy": "1 if it can be on the enemy's side"}
    if column in fixed:
        return fixed[column]
    for prefix, text in kinds:
        if column.startswith(prefix):
            return text.format(f"`{column[len(prefix):]}`")
    raise AssertionError(f"no meaning written for feature column {column!r}")


def feature_tables() -> str:
    """The markdown tables of docs/observation.md: the card columns, then one ability block."""
    high = dict(zip(feature_columns(), CardFeatures([], {}).high.tolist()))
    lines = ["| column | name | bound | meaning |", "| --- | --- | --- | --- |"]
    lines += [f"| {i} | `{c}` | {high[c]:g} | {_meaning(c)} |" for i, c in enumerate(card_columns())]
    lines += ["", "| offset in block | name | bound | meaning |", "| --- | --- | --- | --- |"]
    lines += [f"| {i} | `{c}` | {high['a0_' + c]:g} | {_meaning(c)} |" for i, c in enumerate(ability_columns())]
    return "\n".join(lines)


def test_docs_observation_md_lists_every_feature_column():
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- feature tables: start -->\n(.*?)\n<!-- feature tables: end -->", text, re.S)
    assert found, "docs/observation.md has no generated feature tables"
    expected = feature_tables()
    assert found.group(1).strip() == expected, f"docs/observation.md's feature tables are out of date:\n{expected}"
    assert f"at most {MAX_FEATURE_ABILITIES} abilities" in text
    for piece in FEATURE_PIECES:
        assert f"`{piece}`" in text


if __name__ == "__main__":  # print the tables to paste into docs/observation.md
    print(feature_tables())


def test_a_model_trained_with_card_features_records_them_and_plays_in_the_arena_with_them(tmp_path):
    """``ccg-env train --set card_features=true`` (a tiny budget) saves a model whose spec records the feature
    columns; the arena (Python and ``ccg-env arena --card-features``) plays it with the same option and a default
    arena refuses it by name."""
    from ccg_env import cli
    from ccg_env.agents.arena import run_tournament
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.model_file import ModelFileError
    from ccg_env.saved_policy import load_model

    settings = {"runs_dir": tmp_path, "total_timesteps": 256, "eval_every": 0, "eval_games": 4, "eval_envs": 4,
                "card_features": "true", "card_ids": "false", "progress": "false"}
    argv = ["train", "--config", "smoke"] + [part for key, value in settings.items()
                                             for part in ("--set", f"{key}={value}")]
    assert cli.main(argv) == 0
    path = tmp_path / "smoke" / "model.ccgmodel"
    spec = load_model(path).metadata.observation_spec
    assert spec["card_features"] == list(feature_columns()) and spec["card_ids"] == []
    result = run_tournament([LearnedAgent(path), "random"], games_per_pair=2, workers=1, progress=False,
                            card_features=True, card_ids=False)
    assert sum(row["games"] for row in result.agent_rows()) == 4
    assert cli.main(["arena", "--agents", f"learned:path={path}", "random", "--games", "2", "--workers", "1",
                     "--card-features", "--no-card-ids", "--no-progress", "--out-dir", str(tmp_path / "arena")]) == 0
    with pytest.raises(ModelFileError, match="card feature column 'type_minion' is not in the game's"):
        run_tournament([LearnedAgent(path), "random"], games_per_pair=2, workers=1, progress=False)
