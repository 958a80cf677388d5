"""Fit the ladder's reference pool: a round robin between its members on the arena's deals, rated by Bradley-Terry.

Every pair of members plays ``--games`` games (``--heavy-games`` for pairs with a member named in ``--heavy``, the
slow search(192)) on the arena's protocol (game ``k`` is deal ``k // 2`` from seat ``k % 2``, deals over every
ordered pair of the packaged decks). The ratings are the Bradley-Terry fit of all games, anchored so that
``--anchor`` is rated ``--anchor-rating``, each with a 95% bootstrap interval over deals (every pair's deals
resampled, the whole pool refitted and re-anchored). Writes the pool file (default: the packaged
``ccg_env/benchmark/pool_v1.yaml``) and the round robin's arena report (``--out-dir``), with a progress bar::

    nice -n 10 python benchmarks/fit_pool.py --games 42 --heavy-games 8 --workers 2

A tiny run (``--games 4 --heavy-games 2 --pool /tmp/pool.yaml``) checks the script in a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from itertools import combinations
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from ccg_env.agents.arena import TournamentResult  # noqa: E402
from ccg_env.agents.ladder import play_pairs  # noqa: E402
from ccg_env.agents.match import GameRecord  # noqa: E402
from ccg_env.agents.pool import DEFAULT_POOL, Pool, PoolMember, environment_stamp, write_pool  # noqa: E402
from ccg_env.agents.report import deal_points  # noqa: E402
from ccg_env.agents.stats import bootstrap_pool, pool_samples  # noqa: E402

#: The reference pool of environment v1: (name, agent spec).
MEMBERS = (("random", "random"), ("heuristic", "heuristic"), ("search-8", "search:iterations=8"),
           ("search-48", "search:iterations=48"), ("search-192", "search:iterations=192"), ("learned", "learned"))


def count(text: str) -> int:
    """A whole number of at least 1 (argparse refuses anything else in one line)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return int(text)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", nargs="+", default=[name for name, _ in MEMBERS], choices=[n for n, _ in MEMBERS],
                        help="fit these members only (a smaller pool, for a check of the script)")
    parser.add_argument("--games", type=count, default=42, help="games per pair of members (a multiple of 14 plays each "
                                                                "deck from each seat equally often)")
    parser.add_argument("--heavy-games", type=count, default=8, help="games per pair with a --heavy member")
    parser.add_argument("--heavy", nargs="*", default=["search-192"], help="members that decide slowly")
    parser.add_argument("--ladder-games", type=count, default=196, help="games a ladder run plays against a member")
    parser.add_argument("--ladder-heavy-games", type=count, default=98, help="... against a --heavy member")
    parser.add_argument("--quick-games", type=count, default=28, help="games a --quick ladder run plays against a member")
    parser.add_argument("--quick-heavy-games", type=count, default=14, help="... against a --heavy member")
    parser.add_argument("--anchor", default="heuristic", help="the member whose rating is fixed")
    parser.add_argument("--anchor-rating", type=float, default=1000.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=count, default=2)
    parser.add_argument("--samples", type=count, default=200, help="bootstrap samples of the intervals")
    parser.add_argument("--pool", default=str(DEFAULT_POOL), help="the pool file to write")
    parser.add_argument("--out-dir", default="pool_fit", help="the round robin's arena report")
    parser.add_argument("--from-results", metavar="FILE", default=None,
                        help="refit from the results.json of an earlier fit's round robin instead of playing it "
                             "(its game counts must be given as it was played)")
    return parser.parse_args(argv)


def read_round_robin(path: str, names: list[str]) -> TournamentResult:
    """The games of an earlier fit's round robin, from the ``results.json`` it saved (``--out-dir``)."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    games, seats = [], []
    for row in document["games"]:
        pair = (row["seat0"], row["seat1"])
        winner = pair.index(row["winner"]) if row["winner"] else None
        games.append(GameRecord(*pair, row["seed"], winner, row["result"], row["turns"], row["decisions"],
                                row["deck0"], row["deck1"]))
        seats.append((names.index(pair[0]), names.index(pair[1])))
    return TournamentResult(list(names), games, seats, document["config"], document["decks"])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    members = [(name, spec) for name, spec in MEMBERS if name in args.members]
    names = [name for name, _ in members]
    if args.anchor not in names:
        print(f"fit_pool.py: error: --anchor {args.anchor!r} is not a member ({', '.join(names)})", file=sys.stderr)
        return 2
    heavy = set(args.heavy)
    pairs = [(a, b, args.heavy_games if {names[a], names[b]} & heavy else args.games)
             for a, b in combinations(range(len(members)), 2)]
    if args.from_results:
        result = read_round_robin(args.from_results, names)
        played = float(result.config.get("seconds", 0.0))
    else:
        start = time.perf_counter()
        result, _ = play_pairs([spec for _, spec in members], names, pairs, args.seed, workers=args.workers,
                               config={"seed": args.seed, "games_per_pair": args.games,
                                       "heavy_games": args.heavy_games}, desc="pool fit")
        played = time.perf_counter() - start
        result.config["seconds"] = round(played)
        result.save(args.out_dir)
    pair_deals = {}
    for a, b, _ in pairs:
        indices = [i for i, seats in enumerate(result.seats) if set(seats) == {a, b}]
        pair_deals[a, b] = [(sum(points), len(points)) for points in deal_points(result, a, indices)]
    fitted = bootstrap_pool(len(members), pair_deals, names.index(args.anchor), args.anchor_rating,
                            samples=args.samples, seed=args.seed)
    drawn = pool_samples(len(members), pair_deals, names.index(args.anchor), args.anchor_rating,
                         samples=args.samples, seed=args.seed)  # the samples the intervals come from
    rated = tuple(PoolMember(name, spec, rating, low, high,
                             args.ladder_heavy_games if name in heavy else args.ladder_games,
                             args.quick_heavy_games if name in heavy else args.quick_games,
                             tuple(round(sample[i], 1) for sample in drawn))
                  for i, ((name, spec), (rating, low, high)) in enumerate(zip(members, fitted)))
    command = "python benchmarks/fit_pool.py " + " ".join(argv if argv is not None else sys.argv[1:])
    fit = {"games_per_pair": args.games, "heavy_games_per_pair": args.heavy_games, "heavy": sorted(heavy),
           "games": len(result.games), "seed": args.seed, "bootstrap_samples": args.samples,
           "method": "Bradley-Terry (MM, one virtual draw per pair) on every game; 95% percentile intervals of a "
                     "bootstrap over each pair's deals, refitted and re-anchored (each member's samples stored)",
           "seconds": round(played), "workers": args.workers, "command": command.strip()}
    pool = Pool(rated, args.anchor, args.anchor_rating, {"pool": "v1", **environment_stamp()}, fit)
    header = [f"The ladder's reference pool, fitted by: {fit['command']}",
              f"{len(result.games)} games ({args.games} per pair, {args.heavy_games} with {', '.join(sorted(heavy))}) "
              f"in {played / 60:.0f} minutes with {args.workers} workers; scale: {args.anchor} = {args.anchor_rating:g}"]
    write_pool(pool, args.pool, header)
    print(result.table())
    print(f"\npool written to {args.pool}:")
    for member in rated:
        print(f"  {member.name:<12} {member.rating:8.1f} [{member.low:.1f}, {member.high:.1f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
