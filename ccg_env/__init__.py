"""ccg-env: a Hearthstone-style card game as a reinforcement-learning environment.

``import ccg_env.engine`` loads only the pure-Python rules engine; the PettingZoo and Gymnasium interfaces
(``ccg_env.env()``, ``ccg_env.raw_env()``) are imported on first use.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in ("env", "raw_env"):
        from .env import aec

        return getattr(aec, name)
    raise AttributeError(f"module 'ccg_env' has no attribute {name!r}")
