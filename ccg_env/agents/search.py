"""SearchAgent: information-set Monte Carlo tree search (determinized UCT) over engine clones.

Each decision grows a fresh tree of choices, in the manner of single-observer information-set MCTS (Cowling,
Powley and Whitehouse, 2012): nodes stand for sequences of choices from the root, and every sampled world
shares their statistics. Each iteration

1. **determinizes**: samples a world from the agent's :class:`GameView` (the enemy's hidden hand, secrets and
   both decks' order resampled, a fresh random generator: the agent never peeks);
2. **selects**: down the tree, for the turns it covers (``tree_turns``; the agent's own turn by default),
   takes the choice that is legal *in that world* with the highest UCB1 score
   ``mean + exploration * sqrt(ln(available) / visits)``, where ``available`` counts the iterations in which
   the choice was legal at that node (choices differ between worlds once a card is drawn or a random effect
   lands); the opponent's nodes, if covered, maximize the opponent's reward;
3. **expands** one untried legal choice, the heuristic's own pick first, then in engine order;
4. **rolls out**: both players continue with the heuristic policy until the start of the agent's next turn
   (``horizon`` turns of its own; sooner if the game ends). A win scores 1, a loss 0, a draw 0.5; otherwise
   the gain in :func:`ccg_env.agents.board_value.position_score` over the root position, squashed into (0, 1);
5. **backs up** that reward along the path. The agent plays the root choice with the most visits.

Why the tree covers only the agent's own turn by default: a turn is several decisions whose order matters
(clear the taunt, then go face), which is what the tree resolves, while the opponent's reply depends on
cards the agent cannot see and is already played well by the heuristic rollout. At 48 iterations a tree over
the reply too (``tree_turns=2``) barely reaches it, and at 200 iterations it measured no stronger (283 wins
against 293 in 400 seeded games against the heuristic). Rollouts are heuristic rather than random because
random play scores card-game positions mostly by noise at this budget, and the reward is measured from the
root position so that a lopsided game still tells a good turn from a bad one.

In the mulligan the agent does not search: it puts back what the heuristic puts back (cards costing more than 3,
keeping a curve; :func:`ccg_env.agents.heuristic.mulligan_keeps`). Rollouts from the opening hand would score a whole
game's worth of hidden draws at a few dozen iterations, mostly noise, while the cost rule is the standard advice.

The budget is ``iterations`` tree iterations per decision (one world, one path, one rollout each); given its
seed the agent is deterministic. ``time_limit`` (seconds per decision) searches until time runs out instead,
which is not reproducible.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, Iterator

from ccg_env.engine.view import GameView

from .board_value import position_score
from .heuristic import choose as heuristic_choice

if TYPE_CHECKING:
    import numpy as np

    from ccg_env.engine import Choice, Game

#: Safety stop for one rollout (a turn never takes this many decisions in practice).
MAX_ROLLOUT_DECISIONS = 400
#: A rollout's gain in position score is squashed by ``tanh(gain / REWARD_SCALE)``: a few points is a clear edge.
REWARD_SCALE = 10.0


class Node:
    """Statistics of one choice in the tree (rewards from the view of ``mover``, who made it), and its children."""

    __slots__ = ("mover", "visits", "total", "available", "children")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.children: dict[Choice, Node] = {}

    @property
    def mean(self) -> float:
        """The mean reward of the visits so far (0 before the first)."""
        return self.total / self.visits if self.visits else 0.0

    def ucb(self, exploration: float) -> float:
        """UCB1 with the availability count in place of the parent's visits."""
        return self.total / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


