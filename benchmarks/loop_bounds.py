"""The deepest reaction nesting, most death-phase rounds and most actions one action sets off in ordinary play.

Seeded random play over every ordered pair of packaged decks, read from the game log (reactions carry their
depth; each death-phase round is one Reap, at depth 0 after the root action or deeper between the phases of a play,
or a depth-0 GameOver). The engine's loop bounds
(``MAX_REACTION_DEPTH``, ``MAX_DEATH_ROUNDS``, ``MAX_ACTIONS_PER_ROOT`` in ``ccg_env/engine/action_system.py``)
must stay far above these figures, so that no normal game meets them.

Usage::

    python benchmarks/loop_bounds.py --games-per-pair 20
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from ccg_env.cli import positive_int
from ccg_env.engine import ENGINE_BUILD, Game
from ccg_env.engine.action_system import MAX_ACTIONS_PER_ROOT, MAX_DEATH_ROUNDS, MAX_REACTION_DEPTH
from ccg_env.engine.decks import default_deck_paths


def extremes(games_per_pair: int) -> dict[str, int]:
    """Play the games; return the largest depth, death-phase rounds and actions of any one root action."""
    decks = sorted(default_deck_paths())
    found = {"games": 0, "root actions": 0, "depth": 0, "death rounds": 0, "actions": 0}
    for first, a in enumerate(decks):
        for second, b in enumerate(decks):
            for number in range(games_per_pair):
                seed = (first * len(decks) + second) * 1000 + number
                _play(Game.new(seed=seed, decks=[a, b]), random.Random(seed), found)
    return found


def _play(game: Game, rng: random.Random, found: dict[str, int]) -> None:
    found["games"] += 1
    while not game.is_over:
        start = len(game.log)
        game.apply(rng.choice(game.legal_actions()))
        entries = game.log[start:]
        rounds = sum(1 for e in entries[1:] if e.kind == "Reap" or (e.depth == 0 and e.kind == "GameOver"))
        found["root actions"] += 1
        found["depth"] = max(found["depth"], max(e.depth for e in entries))
        found["death rounds"] = max(found["death rounds"], rounds)
        found["actions"] = max(found["actions"], len(entries))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-pair", type=positive_int, default=20, help="games per ordered deck pair")
    args = parser.parse_args(argv)
    print(f"engine build: {ENGINE_BUILD}")
    start = time.perf_counter()
    found = extremes(args.games_per_pair)
    print(f"{found['games']:,} games, {found['root actions']:,} root actions in {time.perf_counter() - start:.1f} s")
    for key, bound in (("depth", MAX_REACTION_DEPTH), ("death rounds", MAX_DEATH_ROUNDS),
                       ("actions", MAX_ACTIONS_PER_ROOT)):
        print(f"max {key} per root action: {found[key]} (bound {bound:,}, x{bound / max(found[key], 1):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
