"""The agent protocol every policy follows, and the registry that resolves agent names.

An agent maps (observation, action mask, game view) to an action id. Agents that only need tensors ignore
the view; agents that need the rules (heuristic, search) read the game through the view, which shows only
what the acting player may know (see ``ccg_env.env.view.GameView``).

Names such as ``"random"`` or ``"heuristic"`` resolve through the ``ccg_env.agents`` entry-point group, so
the env never imports ``agents/`` and a user's package can register its own agents the same way, or call
:func:`register_agent` at run time.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Callable, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np

    from .env.view import GameView

ENTRY_POINT_GROUP = "ccg_env.agents"


@runtime_checkable
class Agent(Protocol):
    """A policy that picks an action id for the player on turn."""

    name: str

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: GameView | None = None) -> int:
        """Return an action id with ``action_mask[id] == 1``."""
        ...

    def reset(self, seed: int | None = None) -> None:
        """Forget per-game memory and reseed any randomness (called before each game)."""
        ...


_REGISTRY: dict[str, Callable[..., Agent]] = {}


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """Make ``make_agent(name, **kwargs)`` call ``factory(**kwargs)``."""
    _REGISTRY[name] = factory


def available_agents() -> list[str]:
    """Names that :func:`make_agent` accepts."""
    names = set(_REGISTRY) | {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return sorted(names)


def make_agent(spec: str | Agent | Callable[..., int], **kwargs: Any) -> Agent:
    """Return an agent from a registered name, an agent object, or a plain ``f(obs, mask, view) -> id``."""
    if isinstance(spec, str):
        factory = _REGISTRY.get(spec)
        if factory is None:
            found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == spec]
            if not found:
                raise ValueError(f"unknown agent {spec!r}; available: {', '.join(available_agents()) or 'none'}")
            factory = found[0].load()
        return factory(**kwargs)
    if hasattr(spec, "act"):
        return spec  # type: ignore[return-value]
    if callable(spec):
        return FunctionAgent(spec)
    raise TypeError(f"expected an agent name, an object with act(), or a callable; got {spec!r}")


class FunctionAgent:
    """Wraps ``f(observation, action_mask, view) -> action id`` as an agent."""

    def __init__(self, fn: Callable[..., int], name: str | None = None) -> None:
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "function")

    def act(self, observation: Any, action_mask: Any, view: Any = None) -> int:
        return int(self.fn(observation, action_mask, view))

    def reset(self, seed: int | None = None) -> None:
        """Functions keep no memory."""
