"""GuidedSearchAgent: the search agent's IS-MCTS with a learned policy's probabilities as the root's prior (PUCT).

Each decision runs :class:`ccg_env.agents.search.SearchAgent`'s search (determinized worlds, a tree over the agent's
own turn, heuristic rollouts to its next turn, rewards in [0, 1]) with one change at the root:

1. before searching, the learned policy (a ``.ccgmodel`` file, as :class:`ccg_env.agents.learned.LearnedAgent` loads
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

Why the prior only at the root: a forward pass of the slot policy costs several search iterations (world, path,
rollout), so a prior at every new node would cut the iterations at equal time several times over, while the root's
prior costs one pass per decision. For the same reason rollout rewards stay the heuristic rollout's: the policy's
value head costs about as much per leaf as a forward pass.

The time limit counts from the start of the decision, so the prior's forward pass is paid from the same budget
as plain search's iterations: equal time per decision. With ``iterations`` instead, the agent is deterministic
given its seed. What it measured against plain search, with each policy and variant tried, is in docs/training.md
("The learned policy as search's prior").
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
        mask = np.asarray(action_mask, dtype=np.int8)
        model, obs = self.model_input(observation, mask, view)
        logits = model.logits(obs[None], mask[None])[0][np.asarray(view.action_ids(choices), dtype=np.int64)]
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
