"""LearnedAgent: a trained sb3-contrib MaskablePPO policy (a ``.ccgmodel`` model file) playing as an agent.

The model file (:mod:`ccg_env.model_file`) loads without running code from it. A stable-baselines3 ``.zip``
loads only with ``trust=True`` (``learned:path=x.zip,trust=true``, or ``--trust-model``), because loading
one unpickles it and can run any code its author wrote; convert one once with ``ccg-env model convert``.

torch and sb3-contrib are imported only when the model is first used, so listing or pickling the agent (for
arena worker processes) stays cheap; each process loads the file once.

Observation scale: a model trained on normalized observations (``normalize_observations=True``) saw each
raw value multiplied by ``ObservationEncoder(rules, cards).scale``. The agent receives raw observations and
applies the scale of the game it is shown: the rules come from the ``GameView`` passed to :meth:`act` (the
packaged rules when no view is given) and the card set from the ``cards`` option (the packaged cards by
default). A model file records the card set it was trained on: another card set is refused with an error
naming both; so is an observation or action mask of another size than the model's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ccg_env.model_file import SUFFIX, UntrustedModelError, model_kind, read_metadata, untrusted_zip_message
from ccg_env.models import DEFAULT_MODEL
from ccg_env.training.greedy import greedy_action


class LearnedAgent:
    """Plays the masked action a MaskablePPO model predicts for the raw observation.

    Args:
        path: a ccg-env model file (``.ccgmodel``, written by ``ccg-env train`` or ``ccg-env model convert``;
            the suffix may be left out), or a stable-baselines3 ``.zip`` with ``trust=True``; default: the
            model shipped with the package (:data:`ccg_env.models.DEFAULT_MODEL`).
        deterministic: take the most likely action (default) instead of sampling from the policy.
        normalize: multiply observations by the encoder's ``scale`` before predicting, as an env built with
            ``normalize_observations=True`` does; ``None`` decides from the model's observation space
            (bounds within ``[0, 1]`` mean it was trained on normalized observations).
        device: torch device for the policy.
        name: display name (default: ``learned:<file stem>``).
        cards: the card set of the games played (a ``CardSet``, a YAML path or a list of paths, as the env's
            ``cards`` option; default: the packaged cards), used with the game's rules for the scale.
        trust: allow a stable-baselines3 ``.zip``, which is unpickled (runs code from the file): only for
            files from a source you trust.
    """

    #: drafts too, from the draft-mode observation and mask, when its model was trained on ``ccg_env/Draft-v0``
    can_draft = True

    def __init__(self, path: str | Path | None = None, deterministic: bool = True, normalize: bool | None = None,
                 device: str = "cpu", name: str | None = None, cards: Any = None, trust: bool = False) -> None:
        self.path = checked_model_path(DEFAULT_MODEL if path is None else path, trust)
        self.trust = trust
        self.name = name or f"learned:{self.path.stem}"
        self.deterministic = deterministic
        self.normalize = normalize
        self.cards = cards
        self.device = device
        self._model: Any = None
        self._seed: int | None = None
        self._scales: dict[Any, np.ndarray] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_model"] = None  # reloaded lazily in the receiving process
        return state

    def _load(self) -> Any:
        try:
            import torch

            from ccg_env.saved_policy import load_model
        except ImportError as error:
            raise ImportError("LearnedAgent needs torch and sb3-contrib: pip install 'ccg-env[train]'") from error
        torch.set_num_threads(1)
        self._model = load_model(self.path, trust=self.trust, device=self.device)
        if self._model.metadata is not None:
            from ccg_env.env.aec import resolve_cards

            self._model.check_fits(card_ids=sorted(resolve_cards(self.cards)))
        if self.normalize is None:
            self.normalize = bool(np.all(np.asarray(self._model.observation_space.high) <= 1.0))
        if self._seed is not None:  # loading reseeds with the training seed: the reset() seed comes after
            self._model.set_random_seed(self._seed)
        return self._model

    def model_input(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> tuple[Any, np.ndarray]:
        """The loaded model and ``observation`` as it takes it: sizes checked, scaled as the model was trained."""
        model = self._model if self._model is not None else self._load()
        obs = np.asarray(observation, dtype=np.float32)
        if obs.shape != model.observation_space.shape or len(action_mask) != model.action_space.n:
            model.check_fits(observation_size=obs.size, action_size=len(action_mask))
            raise ValueError(f"{type(self).__name__} {self.name!r}: observation shape {obs.shape} does not match "
                             f"the model's {model.observation_space.shape}")
        if self.normalize:
            obs = obs * self._scale(view.rules if view is not None else None, obs.size)
        return model, obs

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> int:
        """Return the model's action for this observation among the ids the mask allows."""
        model, obs = self.model_input(observation, action_mask, view)
        if self.deterministic:  # the legal action with the highest logit, as the league's snapshots play
            model.policy.set_training_mode(False)
            return greedy_action(model.policy, obs, np.flatnonzero(action_mask))
        action, _ = model.predict(obs, action_masks=np.asarray(action_mask, dtype=bool), deterministic=False)
        return int(action)

    def reset(self, seed: int | None = None) -> None:
        """Seed the sampling of a non-deterministic policy (a deterministic one keeps no state).

        The seed is kept and applied once the model is loaded, so a lazily loaded model samples the same
        actions as one loaded before the reset. SB3 seeds the global ``random``, numpy and torch generators.
        """
        if self.deterministic:
            return
        self._seed = seed
        if seed is not None and self._model is not None:
            self._model.set_random_seed(seed)

    def _scale(self, rules: Any, size: int) -> np.ndarray:
        """The observation scale of ``rules`` (None: the packaged rules) and the agent's card set."""
        scale = self._scales.get((rules, size))
        if scale is None:
            scale = observation_scale(rules, self.cards)
            if scale.size != size:  # a draft-mode observation: the battle's pieces, then the draft's
                scale = observation_scale(rules, self.cards, draft=True)
            self._scales[(rules, size)] = scale
        if scale.size != size:
            raise ValueError(f"LearnedAgent {self.name!r}: the observation has {size} entries but the rules and "
                             f"card set the agent scales with give {scale.size}; pass the game's card set as "
                             f"cards= (got {self.cards!r})")
        return scale


