"""Saved games for the viewer's tests: agents play through the MatchRunner and the game is saved as a replay."""

from __future__ import annotations

from pathlib import Path

from ccg_env.agents.arena import build_agent
from ccg_env.agents.match import MatchRunner
from ccg_env.engine import Game
from ccg_env.viewer.replay import save_replay


def play_and_save(path: Path, seed: int = 3, seats: tuple[str, str] = ("random", "heuristic")) -> Game:
    """Play ``seats[0]`` against ``seats[1]`` from ``Game.new(seed)`` to the end and save it at ``path``."""
    runner = MatchRunner()
    agents = [build_agent(name) for name in seats]
    for seat, agent in enumerate(agents):
        agent.reset(seed=seed * 2 + seat)
    game = runner.new_game(seed, log=True)
    choices = []
    while not game.is_over:
        choices.append(runner.step(game, agents[game.current_player], seed))
    save_replay(path, seed, seats, choices, game)
    return game
