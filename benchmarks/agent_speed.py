"""Benchmark: decisions/s of the heuristic and search agents, and the training env's steps/s with the heuristic.

Three figures, each a median over ``--repeats``, in one run (so a change can be compared by running this script on
two source trees, alternately):

- **heuristic**: heuristic-against-heuristic games over every ordered pair of the packaged decks, seeded; each
  decision builds the player's ``GameView`` and asks ``ccg_env.agents.heuristic.choose``. Engine time is included.
- **training env**: the SB3 batched env (``CcgDuelSb3VecEnv``, 128 envs, decks drawn per game) with the
  heuristic as opponent, as ``ppo_vs_heuristic`` trains in it; the learner's actions are random legal ones
  (drawn outside the clock). An env step is one learner decision plus the heuristic's replies.
- **search**: ``SearchAgent`` at its default budget (48 iterations) against the heuristic, seeded games; its
  rollouts are heuristic play, so this moves with the heuristic's speed.

Every figure also prints a digest of the choices made, so two trees that should play the same games can be
checked to do so. The build (compiled or pure Python) is printed first.

Run: ``python benchmarks/agent_speed.py [--games 98] [--env-steps 25600] [--search-games 4] [--repeats 3]``
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time
from typing import Callable

import numpy as np

from ccg_env.agents.heuristic import choose
from ccg_env.agents.search import SearchAgent
from ccg_env.cli import positive_int
from ccg_env.engine import ENGINE_BUILD, Game
from ccg_env.engine.decks import default_deck_paths
from ccg_env.engine.view import GameView
from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv

DECKS = sorted(default_deck_paths())


def heuristic_games(games: int) -> tuple[float, str]:
    """Heuristic-against-heuristic decisions/s in ``games`` seeded games, the ordered deck pairs in turn."""
    digest, decisions = hashlib.sha256(), 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game.new(seed=seed, decks=[DECKS[seed % len(DECKS)], DECKS[seed // len(DECKS) % len(DECKS)]])
        while not game.is_over:
            choice = choose(GameView(game, game.state.current))
            digest.update(repr(choice).encode())
            game.apply(choice)
            decisions += 1
    return decisions / (time.perf_counter() - start), digest.hexdigest()[:12]


def training_env(steps: int) -> tuple[float, str]:
    """Env steps/s of the batched env with the heuristic as opponent over ``steps``, random legal learner actions."""
    env = CcgDuelSb3VecEnv(128, opponent="heuristic", seat="random", decks="random", normalize_observations=True)
    env.seed(0)
    env.reset()
    rng, digest, done, inside = np.random.default_rng(0), hashlib.sha256(), 0, 0.0
    while done < steps:
        masks = env.action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(1)
        start = time.perf_counter()
        _, rewards, _, _ = env.step(actions)
        inside += time.perf_counter() - start
        digest.update(rewards.tobytes())
        done += env.num_envs
    env.close()
    return done / inside, digest.hexdigest()[:12]


def search_games(games: int) -> tuple[float, str]:
    """Search decisions/s (48 iterations each) in ``games`` seeded games against the heuristic."""
    digest, decisions, elapsed = hashlib.sha256(), 0, 0.0
    for seed in range(games):
        agent = SearchAgent(seed=seed)
        game = Game.new(seed=seed, decks=[DECKS[seed % len(DECKS)], DECKS[(seed * 3 + 1) % len(DECKS)]])
        while not game.is_over:
            view = GameView(game, game.state.current)
            if game.state.current == 0:
                start = time.perf_counter()
                choice = agent.choose(view)
                elapsed += time.perf_counter() - start
                decisions += 1
            else:
                choice = choose(view)
            digest.update(repr(choice).encode())
            game.apply(choice)
    return decisions / elapsed, digest.hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=positive_int, default=98, help="heuristic games per repeat")
    parser.add_argument("--env-steps", type=positive_int, default=25_600, help="training-env steps per repeat")
    parser.add_argument("--search-games", type=positive_int, default=4, help="games per repeat of the search figure")
    parser.add_argument("--repeats", type=positive_int, default=3, help="repeats; the median is reported")
    args = parser.parse_args()
    print(f"engine build: {ENGINE_BUILD}; load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    figures: dict[str, tuple[str, Callable[[], tuple[float, str]]]] = {
        "heuristic, its own games": ("decisions/s", lambda: heuristic_games(args.games)),
        "training env, heuristic opponent": ("env-steps/s", lambda: training_env(args.env_steps)),
        "search (48 iterations) vs heuristic": ("decisions/s", lambda: search_games(args.search_games)),
    }
    for name, (unit, run) in figures.items():
        results = [run() for _ in range(args.repeats)]
        rates = [rate for rate, _ in results]
        print(f"{name:<38}{statistics.median(rates):>10,.1f} {unit:<12} (min {min(rates):,.1f}, max {max(rates):,.1f};"
              f" choices digest {results[0][1]})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
