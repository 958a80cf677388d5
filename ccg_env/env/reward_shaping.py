"""The health-difference reward shaping of the AEC env, as one PettingZoo wrapper over its rewards.

:class:`HealthShaping` pays each agent, on every step, the change of its potential
``SHAPING_SCALE * (own hero health + armor - (enemy hero health + armor)) / hero_health`` (health counted from 0,
so a lethal blow counts down to 0 and not below). The shaping is zero-sum and telescopes: a whole game adds at most
a few tenths to the final reward. During a draft (no battle yet) the potential is not defined and nothing is paid.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import BaseWrapper

from ..engine import Game

#: The potential's scale: a whole hero's health of difference is worth this much reward.
SHAPING_SCALE = 0.1


def health_potential(game: Game | None) -> float | None:
    """Seat 0's potential in ``game`` (seat 1's is its negative); None without a game or during its draft."""
    if game is None or game.in_draft:
        return None
    own, enemy = (player.hero for player in game.state.players)
    own_health, enemy_health = max(own.health, 0) + own.armor, max(enemy.health, 0) + enemy.armor
    return SHAPING_SCALE * (own_health - enemy_health) / game.state.rules.hero_health


class HealthShaping(BaseWrapper):
    """Adds the change of each agent's health potential to its reward on every step (see the module docs)."""

    #: what ``raw_env(reward_shaping=True)`` stands for
    reward_shaping = True

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._potential: float | None = None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        self._potential = health_potential(self.env.unwrapped.game)

    def step(self, action: Any) -> None:
        raw = self.env.unwrapped
        acting, totals = raw.agent_selection, dict(raw._cumulative_rewards)
        self.env.step(action)
        potential = health_potential(raw.game)
        before, self._potential = self._potential, potential
        if potential is None or before is None or potential == before:
            return
        change = potential - before
        for agent, paid in zip(raw.possible_agents, (change, -change)):
            if agent in raw.rewards:
                raw.rewards[agent] += paid
                # the total is re-added from the step's whole reward (the acting agent's starts again from 0), so
                # it is the sum of the steps' rewards to the last bit, as PettingZoo's api_test adds them
                raw._cumulative_rewards[agent] = (0.0 if agent == acting else totals[agent]) + raw.rewards[agent]
