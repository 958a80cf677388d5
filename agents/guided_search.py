"""GuidedSearchAgent: the search agent's IS-MCTS with a learned policy's probabilities as the root's prior (PUCT).

Each decision runs :class:`agents.search.SearchAgent`'s search (determinized worlds, a tree over the agent's
own turn, heuristic rollouts to its next turn, rewards in [0, 1]) with one change at the root:

1. before searching, the learned policy (a ``.ccgmodel`` file, as :class:`agents.learned.LearnedAgent` loads
   it) is evaluated once on the real observation, and its masked logits at the legal choices' action ids are
   turned into probabilities ``P`` by a softmax;
2. at the root, selection maximizes the PUCT score of AlphaZero
   ``Q + c_puct * P * sqrt(N) / (1 + n)``, where ``n`` is the choice's visits, ``N`` the iterations so far
   (this one included) and ``Q`` the choice's mean reward; a choice not yet tried scores the mean of the root's
   visits so far (0.5 before the first) in place of ``Q``, so the policy decides which choices are tried at
   all and in what order, instead of every choice being tried once first;
3. below the root, selection and expansion are plain search's UCB1 and heuristic-first expansion.

The agent plays the most visited root choice, as plain search does (ties: the higher mean, then the heuristic's
pick). In the mulligan, or with one legal choice, it does not search (as plain search). The prior may also be
any function ``prior(observation, action_mask, view, choices) -> probabilities`` (tests pass a stub).

Why the prior only at the root: one forward pass of the shipped slot policy costs about 1.8 ms on this machine,
and one search iteration (world, path, rollout) about 0.5 ms, so a prior at every new node would cut the
iterations at equal time by about four; the root's prior costs one pass per decision (under 4% of a 50 ms
budget). For the same reason rollout rewards stay the heuristic rollout's: the policy's value head costs about
1.1 ms per leaf, mixing it half into the leaf reward measured weaker (below), and even at no cost (equal
iterations rather than equal time) the value alone in place of the position score plays plain search level.

The time limit counts from the start of the decision, so the prior's forward pass is paid from the same budget
as plain search's iterations: equal time per decision. With ``iterations`` instead, the agent is deterministic
given its seed.

Measured against plain search at 0.05 s per decision each (98 games: every ordered pair of the 7 packaged decks
from both seats; win rate with its 95% Wilson interval), on a loaded 2-core machine:

=====================================================================  ======================
guided search's prior                                                  win rate vs plain
=====================================================================  ======================
uniform (PUCT alone, the forward pass still paid)                      0.490 [0.393, 0.587]
the earlier shipped model (0.29 against the heuristic)                 0.306 [0.224, 0.403]
  the same, softmax at temperature 3                                   0.357
  the same, half the prior on the heuristic's pick                     0.398
  the same, every root choice tried once before PUCT                   0.347
imitation + PPO model, 1M steps: 0.575 against the heuristic           0.429 [0.335, 0.527]
  the same, c_puct 0.3                                                 0.418
  the same, the value head mixed half into the leaf reward             0.378
the same run at 2.5M steps: 0.655 against the heuristic (196 games)    0.485 [0.416, 0.554]
that run's final model (0.635 against the heuristic)                   0.500 [0.403, 0.597]
the shipped model of 2026-11-27 (0.672 against the heuristic)          0.459 [0.364, 0.558]
that model continued 2M steps at ent_coef 0.001 (0.694)                0.469 [0.374, 0.567]
the model shipped on 2026-11-28 (0.700 against the heuristic)          0.459 [0.364, 0.558]
no prior; the 2026-11-27 model's value (1 + v) / 2 at rollouts' ends   0.500 [0.403, 0.597]
  in place of the position score, 48 iterations each (equal
  iterations, not equal time; 2026-11-28)
no prior; the 2026-11-28 model's value at the tree's leaf and no       0.245 [0.170, 0.339]
  rollouts at all (a leaf past the turn's end valued just before
  its last choice), 48 iterations each (2026-11-28, evening)
no learned part: plain search, 192 iterations against 48 (392 games)   0.528 [0.479, 0.577]
  the same, 768 iterations against 48 (196 games)                    0.561 [0.491, 0.629]
=====================================================================  ======================

PUCT itself costs nothing (the uniform prior plays level), and the prior helps only as far as the policy's
picks beat what the heuristic-first search finds on its own: with today's policies it steers visits away from
better moves, less so as the policy gets stronger (0.306, 0.429, 0.485 and 0.500 for policies at 0.29, 0.575,
0.655 and 0.635 against the heuristic), and no further with policies at 0.672, 0.694 and 0.700 (0.459, 0.469
and 0.459, within the noise of 98 games). The softmax, ``c_puct`` 1 and the absent value term are the defaults because no
variant measured better. The learned value ranks a turn's moves badly on its own: in place of the rollouts it loses
three games in four. And the last two rows say what 0.75 asks: plain search with sixteen times its own iterations
wins 0.561, so guided search at equal time would need a prior or value worth far more than that.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from ccg_env.engine import Choice
from ccg_env.engine.view import GameView

from .heuristic import choose as heuristic_choice
from .learned import LearnedAgent
from .search import Node, SearchAgent, choice_without_search, most_visited

if TYPE_CHECKING:
    from ccg_env.engine import Game

#: ``prior(observation, action_mask, view, choices)``: one probability per choice, in their order.
PriorFunction = Callable[[Any, Any, GameView, list[Choice]], Sequence[float]]


class PriorNode(Node):
    """The root: a node that also holds the prior probability of each legal choice."""

    __slots__ = ("priors",)

    def __init__(self, mover: int, priors: dict[Choice, float]) -> None:
        super().__init__(mover)
        self.priors = priors


class PolicyPrior(LearnedAgent):
    """A learned policy's probabilities over the legal choices: the softmax of its logits at their action ids."""

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray, view: GameView,
                 choices: list[Choice]) -> list[float]:
        """One probability per choice, from the raw observation (scaled as the model was trained)."""
        from ccg_env.training.greedy import policy_logits

        model, obs = self.model_input(observation, action_mask, view)
        logits = policy_logits(model.policy, obs)[np.asarray(view.action_ids(choices), dtype=np.int64)]
        weights = np.exp(logits - logits.max())
        return (weights / weights.sum()).tolist()


