"""RLlibAgent: a masked PPO module trained with Ray RLlib (``ccg-env train --backend rllib``) playing greedily.

``rllib:path=runs/<run>/model.ccgrllib`` loads the policy file training writes (:mod:`ccg_env.rllib.policy_file`:
JSON metadata and plain tensors, no code run from the file). An RLlib checkpoint folder (``runs/<run>/model`` or
``checkpoints/iter_<n>``) holds pickles, which run any code their author put there: it loads only with
``trust=True`` (``rllib:path=...,trust=true``). Both need the ``rllib`` extra (``pip install 'ccg-env[rllib]'``),
imported on first use, so listing or pickling the agent stays cheap.

The agent plays the legal action with the highest logit of the module, on the observation scaled into [0, 1] as
the env it trained on (the scale of the game's rules, from the view, and of the ``cards`` option).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.learned import observation_scale
from ccg_env.model_file import UntrustedModelError


def untrusted_checkpoint_message(path: Path) -> str:
    """Why an RLlib checkpoint folder is refused, and the two ways forward."""
    return (f"{str(path)!r} is an RLlib checkpoint folder: loading one unpickles the objects in it, which runs any "
            f"code its author put there. Load it only if you trust its source, with trust=True "
            f"(rllib:path=...,trust=true), or use the .ccgrllib policy file written beside it by "
            f"'ccg-env train --backend rllib', which loads without running code")


class RLlibAgent:
    """Plays the legal action with the highest logit of an RLlib-trained masked PPO module.

    Args:
        path: a ``.ccgrllib`` policy file, or (with ``trust=True``) an RLlib checkpoint folder: an algorithm
            checkpoint (its ``main`` module is used) or a module checkpoint.
        name: display name (default: ``rllib:<file stem>``).
        cards: the card set of the games played (as the env's ``cards`` option; default: the packaged cards).
        trust: allow an RLlib checkpoint folder, which is unpickled (runs code from it).
    """

    spec_example = "rllib:path=runs/rllib_selfplay/model.ccgrllib"

    def __init__(self, path: str | Path, name: str | None = None, cards: Any = None, trust: bool = False) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"RLlibAgent: no policy file or checkpoint folder at {str(path)!r}")
        if self.path.is_dir() and not trust:
            raise UntrustedModelError(untrusted_checkpoint_message(self.path))
        if self.path.is_file():
            from ccg_env.rllib.policy_file import read_policy_file

            self._metadata: dict[str, Any] | None = read_policy_file(self.path)[0]  # checked before any game
        self.trust = trust
        self.name = name or f"rllib:{self.path.stem}"
        self.cards = cards
        self._module: Any = None
        self._scales: dict[Any, np.ndarray] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_module"] = None  # reloaded lazily in the receiving process
        return state

    def _load(self) -> Any:
        from ccg_env.rllib import require_ray

        require_ray()
        import torch

        torch.set_num_threads(1)
        if self.path.is_dir():
            self._module = load_checkpoint_module(self.path)
            self._metadata = None
        else:
            from ccg_env.engine.game_setup import resolve_cards
            from ccg_env.rllib.policy_file import check_policy_fits, load_policy_file

            self._module, self._metadata = load_policy_file(self.path)
            check_policy_fits(self._metadata, str(self.path), card_ids=sorted(resolve_cards(self.cards)))
        return self._module

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> int:
        """The legal id (``action_mask == 1``) with the highest logit for this raw observation."""
        from ccg_env.rllib.modules import greedy_actions

        module = self._module if self._module is not None else self._load()
        obs = np.asarray(observation, dtype=np.float32)
        mask = np.asarray(action_mask, dtype=np.int8)
        self._check_sizes(obs.size, mask.size)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"RLlibAgent {self.name!r}: no legal action (an all-zero mask)")
        if legal.size == 1:
            return int(legal[0])
        scaled = obs * self._scale(view.rules if view is not None else None, obs.size)
        return int(greedy_actions(module, scaled[None], mask[None])[0])

    def reset(self, seed: int | None = None) -> None:
        """Greedy play keeps no state between games."""

    def _check_sizes(self, observation_size: int, action_size: int) -> None:
        if self._metadata is not None:
            from ccg_env.rllib.policy_file import check_policy_fits

            check_policy_fits(self._metadata, str(self.path), observation_size=observation_size,
                              action_size=action_size)

    def _scale(self, rules: Any, size: int) -> np.ndarray:
        scale = self._scales.get(rules)
        if scale is None:
            scale = self._scales[rules] = observation_scale(rules, self.cards)
        if scale.size != size:
            raise ValueError(f"RLlibAgent {self.name!r}: the observation has {size} entries but the rules and card "
                             f"set the agent scales with give {scale.size}; pass the game's card set as cards=")
        return scale


def load_checkpoint_module(path: Path) -> Any:
    """The ``main`` module of a trusted RLlib algorithm checkpoint folder, or the module a module folder holds."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    module_dir = path / "learner_group" / "learner" / "rl_module" / "main"
    module = RLModule.from_checkpoint(str((module_dir if module_dir.is_dir() else path).resolve()))
    module.eval()
    return module
