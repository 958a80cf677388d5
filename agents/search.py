"""SearchAgent: flat Monte Carlo search over determinized clones, with heuristic rollouts to a short horizon.

For each decision the agent samples ``worlds`` determinizations of the game from its :class:`GameView`
(the enemy's hidden hand, secrets and both decks' order resampled, a fresh random generator: it never peeks),
and in every world tries every legal choice: apply it on a clone, let both players continue with the
heuristic policy until the start of the agent's next turn (``horizon`` turns of its own; sooner if the game
ends), then score the position with :func:`agents.evaluation.position_score`. All choices are compared on the
same worlds (common random numbers), and the best mean wins; ties go to the heuristic's own pick.

The iteration budget ``iterations`` is the number of rollouts per decision, split evenly across the legal
choices (at least one world each). Given its seed the agent is deterministic. ``time_limit`` (seconds per
decision) switches to a time budget instead, which is not reproducible.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, Iterator

from ccg_env.engine.choices import ChoiceKind
from ccg_env.env.view import GameView

from .evaluation import position_score
from .heuristic import choose as heuristic_choice

if TYPE_CHECKING:
    import numpy as np

    from ccg_env.engine import Choice, Game

#: Safety stop for one rollout (a turn never takes this many decisions in practice).
MAX_ROLLOUT_DECISIONS = 400


class SearchAgent:
    """Determinized flat Monte Carlo search; see the module docstring.

    Args:
        iterations: rollouts per decision (split across the legal choices; default 48).
        horizon: how many of the agent's own turn starts a rollout looks ahead (1 = until the next one).
        seed: seeds the sampling of hidden information (``reset(seed)`` reseeds).
        time_limit: seconds per decision; when set, sample worlds until time runs out instead.
        name: display name.
    """

    def __init__(self, iterations: int = 48, horizon: int = 1, seed: int | None = None,
                 time_limit: float | None = None, name: str = "search") -> None:
        if iterations < 1 or horizon < 1:
            raise ValueError(f"SearchAgent needs iterations >= 1 and horizon >= 1, got {iterations}, {horizon}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"SearchAgent time_limit must be positive seconds, got {time_limit}")
        self.name = name
        self.iterations = iterations
        self.horizon = horizon
        self.time_limit = time_limit
        self._rng = random.Random(seed)

    def act(self, observation: Any, action_mask: np.ndarray, view: GameView | None = None) -> int:
        """Return the action id of the best-scoring legal choice."""
        if view is None:
            raise ValueError(f"{type(self).__name__} searches the game through a GameView; act() got view=None")
        return view.action_ids([self.choose(view)])[0]

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling of hidden information."""
        self._rng = random.Random(seed)

    def choose(self, view: GameView) -> Choice:
        """The choice with the best mean rollout score over sampled worlds."""
        choices = view.legal_choices()
        if not choices:
            raise ValueError(f"player {view.player} has no legal choice (not on turn, or the game is over)")
        if len(choices) == 1:
            return choices[0]
        totals = [0.0] * len(choices)
        stop_turn = view.turn + 2 * self.horizon
        for world in self._worlds(view, len(choices)):
            for i, choice in enumerate(choices):
                totals[i] += _rollout(world, choice, view.player, stop_turn)
        return _best(choices, totals, heuristic_choice(view, choices))

    def _worlds(self, view: GameView, n_choices: int) -> Iterator[Game]:
        """Determinized worlds: ``iterations // n_choices`` of them (at least one), or until the time limit."""
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        count = max(1, self.iterations // n_choices)
        done = 0
        while done < count if deadline is None else (done == 0 or time.perf_counter() < deadline):
            yield view.determinize(self._rng)
            done += 1


def _rollout(world: Game, choice: Choice, player: int, stop_turn: int) -> float:
    """Apply ``choice`` on a clone of ``world``, play on heuristically to ``stop_turn``, score for ``player``."""
    game = world.clone()
    game.apply(choice)
    state = game.state
    for _ in range(MAX_ROLLOUT_DECISIONS):
        if state.result is not None or state.turn >= stop_turn:
            break
        game.apply(heuristic_choice(GameView(game, state.current)))
    return position_score(game, player)


def _best(choices: list[Choice], totals: list[float], default: Choice) -> Choice:
    """The choice with the highest total; the heuristic's pick wins ties, then end turn, then engine order."""
    def key(i: int) -> tuple[float, bool, bool]:
        choice = choices[i]
        return (round(totals[i], 6), choice == default, choice.kind is ChoiceKind.END_TURN)

    return choices[max(range(len(choices)), key=key)]
