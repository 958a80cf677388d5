"""``RLlibAgent``: the former name of :class:`agents.learned.LearnedAgent` for RLlib files, kept for one version."""

from .learned import LearnedAgent as RLlibAgent

__all__ = ["RLlibAgent"]
