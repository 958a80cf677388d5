"""The agent protocol every policy follows, and the registry that resolves agent names.

An agent maps (observation, action mask, game view) to an action id. Agents that only need tensors ignore
the view; agents that need the rules (heuristic, search) read the game through the view, which shows only
what the acting player may know (see ``ccg_env.engine.view.GameView``). An agent that reads only the view may
also offer ``choose_from_view(view) -> Choice`` (the engine choice ``act`` would pick): the env's opponents
then call that and skip building an observation and a mask for it.

Names such as ``"random"`` or ``"heuristic"`` resolve through the ``ccg_env.agents`` entry-point group, so
the env never imports ``ccg_env/agents/`` and a user's package can register its own agents the same way, or call
:func:`register_agent` at run time. Options passed to :func:`make_agent` are checked against the factory's
signature first, so a misspelt or mistyped option is a ValueError that names it and lists the options.
"""

from __future__ import annotations

import inspect
import math
import os
import types
import typing
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Callable, Protocol, Union, runtime_checkable

if TYPE_CHECKING:
    import numpy as np

    from .engine.view import GameView

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


_ENTRY_POINT_NAMES: set[str] = set()  # entry points once seen (they stay installed while the process runs)
#: Factories loaded from entry points, by name: scanning the installed packages took about 3 ms, once per env built
#: with an entry-point opponent (0.41 s of the 0.44 s that building a training run's 128 envs took).
_ENTRY_POINT_FACTORIES: dict[str, Callable[..., Agent]] = {}


def is_agent_name(name: str) -> bool:
    """Whether :func:`make_agent` accepts ``name``, without scanning the installed packages' entry points again
    for a name already found there (the league checks its opponents on every update of every env)."""
    if name in _REGISTRY or name in _ENTRY_POINT_NAMES:
        return True
    _ENTRY_POINT_NAMES.update(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    return name in _ENTRY_POINT_NAMES


def make_agent(spec: str | Agent | Callable[..., int], **kwargs: Any) -> Agent:
    """Return an agent from a registered name, an agent object, or a plain ``f(obs, mask, view) -> id``.

    Raises:
        ValueError: an unknown name, or ``kwargs`` that the agent's factory does not accept (an unknown
            option, a value of the wrong type, a required option missing); the message lists the options.
    """
    if isinstance(spec, str):
        factory = agent_factory(spec)
        check_agent_options(spec, factory, kwargs)
        return factory(**kwargs)
    if hasattr(spec, "act"):
        return spec  # type: ignore[return-value]
    if callable(spec):
        return FunctionAgent(spec)
    raise TypeError(f"expected an agent name, an object with act(), or a callable; got {spec!r}")


def agent_factory(name: str) -> Callable[..., Agent]:
    """The factory registered under ``name`` (at run time or as a ``ccg_env.agents`` entry point)."""
    factory = _REGISTRY.get(name) or _ENTRY_POINT_FACTORIES.get(name)
    if factory is not None:
        return factory
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        raise ValueError(f"unknown agent {name!r}; available: {', '.join(available_agents()) or 'none'}")
    factory = _ENTRY_POINT_FACTORIES[name] = found[0].load()
    return factory


def check_agent_options(name: str, factory: Callable[..., Agent], kwargs: dict[str, Any]) -> None:
    """Raise ValueError naming the option at fault if ``factory(**kwargs)`` does not fit its signature.

    Checks unknown options, values against the parameters' annotations (int, float, bool, str, paths,
    None and unions of them; other annotations are not checked), numbers that are not finite (``inf``,
    ``nan``: a time limit of ``inf`` never returns) and required options left out. A factory
    may carry a ``spec_example`` string, shown when a required option is missing.
    """
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return  # no signature to check against (a builtin or C callable)
    hints = _type_hints(factory)
    options = {key: p for key, p in parameters.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    listing = ", ".join(_describe_option(key, p, hints.get(key)) for key, p in options.items()) or "none"
    open_ended = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    for key, value in kwargs.items():
        if key not in options and not open_ended:
            raise ValueError(f"agent {name!r} has no option {key!r}; options: {listing}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"agent {name!r}: option {key} expects a finite number, got {value!r}; options: "
                             f"{listing}")
        if key in hints and not _fits(value, hints[key]):
            raise ValueError(f"agent {name!r}: option {key} expects {_type_name(hints[key])}, got {value!r}; "
                             f"options: {listing}")
    _check_required(name, factory, [key for key, p in options.items() if p.default is p.empty], kwargs, listing)


def _check_required(name: str, factory: Any, required: list[str], kwargs: dict[str, Any], listing: str) -> None:
    missing = [key for key in required if key not in kwargs]
    if missing:
        example = getattr(factory, "spec_example", f"{name}:" + ",".join(f"{key}=VALUE" for key in missing))
        raise ValueError(f"agent {name!r} requires {', '.join(key + '=' for key in missing)} "
                         f"(for example {example}); options: {listing}")


def _type_hints(factory: Callable[..., Any]) -> dict[str, Any]:
    target = factory.__init__ if inspect.isclass(factory) else factory
    try:
        return typing.get_type_hints(target)
    except Exception:  # annotations naming types only imported for type checking: leave values unchecked
        return {}


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` fits an annotation (ints count as floats, bools are not ints, text counts as a path)."""
    if typing.get_origin(hint) in (Union, types.UnionType):
        return any(_fits(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint in (int, float):
        return isinstance(value, (int, hint)) and not isinstance(value, bool)
    if hint in (bool, str):
        return isinstance(value, hint)
    if isinstance(hint, type) and issubclass(hint, os.PathLike):
        return isinstance(value, (str, os.PathLike))
    return True


def _type_name(hint: Any) -> str:
    if typing.get_origin(hint) in (Union, types.UnionType):
        return " or ".join(_type_name(arg) for arg in typing.get_args(hint))
    return "none" if hint is type(None) else getattr(hint, "__name__", str(hint))


def _describe_option(key: str, parameter: inspect.Parameter, hint: Any) -> str:
    text = key if hint in (None, Any) else f"{key}={_type_name(hint)}"
    return text + (" (required)" if parameter.default is parameter.empty else "")


class FunctionAgent:
    """Wraps ``f(observation, action_mask, view) -> action id`` as an agent."""

    def __init__(self, fn: Callable[..., int], name: str | None = None) -> None:
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "function")

    def act(self, observation: Any, action_mask: Any, view: Any = None) -> int:
        return int(self.fn(observation, action_mask, view))

    def reset(self, seed: int | None = None) -> None:
        """Functions keep no memory."""
