"""LearnedAgent: a trained masked PPO policy, from either training backend's model file, playing as an agent.

The file's suffix says how it is read:

- ``.ccgmodel``: a MaskablePPO policy (:mod:`ccg_env.model_file`, written by ``ccg-env train``);
- ``.ccgrllib``: an RLlib module (:mod:`ccg_env.rllib.policy_file`, written by ``ccg-env train --backend rllib``),
  which needs the ``rllib`` extra (``pip install 'ccg-env[rllib]'``).

Both load without running code from the file. A stable-baselines3 ``.zip`` or an RLlib checkpoint folder is
unpickled when loaded, which runs any code its author wrote: each loads only with ``trust=True``
(``learned:path=x.zip,trust=true``, or ``--trust-model``); convert a zip once with ``ccg-env model convert``.
The file is checked (format, checksum) when the agent is made, before any game, and so is the optional extra its
kind needs (``train``, or ``rllib``; :func:`ccg_env.extras.require_extra` refuses the agent naming it when it is not
installed, without importing it); torch (and Ray) are imported when the model is first used, so listing or
pickling the agent (for arena worker processes) stays cheap.

The agent plays the legal action with the highest logit (:func:`ccg_env.training.greedy.greedy_rows`, as the
league's snapshots and RLlib's evaluations play), or samples the masked policy with ``deterministic=False``.

Observation scale: a model trained on normalized observations saw each raw value multiplied by
``ObservationEncoder(rules, cards).scale``. The agent receives raw observations and applies the scale of the
game it is shown: the rules come from the ``GameView`` passed to :meth:`act` (the packaged rules when no view is
given) and the card set from the ``cards`` option (the packaged cards by default). A model whose observation has
card ids records the card set it was trained on: another card set is refused with an error naming both; so is an
observation or action mask of another size than the model's. A file that records its observation spec is also
compared, at the first observation, with the spec of the game's rules and card set: a new card, keyword or piece
size is refused by name. The encoder the agent compares and scales with has the layout options its model's spec
records (``card_features``, ``card_ids``), so the game must be played with the same options (the env's, the arena's
``--card-features --no-card-ids``). A model trained with ``card_features=True, card_ids=False`` records no card set
(:func:`ccg_env.model_file.reads_card_ids`): its observation's spec and scale are the same for every card set, so it
plays any game with that layout whatever its cards (another file, a generated pool), without a ``cards`` option.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from ccg_env.model_file import (SUFFIX, UntrustedModelError, check_env_spec, model_kind, read_metadata,
                                untrusted_zip_message)
from ccg_env.extras import require_extra
from ccg_env.models import DEFAULT_MODEL
from ccg_env.training.greedy import greedy_rows

RLLIB_SUFFIX = ".ccgrllib"  # ccg_env.rllib.policy_file.SUFFIX, named here so that reading it needs no Ray


class LearnedAgent:
    """Plays the masked action a trained policy (MaskablePPO or RLlib) prefers for the raw observation.

    Args:
        path: a model file (``.ccgmodel`` or ``.ccgrllib``; the suffix may be left out), or with ``trust=True`` a
            stable-baselines3 ``.zip`` or an RLlib checkpoint folder; default: the model shipped with the package
            (:data:`ccg_env.models.DEFAULT_MODEL`).
        deterministic: take the most likely legal action (default) instead of sampling from the masked policy.
        normalize: multiply observations by the encoder's ``scale`` before predicting, as an env built with
            ``normalize_observations=True`` does; ``None`` decides from the model (an RLlib module always is).
        device: torch device for a MaskablePPO policy.
        name: display name (default: ``learned:<file stem>``).
        cards: the card set of the games played (a ``CardSet``, a YAML path, a folder of YAML files or a list of
            paths, as the env's ``cards`` option and ``--cards``; default: the packaged cards), used with the game's
            rules for the scale and, for a model whose observation has card ids, to check its card set.
        trust: allow a file that is unpickled when loaded (runs code from it): only for files you trust.
    """

    #: drafts too, from the draft-mode observation and mask, when its model was trained on ``ccg_env/Draft-v1``
    can_draft = True

    def __init__(self, path: str | Path | None = None, deterministic: bool = True, normalize: bool | None = None,
                 device: str = "cpu", name: str | None = None, cards: Any = None, trust: bool = False) -> None:
        self.path = checked_model_path(DEFAULT_MODEL if path is None else path, trust)
        self.trust = trust
        self.name = name or f"learned:{self.path.stem}"
        require_extra("rllib" if is_rllib_path(self.path) else "train", f"agent {self.name!r}")
        self.deterministic = deterministic
        self.normalize = normalize
        self.cards = card_files(cards)
        self.device = device
        self._model: Any = None
        self._fitted: set[tuple[int, int]] = set()
        self._rng = np.random.default_rng()
        self._encoders: dict[Any, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_model"] = None  # reloaded lazily in the receiving process
        state["_encoders"] = {}  # rebuilt there too (they hold compiled objects that do not pickle)
        return state

    def _load(self) -> Any:
        """The loaded model (a ``LoadedPolicy`` or a :class:`LoadedModule`), checked against the card set (when its
        observation has card ids)."""
        from ccg_env.engine.game_setup import resolve_cards

        if is_rllib_path(self.path):
            self._model = load_rllib(self.path)
        else:
            self._model = load_sb3(self.path, self.trust, self.device)
        if self._model.metadata is not None:
            self._model.check_fits(card_ids=sorted(resolve_cards(self.cards)))
        if self.normalize is None:
            self.normalize = self._model.normalized
        return self._model

    def model_input(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> tuple[Any, np.ndarray]:
        """The loaded model and ``observation`` as it takes it: sizes checked, scaled as the model was trained."""
        model = self._model if self._model is not None else self._load()
        obs = np.asarray(observation, dtype=np.float32)
        sizes = (obs.size, len(action_mask))
        rules = view.rules if view is not None else None
        if sizes not in self._fitted:
            encoder = self._encoder(rules, obs.size)
            model.check_fits(observation_size=obs.size, action_size=len(action_mask),
                             spec=encoder.spec if encoder.size == obs.size else self._game_spec(rules, obs.size))
            self._fitted.add(sizes)
        if self.normalize:
            obs = obs * self._scale(rules, obs.size)
        return model, obs

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any = None) -> int:
        """Return the model's action for this observation among the ids the mask allows."""
        mask = np.asarray(action_mask, dtype=np.int8)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"LearnedAgent {self.name!r}: no legal action (an all-zero mask)")
        model, obs = self.model_input(observation, mask, view)
        if legal.size == 1:
            return int(legal[0])
        logits = model.logits(obs[None], mask[None])
        if self.deterministic:
            return int(greedy_rows(logits, mask[None])[0])
        weights = np.exp(logits[0, legal].astype(np.float64) - logits[0, legal].max())
        return int(self._rng.choice(legal, p=weights / weights.sum()))

    def reset(self, seed: int | None = None) -> None:
        """Seed the sampling of a non-deterministic policy (a deterministic one keeps no state)."""
        if not self.deterministic:
            self._rng = np.random.default_rng(seed)

    def _encoder(self, rules: Any, size: int) -> Any:
        """The observation encoder of ``rules`` (None: the packaged rules) and the agent's card set: the duel's, or
        the draft mode's when the observation has its size."""
        encoder = self._encoders.get((rules, size))
        if encoder is None:
            options = self._layout_options()
            encoder = observation_encoder(rules, self.cards, **options)
            if encoder.size != size:  # a draft-mode observation: the battle's pieces, then the draft's
                encoder = observation_encoder(rules, self.cards, draft=True, **options)
            self._encoders[(rules, size)] = encoder
        return encoder

    def _game_spec(self, rules: Any, size: int) -> Any:
        """The spec of the layout (default or with card features, duel or draft) whose observation has ``size``
        entries with ``rules`` and the agent's card set, to name what differs from the model's; None if none has."""
        from ccg_env.engine.game_setup import resolve_cards, resolve_rules
        from ccg_env.model_file import ModelFileError
        from ccg_env.saved_policy import observation_spec_of

        try:
            return observation_spec_of(resolve_rules(rules), resolve_cards(self.cards), size)
        except ModelFileError:
            return None

    def _layout_options(self) -> dict[str, bool]:
        """The observation options of the model's recorded spec: card features when it has feature columns, card
        ids when it has card ids (the defaults for a model without a spec)."""
        spec = getattr(self._model.metadata, "observation_spec", None) if self._model is not None else None
        if not isinstance(spec, dict):
            return {}
        return {"card_features": bool(spec.get("card_features")), "card_ids": bool(spec.get("card_ids"))}

    def _scale(self, rules: Any, size: int) -> np.ndarray:
        """The observation scale of ``rules`` (None: the packaged rules) and the agent's card set."""
        scale = self._encoder(rules, size).scale
        if scale.size != size:
            raise ValueError(f"LearnedAgent {self.name!r}: the observation has {size} entries but the rules and "
                             f"card set the agent scales with give {scale.size}; pass the game's card set as "
                             f"cards= (got {self.cards!r})")
        return scale