class GuidedSearchAgent(SearchAgent):
    """Information-set MCTS with PUCT at the root, a learned policy as the prior; see the module docstring.

    Args:
        path: the policy's model file (``.ccgmodel``; default: the model shipped with the package).
        iterations: tree iterations per decision (default 48).
        time_limit: seconds per decision, counted from the start of the decision (the prior's forward pass
            included); when set, iterate until time runs out instead.
        c_puct: the weight of the prior in the root's PUCT score (rewards lie in [0, 1]).
        seed: seeds the sampling of hidden information (``reset(seed)`` reseeds).
        name: display name.
        trust: allow a stable-baselines3 ``.zip`` model (unpickled: only for files you trust).
        prior: a function ``(observation, action_mask, view, choices) -> probabilities`` in place of the
            model's policy (then ``path`` is not read).
    """

    def __init__(self, path: str | Path | None = None, iterations: int = 48, time_limit: float | None = None,
                 c_puct: float = 1.0, seed: int | None = None, name: str = "guided_search", trust: bool = False,
                 prior: PriorFunction | None = None) -> None:
        super().__init__(iterations=iterations, seed=seed, time_limit=time_limit, name=name)
        if not (c_puct >= 0 and math.isfinite(c_puct)):
            raise ValueError(f"GuidedSearchAgent c_puct must be a finite number >= 0, got {c_puct}")
        self.c_puct = c_puct
        self.prior: PriorFunction = prior if prior is not None else PolicyPrior(path, trust=trust)

    def act(self, observation: Any, action_mask: np.ndarray, view: GameView | None = None) -> int:
        """Return the action id of the most visited root choice."""
        if view is None:
            raise ValueError("GuidedSearchAgent searches the game through a GameView; act() got view=None")
        return view.action_ids([self.choose(view, observation, action_mask)])[0]

    def choose(self, view: GameView, observation: Any = None, action_mask: Any = None) -> Choice:
        """The most visited root choice of a search from ``view``, guided by the prior of ``observation``."""
        started = time.perf_counter()
        choices = view.legal_choices()
        settled = choice_without_search(view, choices)
        if settled is not None:
            return settled
        root = self.search(view, self.root(view, choices, observation, action_mask), started)
        return most_visited(root, heuristic_choice(view, choices))

    def root(self, view: GameView, choices: list[Choice], observation: Any, action_mask: Any) -> PriorNode:
        """A fresh root holding the prior of each legal choice."""
        if observation is None and isinstance(self.prior, PolicyPrior):
            raise ValueError("GuidedSearchAgent needs the observation and action mask for its policy's prior")
        probabilities = [float(p) for p in self.prior(observation, action_mask, view, choices)]
        if len(probabilities) != len(choices):
            raise ValueError(f"the prior gave {len(probabilities)} probabilities for {len(choices)} choices")
        return PriorNode(view.player, dict(zip(choices, probabilities)))

    def _select(self, node: Node, world: Game) -> tuple[Choice, bool]:
        """PUCT at the root, where the prior is; plain search's UCB1 and expansion below it."""
        if not isinstance(node, PriorNode):
            return super()._select(node, world)
        children, priors = node.children, node.priors
        legal = world.legal_actions()
        visited = [children[choice] for choice in legal if choice in children]
        for child in visited:
            child.available += 1
        total = sum(child.visits for child in visited)
        first_play = sum(child.total for child in visited) / total if total else 0.5
        scale = self.c_puct * math.sqrt(total + 1)

        def score(choice: Choice) -> float:
            child = children.get(choice)
            prior = priors.get(choice, 0.0)
            if child is None:
                return first_play + scale * prior
            return child.mean + scale * prior / (1 + child.visits)

        choice = max(legal, key=score)
        if choice in children:
            return choice, False
        children[choice] = Node(world.state.current)
        return choice, True
