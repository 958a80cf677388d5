"""What hero powers and the mulligan cost: engine decisions/s and AEC env steps/s with each on and off, one run.

Four variants of the same games, interleaved repeat by repeat so the machine's load moves them alike:
``today`` (the plain hero, no mulligan: the game before issue 21), ``hero powers`` (each deck's class hero),
``mulligan`` (the plain hero, the mulligan on) and ``both`` (the default game). Every variant plays the same
decks and cards (the packaged class decks; "plain hero" keeps their cards and drops only the hero's class), so
the difference is the rules alone. The engine figure is seeded random play over every ordered pair of packaged
decks; the env figure is the raw AEC env (observation and mask read before every step, a random masked action)
on the default pair. Prints medians, and each variant's median ratio to ``today`` over the repeats.

Run: ``python benchmarks/game_breadth.py [--seconds 3] [--repeats 5]``
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import random
import statistics
import time

import numpy as np

from ccg_env.cli import positive_int, positive_seconds
from ccg_env.engine import ENGINE_BUILD, CardClass, Deck, Game, Rules, default_cards
from ccg_env.engine.decks import default_deck_paths, load_deck
from ccg_env.engine.game_setup import DEFAULT_DECKS
from ccg_env.env.aec import raw_env

VARIANTS = {"today": (False, False), "hero powers": (True, False), "mulligan": (False, True), "both": (True, True)}


def variant_decks(decks: list[Deck], heroes: bool) -> list[Deck]:
    """The decks as they are (their class heroes), or the same cards played by the plain hero."""
    return decks if heroes else [dataclasses.replace(d, hero=CardClass.NEUTRAL) for d in decks]


def engine_rate(pairs: list[tuple[Deck, Deck]], rules: Rules, seconds: float, seed: int) -> float:
    """Decisions per second of seeded random play on the bare engine, cycling through the deck pairs."""
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(seed=seed + games, decks=pairs[games % len(pairs)], rules=rules, log=False)
        rng = random.Random(seed + games)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        games += 1
    return decisions / (time.perf_counter() - start)


def env_rate(decks: list[Deck], rules: Rules, seconds: float, seed: int) -> float:
    """Agent steps per second of the raw AEC env with random masked actions (resets included)."""
    env = raw_env(decks=decks, rules=rules)
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if not env.agents:
            env.reset()
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_seconds, default=3.0, help="duration of one measurement")
    parser.add_argument("--repeats", type=positive_int, default=5, help="interleaved repeats; medians are reported")
    args = parser.parse_args()
    cards, base_rules = default_cards(), Rules.load()
    packaged = [load_deck(path, cards, base_rules) for path in default_deck_paths().values()]
    default_pair = [load_deck(default_deck_paths()[name], cards, base_rules) for name in DEFAULT_DECKS]
    engine: dict[str, list[float]] = {name: [] for name in VARIANTS}
    env: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for name, (heroes, mulligan) in VARIANTS.items():  # warm-up: first games build caches and plans
        rules = dataclasses.replace(base_rules, mulligan=mulligan)
        engine_rate([tuple(variant_decks(default_pair, heroes))], rules, 0.2, 0)
        env_rate(variant_decks(default_pair, heroes), rules, 0.2, 0)
    for repeat in range(args.repeats):
        order = list(VARIANTS) if repeat % 2 == 0 else list(reversed(VARIANTS))  # alternate who goes first
        for name in order:
            heroes, mulligan = VARIANTS[name]
            rules = dataclasses.replace(base_rules, mulligan=mulligan)
            decks = variant_decks(packaged, heroes)
            engine[name].append(engine_rate(list(itertools.product(decks, repeat=2)), rules, args.seconds,
                                             1000 * repeat))
            env[name].append(env_rate(variant_decks(default_pair, heroes), rules, args.seconds, 1000 * repeat))
    print(f"engine build: {ENGINE_BUILD}; {args.repeats} interleaved repeats of {args.seconds:g} s each")
    print(f"{'variant':<14}{'engine decisions/s':>20}{'ratio':>8}{'AEC env steps/s':>18}{'ratio':>8}")
    for name in VARIANTS:
        engine_ratio = statistics.median(a / b for a, b in zip(engine[name], engine["today"]))
        env_ratio = statistics.median(a / b for a, b in zip(env[name], env["today"]))
        print(f"{name:<14}{statistics.median(engine[name]):>20,.0f}{engine_ratio:>8.3f}"
              f"{statistics.median(env[name]):>18,.0f}{env_ratio:>8.3f}")


if __name__ == "__main__":
    main()
