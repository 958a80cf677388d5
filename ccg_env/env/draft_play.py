"""Draft decisions of agents: how an env or the arena asks an agent (or the built-in random drafter) for a pick.

A draft decision is the same agent protocol as a battle decision (:mod:`ccg_env.agent_api`), with a
:class:`~ccg_env.engine.draft.DraftView` as the view: ``act(observation, action_mask, view)`` returns one of the
draft-pick ids (``view.action_id(k)``), with the draft-mode observation and a mask of exactly the offered picks.
An agent that reads only the view may offer ``draft_pick(view) -> int`` instead (the offer index), as the
heuristic does; it is then asked that, and no observation or mask is built for it.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import numpy as np

from ..agent_api import make_agent
from ..engine.draft import Draft, DraftView
from .core import EnvCore


class Drafter(Protocol):
    """Picks the offer index of the seat it drafts for; reseeded before each draft."""

    name: str

    def pick(self, draft: Draft, seat: int) -> int: ...

    def reset(self, seed: int) -> None: ...


class RandomDrafter:
    """Uniform over the offer, from a generator reseeded with each draft's seed."""

    name = "random"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def pick(self, draft: Draft, seat: int) -> int:
        return self._rng.randrange(len(draft.legal_picks()))

    def reset(self, seed: int) -> None:
        self._rng.seed(f"draft-{seed}")


class AgentDrafter:
    """Asks an agent for its picks: ``draft_pick(view)`` if it has one, else ``act`` with the draft observation."""

    def __init__(self, agent: Any, core: EnvCore) -> None:
        self.agent = agent
        self.name = str(getattr(agent, "name", type(agent).__name__))
        self._core = core
        self._observation: np.ndarray | None = None

    def pick(self, draft: Draft, seat: int) -> int:
        return agent_pick(self.agent, self._core, draft, seat, self._buffer())

    def _buffer(self) -> np.ndarray:
        if self._observation is None:
            encoder = self._core.draft_encoder
            if encoder is None:
                raise ValueError("drafting needs an env core in draft mode (mode='draft')")
            self._observation = encoder.new_buffer()
        return self._observation

    def reset(self, seed: int) -> None:
        reset = getattr(self.agent, "reset", None)
        if reset is not None:
            reset(seed)


def agent_pick(agent: Any, core: EnvCore, draft: Draft, seat: int, observation: np.ndarray) -> int:
    """The offer index ``agent`` picks for ``seat`` (on turn in ``draft``), checked against the legal picks.

    ``observation``: a buffer of the draft-mode observation's shape, written here (its battle part zeroed)
    when the agent is asked through ``act``.

    Raises:
        ValueError: the agent picked an index or id that is not offered now (named in the message).
    """
    encoder = core.draft_encoder
    if encoder is None:
        raise ValueError("drafting needs an env core in draft mode (mode='draft')")
    view = DraftView.of(draft, seat, core.codec.layout.draft_offset)
    legal = core.draft_legal(draft)
    name = getattr(agent, "name", type(agent).__name__)
    draft_pick = getattr(agent, "draft_pick", None)
    if draft_pick is not None:
        index = draft_pick(view)
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or index not in draft.legal_picks():
            raise ValueError(f"agent {name!r} picked offer index {index!r}; offered: 0..{len(view.offer) - 1}")
        return int(index)
    observation[:encoder.battle_size] = 0.0
    encoder.write_draft(draft, seat, observation)
    action = int(agent.act(observation.copy(), core.mask(legal), view))
    if action not in legal:
        raise ValueError(f"agent {name!r} chose action {action} ({core.codec.layout.describe(action)}) in the "
                         f"draft; legal picks: {sorted(legal)}")
    return legal[action]


def make_drafter(spec: Any, core: EnvCore) -> Drafter:
    """The drafter for ``"random"``, a registered agent name (``"heuristic"``...) or an agent object."""
    if spec == "random":
        return RandomDrafter()
    if isinstance(spec, str):
        try:
            return AgentDrafter(make_agent(spec), core)
        except (ImportError, ValueError) as error:
            raise ValueError(f"opponent_draft: agent {spec!r} could not be made: {error}") from error
    if hasattr(spec, "pick") and hasattr(spec, "reset") and not hasattr(spec, "act"):
        return spec
    try:
        return AgentDrafter(make_agent(spec), core)
    except TypeError as error:
        raise TypeError(f"opponent_draft: {error}") from error