class SearchAgent:
    """Information-set MCTS over determinized clones; see the module docstring.

    Args:
        iterations: tree iterations per decision (each: one sampled world, one path, one rollout; default 48).
        horizon: how many of the agent's own turn starts a rollout looks ahead (1 = until the next one).
        seed: seeds the sampling of hidden information (``reset(seed)`` reseeds).
        time_limit: seconds per decision; when set, iterate until time runs out instead.
        exploration: the UCB1 exploration constant (rewards lie in [0, 1]).
        tree_turns: turns the tree covers: 1 = the agent's own turn (default), 2 = the opponent's reply too.
        name: display name.
    """

    def __init__(self, iterations: int = 48, horizon: int = 1, seed: int | None = None,
                 time_limit: float | None = None, exploration: float = 0.7, tree_turns: int = 1,
                 name: str = "search") -> None:
        if iterations < 1 or horizon < 1:
            raise ValueError(f"SearchAgent needs iterations >= 1 and horizon >= 1, got {iterations}, {horizon}")
        if not 1 <= tree_turns <= 2 * horizon:
            raise ValueError(f"SearchAgent tree_turns must be in 1..2 * horizon, got {tree_turns}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"SearchAgent time_limit must be positive seconds, got {time_limit}")
        if exploration < 0:
            raise ValueError(f"SearchAgent exploration must be >= 0, got {exploration}")
        self.name = name
        self.iterations = iterations
        self.horizon = horizon
        self.time_limit = time_limit
        self.exploration = exploration
        self.tree_turns = tree_turns
        self._rng = random.Random(seed)

    def act(self, observation: Any, action_mask: np.ndarray, view: GameView | None = None) -> int:
        """Return the action id of the most visited root choice."""
        if view is None:
            raise ValueError(f"{type(self).__name__} searches the game through a GameView; act() got view=None")
        return view.action_ids([self.choose(view)])[0]

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling of hidden information."""
        self._rng = random.Random(seed)

    def choose(self, view: GameView) -> Choice:
        """The most visited root choice of a fresh search from ``view``."""
        choices = view.legal_choices()
        settled = choice_without_search(view, choices)
        if settled is not None:
            return settled
        return most_visited(self.search(view), heuristic_choice(view, choices))

    def search(self, view: GameView, root: Node | None = None, started: float | None = None) -> Node:
        """Run the budget's iterations from ``view`` and return the root of the tree.

        ``root``: the tree to grow (default: a fresh one). ``started``: the ``time.perf_counter()`` at which the
        decision began, from which the time limit counts (default: now).
        """
        me = view.player
        root = Node(me) if root is None else root
        stop_turn = view.turn + 2 * self.horizon
        for world in self._worlds(view, started):
            baseline = position_score(world, me)  # the same in every world: it reads only public counts
            path = self._descend(root, world)
            reward = _rollout(world, me, stop_turn, baseline)
            for node in path:
                node.visits += 1
                node.total += reward if node.mover == me else 1.0 - reward
        return root

    def _worlds(self, view: GameView, started: float | None = None) -> Iterator[Game]:
        """One determinized world per iteration: ``iterations`` of them, or until the time limit (from ``started``)."""
        started = time.perf_counter() if started is None else started
        deadline = None if self.time_limit is None else started + self.time_limit
        done = 0
        while done < self.iterations if deadline is None else (done == 0 or time.perf_counter() < deadline):
            yield view.determinize(self._rng)
            done += 1

    def _descend(self, root: Node, world: Game) -> list[Node]:
        """Select and apply choices in ``world`` down the tree, expand one untried choice; return the path."""
        state = world.state
        stop_turn = state.turn + self.tree_turns
        node, path = root, [root]
        while state.result is None and state.turn < stop_turn:
            choice, expanded = self._select(node, world)
            world.apply(choice)
            node = node.children[choice]
            path.append(node)
            if expanded:
                break
        return path

    def _select(self, node: Node, world: Game) -> tuple[Choice, bool]:
        """The choice to take at ``node`` in ``world`` and whether it is newly expanded."""
        legal = world.legal_actions()
        children = node.children
        tried = []
        for choice in legal:
            child = children.get(choice)
            if child is not None:
                child.available += 1
                tried.append((choice, child))
        if len(tried) < len(legal):
            choice = _first_untried(world, legal, children)
            children[choice] = Node(world.state.current)
            return choice, True
        exploration = self.exploration
        return max(tried, key=lambda item: item[1].ucb(exploration))[0], False


def choice_without_search(view: GameView, choices: list[Choice]) -> Choice | None:
    """The choice when there is nothing to search (one legal choice; the mulligan's rule), else None."""
    if not choices:
        raise ValueError(f"player {view.player} has no legal choice (not on turn, or the game is over)")
    if len(choices) == 1:
        return choices[0]
    if view.in_mulligan:  # the heuristic's cost-and-curve rule: see the module docstring
        return heuristic_choice(view, choices)
    return None


def most_visited(root: Node, default: Choice) -> Choice:
    """The root choice with the most visits; ties go to the higher mean, then to ``default``."""
    return max(root.children.items(), key=lambda item: (item[1].visits, item[1].mean, item[0] == default))[0]


def _first_untried(world: Game, legal: list[Choice], children: dict[Choice, Node]) -> Choice:
    """The heuristic's pick if it is untried, else the first untried choice in engine order."""
    pick = heuristic_choice(GameView(world, world.state.current), legal)
    if pick not in children:
        return pick
    return next(choice for choice in legal if choice not in children)


def _rollout(world: Game, player: int, stop_turn: int, baseline: float) -> float:
    """Play ``world`` on heuristically to ``stop_turn`` (or the end); return ``player``'s reward in [0, 1].

    A win is 1, a loss 0, a draw 0.5; otherwise the gain in position score over ``baseline`` (the root's),
    squashed, so that the reward resolves what one turn can change even in a lopsided game.
    """
    state = world.state
    for _ in range(MAX_ROLLOUT_DECISIONS):
        if state.result is not None or state.turn >= stop_turn:
            break
        world.apply(heuristic_choice(GameView(world, state.current)))
    if state.result is not None:
        return 0.5 if state.winner is None else float(state.winner == player)
    return 0.5 + 0.5 * math.tanh((position_score(world, player) - baseline) / REWARD_SCALE)
