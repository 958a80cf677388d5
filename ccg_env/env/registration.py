"""Registers ``"ccg_env/Duel-v1"`` and ``"ccg_env/Draft-v1"`` with Gymnasium, without importing Gymnasium (or numpy) before anyone else does.

The ids carry the environment version (:mod:`ccg_env.env.versions`). Versions that can no longer be built are not
registered, so Gymnasium refuses them naming the id that replaced them (``gym.make("ccg_env/Duel-v0")`` raises
``gymnasium.error.DeprecatedEnv``: "Environment version v0 for `ccg_env/Duel` is deprecated. Please use
`ccg_env/Duel-v1` instead.").

Gymnasium 1.x has no plugin discovery: an id resolves only once some import has called ``gymnasium.register``
(or when the id names the module to import, as in ``"ccg_env.env.gym_env:ccg_env/Duel-v1"``). Registering
from ``ccg_env/__init__.py`` directly would import Gymnasium and numpy whenever ``ccg_env.engine`` is imported,
which the engine layer forbids. :func:`register_when_gymnasium_is_imported` therefore registers at once if
Gymnasium is already loaded and otherwise installs a one-shot import hook that registers right after
``import gymnasium`` completes. Registration stores only entry-point strings, so it imports nothing of ours.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from types import ModuleType
from typing import Any

ENV_ID = "ccg_env/Duel-v1"
ENTRY_POINT = "ccg_env.env.gym_env:CcgDuelEnv"
VECTOR_ENTRY_POINT = "ccg_env.env.vector:CcgDuelVectorEnv"
DRAFT_ENV_ID = "ccg_env/Draft-v1"
DRAFT_ENTRY_POINT = "ccg_env.env.draft_env:CcgDraftEnv"


def register_duel_env() -> None:
    """Register the single-agent env and its batched vector entry point (idempotent; imports Gymnasium)."""
    import gymnasium

    register_draft_env()
    if ENV_ID in gymnasium.registry:
        return
    # The raw env (no OrderEnforcing / PassiveEnvChecker wrappers) so that ``gym.make(...).action_masks()``
    # works directly; the env raises its own clear errors and the checkers run in the tests.
    gymnasium.register(ENV_ID, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT,
                       order_enforce=False, disable_env_checker=True)


def register_draft_env() -> None:
    """Register the draft-then-battle env (idempotent; imports Gymnasium), raw like the duel env."""
    import gymnasium

    if DRAFT_ENV_ID not in gymnasium.registry:
        gymnasium.register(DRAFT_ENV_ID, entry_point=DRAFT_ENTRY_POINT, order_enforce=False,
                           disable_env_checker=True)


def register_when_gymnasium_is_imported() -> None:
    """Register now if Gymnasium is loaded, else as soon as it is imported (nothing is imported here)."""
    if "gymnasium" in sys.modules:
        register_duel_env()
    elif not any(isinstance(finder, _GymnasiumImportHook) for finder in sys.meta_path):
        sys.meta_path.insert(0, _GymnasiumImportHook())


class _GymnasiumImportHook(importlib.abc.MetaPathFinder):
    """Finds ``gymnasium`` through the other finders and wraps its loader to register after it runs."""

    def find_spec(self, fullname: str, path: Any, target: ModuleType | None = None) -> Any:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _RegisterAfterExec(spec.loader)
        return spec


class _RegisterAfterExec(importlib.abc.Loader):
    """Delegates to Gymnasium's own loader, then registers the env once the package has executed."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: Any) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        register_duel_env()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)
