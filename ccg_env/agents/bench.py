"""Quick benchmarks behind ``ccg-env bench``: engine speed, clone cost and each agent's time per decision.

Figures are medians over repeats on this machine; they are printed, never asserted.
"""

from __future__ import annotations

import random
import statistics
import time
import timeit
from typing import Any, Sequence

from ccg_env.engine import Game

from .arena import build_agent
from .match import MatchRunner


def random_play(seconds: float, first_seed: int = 0,
                deck_pairs: Sequence[tuple[str, str]] | None = None) -> tuple[float, float, float]:
    """Seeded uniformly random play on the bare engine (legal_actions + apply), resets included.

    ``deck_pairs``: game k plays pair k modulo their number (default: the engine's default decks).
    Returns (decisions per second, games per second, decisions per game).
    """
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decks = deck_pairs[games % len(deck_pairs)] if deck_pairs else None
        game = Game.new(seed=first_seed + games, decks=decks, log=False)
        rng = random.Random(first_seed + games)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, games / elapsed, decisions / max(games, 1)


def engine_decisions_per_second(seconds: float, seed: int = 0) -> float:
    """Decisions per second of seeded random play (see :func:`random_play`)."""
    return random_play(seconds, seed)[0]


def mid_game(seed: int = 5, decisions: int = 40) -> Game:
    """A game after ``decisions`` seeded random choices: mid-game boards and hands."""
    game = Game.new(seed=seed, log=False)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def clone_microseconds(game: Game | None = None, number: int = 5000) -> float:
    """Mean cost of ``Game.clone`` on ``game`` (a mid-game position by default)."""
    game = game if game is not None else mid_game()
    return timeit.timeit(game.clone, number=number) / number * 1e6


class _Timed:
    """Wraps an agent and accumulates the time spent in ``act``."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.name, self.seconds, self.calls = agent, agent.name, 0.0, 0

    def act(self, observation: Any, mask: Any, view: Any = None) -> int:
        start = time.perf_counter()
        action = self.agent.act(observation, mask, view)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return action

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)


def agent_decision_ms(spec: Any, games: int, opponent: str = "heuristic", seed: int = 0) -> tuple[float, int]:
    """Mean milliseconds per decision of an agent over ``games`` seeded games (seats alternate)."""
    runner = MatchRunner()
    timed = _Timed(build_agent(spec))
    rival = build_agent(opponent)
    for k in range(games):
        runner.play((timed, rival) if k % 2 == 0 else (rival, timed), seed + k)
    return 1000.0 * timed.seconds / max(timed.calls, 1), timed.calls


def run_benchmarks(seconds: float = 2.0, repeats: int = 3, agents: Sequence[str] = ("random", "heuristic", "search"),
                   games: int = 4) -> str:
    """Run every benchmark and return the report as text."""
    rows = [("engine decisions/s (random play)",
             statistics.median(engine_decisions_per_second(seconds, 1000 * i) for i in range(repeats))),
            ("Game.clone() microseconds", statistics.median(clone_microseconds() for _ in range(repeats)))]
    for spec in agents:
        ms, calls = agent_decision_ms(spec, games)
        rows.append((f"{spec}: ms per decision ({calls} decisions)", ms))
    width = max(len(name) for name, _ in rows) + 2
    return "\n".join(f"{name:<{width}}{value:>12.3f}" for name, value in rows)