def card_files(cards: Any) -> Any:
    """The ``cards`` option with a folder read as the sorted YAML files it holds (as ``--cards`` reads one); any other
    value as given."""
    if isinstance(cards, (str, Path)) and Path(cards).is_dir():
        files = sorted(p for p in Path(cards).iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
        if not files:
            raise ValueError(f"LearnedAgent: cards {str(cards)!r}: the folder holds no .yaml files")
        return files
    return cards


def is_rllib_path(path: Path) -> bool:
    """Whether ``path`` holds an RLlib policy: a ``.ccgrllib`` file or a checkpoint folder."""
    return path.suffix == RLLIB_SUFFIX or path.is_dir()


def checked_model_path(path: str | Path, trust: bool) -> Path:
    """The model file at ``path`` (trying ``.ccgmodel``, ``.ccgrllib`` then ``.zip`` when there is no file), checked
    before any game starts: a damaged file, a file made for another environment version or spec, or a file that
    runs code when loaded without ``trust``, raises (``ModelFileError``, ``UntrustedModelError``)."""
    found = Path(path)
    for suffix in (SUFFIX, RLLIB_SUFFIX, ".zip"):
        if not found.exists() and found.with_suffix(suffix).exists():
            found = found.with_suffix(suffix)
    if not found.exists():
        raise FileNotFoundError(f"LearnedAgent: no model file at {str(path)!r} (expected a {SUFFIX} or "
                                f"{RLLIB_SUFFIX} model file)")
    if found.is_dir():
        if not trust:
            raise UntrustedModelError(untrusted_checkpoint_message(found))
    elif found.suffix == RLLIB_SUFFIX:
        from ccg_env.rllib.policy_file import read_policy_file

        metadata = read_policy_file(found)[0]  # validates the metadata and the weights' checksum; needs no Ray
        check_env_spec(SimpleNamespace(**metadata), str(found))
    elif model_kind(found) == "sb3-zip":
        if not trust:
            raise UntrustedModelError(untrusted_zip_message(found))
    else:
        check_env_spec(read_metadata(found), str(found))
    return found


def untrusted_checkpoint_message(path: Path) -> str:
    """Why an RLlib checkpoint folder is refused, and the two ways forward."""
    return (f"{str(path)!r} is an RLlib checkpoint folder: loading one unpickles the objects in it, which runs any "
            f"code its author put there. Load it only if you trust its source, with trust=True "
            f"(learned:path=...,trust=true), or use the {RLLIB_SUFFIX} policy file written beside it by "
            f"'ccg-env train --backend rllib', which loads without running code")


def load_sb3(path: Path, trust: bool, device: str) -> Any:
    """A MaskablePPO policy's ``LoadedPolicy`` (:func:`ccg_env.saved_policy.load_model`), torch on one thread."""
    try:
        import torch

        from ccg_env.saved_policy import load_model
    except ImportError as error:
        raise ImportError("LearnedAgent needs torch and sb3-contrib for a MaskablePPO model: "
                          "pip install 'ccg-env[train]'") from error
    torch.set_num_threads(1)
    return load_model(path, trust=trust, device=device)


class LoadedModule:
    """An RLlib masked PPO module, read by the agent as a ``LoadedPolicy`` is.

    Attributes:
        module: the RLModule (in evaluation mode).
        metadata: the policy file's metadata (None for a checkpoint folder, which records no sizes or cards).
        path: where it was loaded from.
    """

    #: RLlib envs always scale observations into [0, 1]
    normalized = True

    def __init__(self, module: Any, metadata: dict[str, Any] | None, path: Path) -> None:
        self.module, self.metadata, self.path = module, metadata, path

    def check_fits(self, **game: Any) -> None:
        """Raise ModelFileError naming both values if the game's sizes or cards differ from the file's."""
        if self.metadata is not None:
            from ccg_env.rllib.policy_file import check_policy_fits

            check_policy_fits(self.metadata, str(self.path), **game)

    def logits(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The module's masked action logits for a batch, shape ``(n, size)``."""
        from ccg_env.rllib.modules import module_logits

        return module_logits(self.module, observations, masks)


def load_rllib(path: Path) -> LoadedModule:
    """The module of a ``.ccgrllib`` file, or (trusted) the ``main`` module of an RLlib checkpoint folder; without
    the ``rllib`` extra, an ImportError naming it."""
    from ccg_env.rllib import require_ray

    require_ray()
    import torch

    torch.set_num_threads(1)
    if not path.is_dir():
        from ccg_env.rllib.policy_file import load_policy_file

        return LoadedModule(*load_policy_file(path), path)
    from ray.rllib.core.rl_module.rl_module import RLModule

    module_dir = path / "learner_group" / "learner" / "rl_module" / "main"
    module = RLModule.from_checkpoint(str((module_dir if module_dir.is_dir() else path).resolve()))
    module.eval()
    return LoadedModule(module, None, path)


def observation_scale(rules: Any = None, cards: Any = None, draft: bool = False, **options: bool) -> np.ndarray:
    """``ObservationEncoder(rules, cards).scale`` (what normalized envs multiply by); None means packaged.
    ``draft``: the scale of the draft mode's observation (:class:`ccg_env.env.draft_observation.DraftEncoder`)."""
    return observation_encoder(rules, cards, draft, **options).scale


def observation_encoder(rules: Any = None, cards: Any = None, draft: bool = False, **options: bool) -> Any:
    """``ObservationEncoder(rules, cards, **options)``, or with ``draft`` the draft mode's encoder over it; None means
    packaged. ``options``: the encoder's layout options (``card_features``, ``card_ids``)."""
    from ccg_env.engine.game_setup import resolve_cards, resolve_rules
    from ccg_env.env.draft_observation import DraftEncoder
    from ccg_env.env.observation import ObservationEncoder

    rules, cards = resolve_rules(rules), resolve_cards(cards)
    battle = ObservationEncoder(rules, cards, **options)
    return DraftEncoder(battle, rules) if draft else battle
