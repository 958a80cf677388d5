"""Ray RLlib support (the optional extra ``rllib``): a multi-agent env, masked modules, a league and PPO settings.

Everything here is a thin adapter over the env core (:mod:`ccg_env.env.core`) and Ray's new API stack
(ray 2.60.0). Ray is imported lazily: ``import ccg_env.rllib`` works without it, and the first use of a name
below raises an ``ImportError`` that names the extra to install (``pip install 'ccg-env[rllib]'``).

| name                       | module                           | what it is                                         |
|----------------------------|----------------------------------|----------------------------------------------------|
| ``CcgMultiAgentEnv``       | :mod:`ccg_env.rllib.env`         | turn-based self-play ``MultiAgentEnv``             |
| ``MaskedPPOTorchRLModule`` | :mod:`ccg_env.rllib.modules`     | PPO module whose masked-out logits are never drawn |
| ``MaskedRandomRLModule``   | :mod:`ccg_env.rllib.modules`     | uniform over the legal actions                     |
| ``SlotPPOTorchRLModule``   | :mod:`ccg_env.rllib.slot_module` | the slot policy's networks as a masked PPO module  |
| ``LeagueCallback``         | :mod:`ccg_env.rllib.league`      | frozen snapshots, PFSP sampling, win rates         |
| ``ppo_config``             | :mod:`ccg_env.rllib.config`      | a ``PPOConfig`` with small-machine defaults        |

Training from the command line: ``ccg-env train --backend rllib --config rllib_selfplay``
(:mod:`ccg_env.rllib.train`); scaling out to a cluster: ``docs/scaling.md``.
"""

from __future__ import annotations

import importlib
from typing import Any

#: The pinned Ray release this adapter is written and tested against.
RAY_VERSION = "2.60.0"
INSTALL_HINT = "pip install 'ccg-env[rllib]'"

_EXPORTS = {
    "CcgMultiAgentEnv": "env", "MaskedPPOTorchRLModule": "modules", "MaskedRandomRLModule": "modules",
    "SlotPPOTorchRLModule": "slot_module", "LeagueCallback": "league", "ppo_config": "config",
}

__all__ = ["INSTALL_HINT", "RAY_VERSION", "require_ray", *_EXPORTS]


def require_ray() -> Any:
    """Import and return ``ray``; without it, an ImportError that names the ``rllib`` extra."""
    try:
        import ray
        import ray.rllib  # noqa: F401  # the rllib part is a separate set of dependencies
    except ImportError as error:
        raise ImportError(f"ccg_env.rllib needs Ray RLlib {RAY_VERSION} (the optional extra 'rllib'): "
                          f"{INSTALL_HINT} ({error})") from error
    return ray


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ccg_env.rllib' has no attribute {name!r}")
    require_ray()
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
