"""Generated card pools: same seed same cards, every pool valid and playable, the spec's errors, the held-out file."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings

import pytest
import yaml

from ccg_env.cli_data_options import load_game_data
from ccg_env.engine import DataError, Game, Rules, default_cards, load_cards, load_deck
from ccg_env.engine.card_pool_generator import MIN_NEUTRAL, TEMPLATES, generate_card_data
from ccg_env.engine.cards import CardLoopWarning
from ccg_env.engine.cost_model import card_power, fair_cost, model_cost
from ccg_env.engine.datafiles import config_dir, default_path
from ccg_env.engine.decks import parse_deck
from ccg_env.engine.game_setup import resolve_cards
from ccg_env.engine.generated_pool import GeneratedCardSet, generated_card_set, parse_spec
from ccg_env.engine.vocabulary import CardClass, CardType, EffectKind, Selector, Trigger

SEEDS = range(24)


def _dump(seed: int, size: int) -> str:
    return yaml.safe_dump({"cards": generate_card_data(seed, size)}, sort_keys=False)


def test_the_same_seed_makes_the_same_cards_and_another_seed_others():
    assert _dump(7, 40) == _dump(7, 40)
    assert _dump(7, 40) != _dump(8, 40)
    assert generated_card_set("generated:seed=7,size=40") is generated_card_set("generated:size=40,seed=7")


def test_the_same_seed_makes_the_same_cards_in_another_process():
    code = ("import yaml; from ccg_env.engine.card_pool_generator import generate_card_data; "
            "print(yaml.safe_dump({'cards': generate_card_data(7, 40)}, sort_keys=False), end='')")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "123", "CCG_ENV_PURE_PYTHON": "1", "PATH": ""})
    assert other.stdout == _dump(7, 40)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_pool_loads_as_a_card_file_priced_by_the_cost_model(seed, tmp_path):
    size = 15 + seed * 3
    path = tmp_path / "pool.yaml"
    path.write_text(_dump(seed, size))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CardLoopWarning)  # no generated card sets itself off
        loaded = load_cards([path, default_path("cards", "hero_tokens")])
    pool = generated_card_set(f"generated:seed={seed},size={size}")
    assert sorted(loaded) == sorted(pool)
    collectible = [c for c in pool.values() if c.collectible and c.id.startswith("gen_")]
    assert len(collectible) == size
    for card in pool.values():
        if card.id.startswith("gen_"):
            assert card.cost == model_cost(card, pool), card.id
            assert loaded[card.id].cost == card.cost and loaded[card.id].text == card.text
    neutral = [c for c in collectible if c.card_class is CardClass.NEUTRAL]
    assert len(neutral) >= min(size, MIN_NEUTRAL) and len(neutral) >= size / 2


@pytest.mark.parametrize("seed", SEEDS)
def test_every_pool_deals_legal_decks_that_play_to_the_end_at_random(seed):
    pool = generated_card_set(f"generated:seed={seed},size={15 + seed * 3}")
    rules = Rules.load()
    decks = pool.decks(rules)
    assert [d.hero for d in decks][-1] is CardClass.NEUTRAL and len({d.hero for d in decks}) == len(decks)
    for deck in decks:  # the deck loader's own checks: size, copies, collectible, class
        counts: dict[str, int] = {}
        for card_id in deck.cards:
            counts[card_id] = counts.get(card_id, 0) + 1
        data = {"name": deck.name, "hero": deck.hero.value, "cards": counts}
        assert parse_deck(data, pool, rules, source="test").cards == tuple(deck.cards)
    rng = random.Random(seed)
    for index, deck in enumerate(decks):
        game = Game.new(seed, cards=pool, decks=[deck, decks[index - 1]], log=False)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        assert game.result is not None


def test_the_pools_use_the_whole_vocabulary():
    cards = [c for seed in range(12) for c in generated_card_set(f"generated:seed={seed},size=80").values()]
    abilities = [a for c in cards for a in c.abilities]
    assert {c.card_type for c in cards} == {CardType.MINION, CardType.SPELL, CardType.WEAPON, CardType.SECRET}
    assert {a.effect for a in abilities} == set(EffectKind)
    assert {a.selector for a in abilities} == set(Selector)
    assert {a.trigger for a in abilities} == set(Trigger)
    assert {c.card_class for c in cards} == set(CardClass)
    assert len({t.name for t in TEMPLATES}) == len(TEMPLATES)


def test_the_cost_model_prices_the_vanilla_test_and_known_cards():
    cards = default_cards()
    assert [fair_cost(p) for p in (1, 3, 5, 6, 9, 21, 40)] == [0, 1, 2, 3, 4, 10, 10]
    assert model_cost(cards["chillwind_yeti"], cards) == 4  # 4/5: 9 = 2 x 4 + 1
    assert model_cost(cards["fireball"], cards) == 3  # 6 damage x 1.25 = 7.5
    assert model_cost(cards["wolfrider"], cards) == 3  # 3/1 charge: 4 + 3 x 1.25
    assert card_power(cards["arcane_intellect"], cards) == 5.0  # 2 cards x 2.5
    assert card_power(cards["consecration"], cards) == 2 * 1.25 * 1.75  # 2 damage to every enemy


def test_a_game_and_an_env_given_a_pool_play_its_own_decks():
    import ccg_env

    pool = resolve_cards("generated:seed=3,size=30")
    assert isinstance(pool, GeneratedCardSet) and resolve_cards(["generated:seed=3,size=30"]) is pool
    game = Game.new(0, cards=pool, log=False)
    held = {card.definition.id for player in game.state.players for card in player.deck + player.hand}
    assert held <= set(pool) and all(card_id.startswith("gen_") or card_id == "the_coin" for card_id in held)
    env = ccg_env.env(cards="generated:seed=3,size=30", decks="random")
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter(max_iter=400):
        _, _, terminated, truncated, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if terminated or truncated else int(mask.nonzero()[0][0]))
        steps += 1
    assert steps > 10


@pytest.mark.parametrize("spec, words", [
    ("generated:sed=1", "unknown key 'sed' (allowed: seed, size)"),
    ("generated:size=-3", "size: must be between 1 and 1000, got -3"),
    ("generated:size=abc", "size: expected a whole number, got 'abc'"),
    ("generated:seed=1.5", "seed: expected a whole number, got '1.5'"),
    ("generated:size=0", "size: must be between 1 and 1000, got 0"),
    ("generated:seed=1,seed=2", "seed: given twice"),
    ("generated:seed", "seed: expected key=value"),
])
def test_a_bad_spec_gets_a_one_line_error_naming_the_key(spec, words):
    with pytest.raises(DataError) as error:
        parse_spec(spec)
    message = str(error.value)
    assert words in message and spec in message and "\n" not in message


def test_the_spec_defaults_and_a_pool_too_small_for_a_deck():
    assert parse_spec("generated") == (0, 60) and parse_spec("generated:size=20") == (0, 20)
    with pytest.raises(DataError, match="deck of 30 cards at 2 copies needs 15 cards it may hold; the pool has 8"):
        generated_card_set("generated:seed=0,size=8").decks(Rules.load())


def test_the_cli_options_take_a_pool_alone(capsys):
    from ccg_env import cli

    data = load_game_data(["generated:seed=2,size=30"])
    assert isinstance(data.cards, GeneratedCardSet) and data.sources == {
        "cards": ["generated:seed=2,size=30"], "decks": None, "rules": None}
    with pytest.raises(ValueError, match="a generated pool is given alone"):
        load_game_data(["generated:seed=2", str(config_dir() / "cards")])
    with pytest.raises(SystemExit) as stopped:
        cli.main(["arena", "--cards", "generated:size=-1", "--agents", "random", "random", "--games", "2"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip()
    assert error.endswith("size: must be between 1 and 1000, got -1") and "\n" not in error


def test_the_arena_plays_a_pool_with_its_own_deck_pool(tmp_path):
    from ccg_env.agents.arena import resolve_pool, run_tournament

    pool = resolve_pool(None, cards="generated:seed=5,size=40")
    assert [d.name for d in pool][-1] == "generated neutral" and len(pool) == 7
    result = run_tournament(["random", "heuristic"], 2, seed=0, workers=1, progress=False,
                            cards="generated:seed=5,size=40")
    assert len(result.games) == 2


HELDOUT = config_dir() / "heldout"


def test_the_heldout_cards_are_new_and_not_in_the_packaged_set():
    heldout = load_cards([HELDOUT / "cards.yaml"])
    assert 15 <= sum(c.collectible for c in heldout.values()) <= 25
    assert not set(heldout) & set(default_cards())
    assert not any(str(HELDOUT) in source for source in default_cards().sources)
    for name in ("mage", "warrior"):
        deck = load_deck(HELDOUT / "decks" / f"{name}.yaml", heldout, Rules.load())
        assert deck.hero.value == name and len(deck.cards) == 30


def test_the_arena_plays_the_heldout_cards(tmp_path, capsys):
    from ccg_env import cli

    decks = [str(HELDOUT / "decks" / f"{name}.yaml") for name in ("mage", "warrior")]
    assert cli.main(["arena", "--cards", str(HELDOUT / "cards.yaml"), "--decks", *decks, "--agents", "heuristic",
                     "random", "--games", "4", "--workers", "1", "--out-dir", str(tmp_path), "--no-progress"]) == 0
    assert "heuristic" in capsys.readouterr().out


def _fairness_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("generated_fairness", config_dir().parent / "benchmarks" /
                                                  "generated_fairness.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["generated_fairness"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_fairness_figures_of_known_games():
    fairness = _fairness_script()
    args = fairness.Args(pools=1, first_seed=4, size=30, min_sides=2)
    card = next(c for c in generated_card_set("generated:seed=4,size=30").values() if c.id == "gen_0")
    sides = [fairness.Side(4, ("gen_0", "gen_1"), ("gen_0",), 1.0), fairness.Side(4, ("gen_0",), ("gen_0",), 0.5),
             fairness.Side(4, ("gen_0", "gen_1"), (), 0.0), fairness.Side(4, ("gen_0", "gen_1"), ("gen_1",), 0.0)]
    rows = {row["card"]: row for row in fairness.card_figures(sides, args)}
    assert rows["gen_0"]["play_rate"] == 0.5 and rows["gen_0"]["contribution"] == 0.75  # (1 + 0.5) / 2 - 0
    assert rows["gen_1"]["held"] == 3 and rows["gen_1"]["contribution"] is None  # played by one side only
    assert rows["gen_0"]["kinds"] == fairness.kinds(card) and f"type {card.card_type.value}" in rows["gen_0"]["kinds"]
    average, table = fairness.kind_table(list(rows.values()))
    assert average == 0.75 and all(line["excess"] == 0.0 for line in table)


def test_the_fairness_script_runs_on_a_tiny_budget(tmp_path):
    out = tmp_path / "fair.json"
    done = subprocess.run([sys.executable, str(config_dir().parent / "benchmarks" / "generated_fairness.py"),
                           "--pools", "1", "--size", "30", "--games-per-pair", "1", "--min-sides", "3",
                           "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "49 games over 1 pools of 30 cards" in done.stdout and "verdict" in done.stdout
    figures = json.loads(out.read_text())
    assert figures["games"] == 49 and all(0 <= row["play_rate"] <= 1 for row in figures["cards"])
    bad = subprocess.run([sys.executable, str(config_dir().parent / "benchmarks" / "generated_fairness.py"),
                          "--pools", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--pools" in bad.stderr.strip().splitlines()[-1]


def test_a_bounded_fuzz_run_over_generated_pools_is_clean(tmp_path):
    """The fuzzer's every check (invariants, mask against apply, JSON round trips) on generated pools and decks."""
    from tests.reliability.fuzzing import fuzz

    config = fuzz.FuzzConfig(exhaustive_rate=0.03, round_trip_rate=0.1, restore_rate=0.03, out_dir=str(tmp_path),
                             cards="generated")
    totals = fuzz.run(actions=3_000, seed=50_000, workers=1, config=config, progress=False)
    assert totals.failures == [], fuzz.report(totals, 1.0)
    assert totals.actions >= 3_000 and totals.deck_pairs == {("generated", "generated")}
    assert totals.policies["random"] > 5 and totals.policies[fuzz.heuristic_name()] > 5
    assert totals.checks["exhaustive"] > 20 and totals.checks["round_trips"] > 100
