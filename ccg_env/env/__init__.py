"""Environment interfaces over the engine: PettingZoo AEC, Gymnasium single-agent and vector envs, codecs.

``ccg_env.env(**config)`` is the public factory of the wrapped AEC env, and ``ccg_env/env/`` is also this
package; once the package is imported it replaces the factory as the attribute ``ccg_env.env``, so the
package itself is made callable and forwards to :func:`ccg_env.env.aec.env`.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from .. import engine  # noqa: F401  first: it decides between compiled modules and sources (engine.native)


class _CallableEnvPackage(types.ModuleType):
    """The ``ccg_env.env`` package, callable as the wrapped AEC env factory."""

    def __call__(self, **config: Any) -> Any:
        from .aec import env

        return env(**config)


sys.modules[__name__].__class__ = _CallableEnvPackage
