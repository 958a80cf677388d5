"""``RLlibAgent``: the former name of :class:`ccg_env.agents.learned.LearnedAgent` for RLlib files, kept for one version."""

from .learned import LearnedAgent as RLlibAgent

__all__ = ["RLlibAgent"]
