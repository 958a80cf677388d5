"""LearnedAgent: a trained sb3-contrib MaskablePPO policy (a ``.zip`` model file) playing as an agent.

torch and sb3-contrib are imported only when the model is first used, so listing or pickling the agent (for
arena worker processes) stays cheap; each process loads the file once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


class LearnedAgent:
    """Plays the masked action a MaskablePPO model predicts for the raw observation.

    Args:
        path: the model file written by ``model.save`` (``.zip``; the suffix may be left out).
        deterministic: take the most likely action (default) instead of sampling from the policy.
        normalize: multiply observations by the encoder's ``scale`` before predicting, as an env built with
            ``normalize_observations=True`` does; ``None`` decides from the model's observation space
            (bounds within ``[0, 1]`` mean it was trained on normalized observations).
        device: torch device for the policy.
        name: display name (default: ``learned:<file stem>``).
    """

    def __init__(self, path: str | Path, deterministic: bool = True, normalize: bool | None = None,
                 device: str = "cpu", name: str | None = None) -> None:
        self.path = Path(path)
        if not self.path.exists() and self.path.with_suffix(".zip").exists():
            self.path = self.path.with_suffix(".zip")
        if not self.path.exists():
            raise FileNotFoundError(f"LearnedAgent: no model file at {str(path)!r} (expected a MaskablePPO .zip)")
        self.name = name or f"learned:{self.path.stem}"
        self.deterministic = deterministic
        self.normalize = normalize
        self.device = device
        self._model: Any = None
        self._scale: np.ndarray | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_model"] = None  # reloaded lazily in the receiving process
        return state

    def _load(self) -> Any:
        try:
            import torch
            from sb3_contrib import MaskablePPO
        except ImportError as error:
            raise ImportError("LearnedAgent needs torch and sb3-contrib: pip install 'ccg-env[train]'") from error
        torch.set_num_threads(1)
        self._model = MaskablePPO.load(str(self.path), device=self.device)
        if self.normalize is None:
            self.normalize = bool(np.all(np.asarray(self._model.observation_space.high) <= 1.0))
        self._scale = _default_scale() if self.normalize else None
        return self._model

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> int:
        """Return the model's action for this observation among the ids the mask allows."""
        model = self._model if self._model is not None else self._load()
        obs = np.asarray(observation, dtype=np.float32)
        expected = model.observation_space.shape
        if obs.shape != expected:
            raise ValueError(f"LearnedAgent {self.name!r}: observation shape {obs.shape} does not match the "
                             f"model's {expected} (trained with other rules or cards?)")
        if self._scale is not None:
            obs = obs * self._scale
        action, _ = model.predict(obs, action_masks=np.asarray(action_mask, dtype=bool),
                                  deterministic=self.deterministic)
        return int(action)

    def reset(self, seed: int | None = None) -> None:
        """Seed torch's sampling when the policy samples; a deterministic policy keeps no state."""
        if seed is not None and not self.deterministic and self._model is not None:
            self._model.set_random_seed(seed)


def _default_scale() -> np.ndarray:
    """The observation encoder's ``scale`` for the packaged rules and cards (what normalized envs multiply by)."""
    from ccg_env.engine import Rules, default_cards
    from ccg_env.env.observation import ObservationEncoder

    return ObservationEncoder(Rules.load(), default_cards()).scale