def checked_model_path(path: str | Path, trust: bool) -> Path:
    """The model file at ``path`` (trying ``.ccgmodel`` then ``.zip`` when there is no file), checked before any
    game starts: a damaged file or an SB3 zip without ``trust`` raises (``ModelFileError``, ``UntrustedModelError``)."""
    found = Path(path)
    for suffix in (SUFFIX, ".zip"):
        if not found.exists() and found.with_suffix(suffix).exists():
            found = found.with_suffix(suffix)
    if not found.exists():
        raise FileNotFoundError(f"LearnedAgent: no model file at {str(path)!r} (expected a {SUFFIX} model file)")
    kind = model_kind(found)
    if kind == "sb3-zip" and not trust:
        raise UntrustedModelError(untrusted_zip_message(found))
    if kind == "ccg-env":
        read_metadata(found)  # validates the metadata and the weights' checksum; loads nothing
    return found


def observation_scale(rules: Any = None, cards: Any = None, draft: bool = False) -> np.ndarray:
    """``ObservationEncoder(rules, cards).scale`` (what normalized envs multiply by); None means packaged.
    ``draft``: the scale of the draft mode's observation (:class:`ccg_env.env.draft_observation.DraftEncoder`)."""
    from ccg_env.engine.game_setup import resolve_cards, resolve_rules
    from ccg_env.env.draft_observation import DraftEncoder
    from ccg_env.env.observation import ObservationEncoder

    rules, cards = resolve_rules(rules), resolve_cards(cards)
    battle = ObservationEncoder(rules, cards)
    return DraftEncoder(battle, rules).scale if draft else battle.scale
