"""ccg-env: a Hearthstone-style card game as a reinforcement-learning environment.

``import ccg_env.engine`` loads only the rules engine (no numpy); the PettingZoo and Gymnasium interfaces
(``ccg_env.env()``, ``ccg_env.raw_env()``) are imported on first use, and ``"ccg_env/Duel-v1"`` is registered
with Gymnasium as soon as Gymnasium is imported (see :mod:`ccg_env.env.registration`).
"""

from __future__ import annotations

from typing import Any

from .env.registration import register_when_gymnasium_is_imported

__version__ = "1.0.0"

register_when_gymnasium_is_imported()


def __getattr__(name: str) -> Any:
    if name in ("env", "raw_env"):
        from .env import aec

        return getattr(aec, name)
    raise AttributeError(f"module 'ccg_env' has no attribute {name!r}")
