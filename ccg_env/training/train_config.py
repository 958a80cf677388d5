"""Training settings: :class:`TrainConfig`, loaded from YAML and validated with errors naming the file and key.

``load_config("configs/train/<name>.yaml")`` (or a packaged name such as ``"smoke"``) reads a YAML mapping
whose keys are exactly the field names below, applies command-line overrides (``parse_overrides``) and
validates every value before anything is built or written, so a bad setting fails at once with
``<file>: <key> ...`` instead of minutes into a run. :mod:`ccg_env.training.train` runs the configuration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence, Union

from ..engine.datafiles import parse_yaml, read_yaml
from ..engine.errors import DataError, shown
from ..model_file import MAX_ATTENTION_LAYERS, MAX_LAYER_SIZE, MAX_LAYERS, MAX_WEIGHTS_BYTES
from .checks import check_fields, check_keys, number, type_name, whole, without_removed


@dataclass
class TrainConfig:
    """Every setting of a training run; YAML keys are exactly these field names."""

    name: str = ""
    """run name: outputs go to ``<runs_dir>/<name>/`` (defaults to the YAML file's stem)"""
    backend: str = "sb3"
    """``"sb3"`` (sb3-contrib MaskablePPO in one process) or ``"rllib"`` (Ray RLlib PPO self-play,
    :mod:`ccg_env.rllib.train`; needs the ``rllib`` extra)"""
    rllib: dict = field(default_factory=dict)
    """``backend: rllib`` only: where sampling and learning run (:class:`ccg_env.rllib.settings.RLlibSettings`)"""
    total_timesteps: int = whole(1_000_000)
    """learner env steps to train for (summed over all envs)"""
    seed: int = 0
    """seeds the training envs (slot i gets seed + i), the policy initialisation and PPO's sampling"""
    num_envs: int = whole(16)
    """games played side by side in the batched env (one process)"""
    opponent: str = "random"
    """who the learner plays against: ``"random"``, a registered agent name, ``"league"`` (see ``league``), or with
    ``backend: rllib`` ``"self"`` (plain self-play)"""
    league: dict = field(default_factory=dict)
    """league settings when ``opponent`` is ``"league"`` (:class:`ccg_env.training.league.LeagueSettings` fields,
    the same for both backends)"""
    imitation: dict = field(default_factory=dict)
    """warm start before PPO (empty: none): a teacher agent plays the learner's seat and the policy is fitted to
    its moves and outcomes (:class:`ccg_env.training.imitation.ImitationSettings` fields: ``teacher``,
    ``samples``, ``epochs``, ``batch_size``, ``learning_rate``, ``value_coef``)"""
    init_model: Union[str, None] = None
    """a model file (``.ccgmodel``) of the same policy to start from (its weights; PPO settings come from here);
    a stable-baselines3 ``.zip`` needs ``trust_model``"""
    trust_model: bool = False
    """allow stable-baselines3 ``.zip`` files as ``init_model`` and league checkpoints: loading one unpickles it,
    which runs any code its author put in (``ccg-env train --trust-model``)"""
    mode: str = "duel"
    """``"duel"`` (play given decks, ``ccg_env/Duel-v1``) or ``"draft"`` (draft a deck, then battle with it:
    ``ccg_env/Draft-v1``; ``decks`` is not used, the policy must be ``mlp``)"""
    opponent_draft: str = "heuristic"
    """draft mode: the opponent's draft strategy, ``"random"`` or a registered agent name (``"heuristic"``)"""
    seat: Union[str, int] = "random"
    """the learner's seat: ``"random"`` per game, or fixed 0 (moves first) or 1"""
    decks: Union[str, list, None] = None
    """two decks (packaged names or YAML paths), ``"random"`` (drawn per game), or None for the defaults"""
    rules: Union[str, None] = None
    """rules YAML path, or None for the packaged default rules"""
    cards: Union[str, list, None] = None
    """card YAML path(s), or None for the packaged card set"""
    turn_limit: Union[int, None] = None
    """override of the rules' turn limit (a game reaching it is a truncation)"""
    normalize_observations: bool = True
    """scale observations into [0, 1] inside the env (``ObservationEncoder.scale``)"""
    card_features: bool = False
    """every card slot also carries what the card does (its feature row), and the observation the card-feature
    pieces: weapons, own secrets, graveyards, own deck (docs/observation.md)"""
    card_ids: bool = True
    """card slots carry the card-id one-hot; false (with ``card_features``, mode duel) leaves every card id out"""
    rescale_inputs: bool = False
    """inside the policy, read stats as value / 10 instead of value / 100 (``ccg_env.training.policy.input_gain``)"""
    policy: str = "mlp"
    """``"mlp"`` (MlpPolicy on the flat observation) or ``"slot"`` (per-slot encoder, ``ccg_env.training.policy``)"""
    policy_kwargs: dict = field(default_factory=dict)
    """options of ``policy: slot``: ``slot_dim``, ``global_dim``, ``head_dim``, ``pairwise``, ``pooled_value``
    (empty for mlp)"""
    learning_rate: float = number(3e-4, above=True)
    """Adam step size"""
    lr_schedule: str = "constant"
    """``"constant"`` or ``"linear"`` (decays to 0 by the end of training)"""
    n_steps: int = whole(128)
    """env steps per env per rollout (rollout size = n_steps * num_envs)"""
    batch_size: int = whole(512)
    """minibatch size of the PPO update (best a divisor of the rollout size)"""
    n_epochs: int = whole(4)
    """passes over each rollout"""
    gamma: float = number(0.99, high=1.0, above=True)
    """discount factor"""
    gae_lambda: float = number(0.95, high=1.0)
    """GAE lambda"""
    clip_range: float = number(0.2, above=True)
    """PPO clipping of the probability ratio"""
    ent_coef: float = number(0.01)
    """entropy bonus coefficient"""
    vf_coef: float = number(0.5)
    """value loss coefficient"""
    max_grad_norm: float = number(0.5, above=True)
    """gradient clipping norm"""
    net_arch: list = field(default_factory=lambda: [256, 256])
    """hidden layer sizes of the policy and of the value network (separate networks)"""
    eval_every: int = 50_000
    """evaluate (and checkpoint) every this many timesteps; 0 evaluates only at the end"""
    eval_games: int = whole(200)
    """games per evaluation"""
    eval_envs: int = whole(16)
    """games played side by side during evaluation"""
    eval_opponent: Union[str, None] = None
    """opponent of the evaluation games (None: the training opponent)"""
    eval_opponents: list = field(default_factory=list)
    """more opponents met at every evaluation besides ``eval_opponent``: registered agent names, or mappings of a
    name and its options (``{name: search, iterations: 8}``), or ``best``: the run's best model so far (its
    ``best_model.ccgmodel`` as it stands before the evaluation, from the second evaluation on); their rows go to
    ``eval.csv`` and their curves to ``learning_curve.png``, while ``best_model`` follows ``eval_opponent``"""
    eval_deterministic: bool = True
    """evaluate the greedy policy (most probable legal action) rather than sampling"""
    eval_seed: int = 1_000_000
    """seed of the evaluation deals: every evaluation replays the same games, dealt as the arena deals them (every
    ordered deck pair from both seats; ``ccg_env.training.eval_games``)"""
    torch_threads: int = whole(1)
    """``torch.set_num_threads``: 1 is fastest for small networks on these 2-core machines"""
    async_rollouts: bool = False
    """play each rollout on a second process while the learner updates on the previous one (backend sb3): the two
    halves of a PPO iteration overlap on two cores, and the samples are one update old; a league then lives in the
    worker (:mod:`ccg_env.training.async_ppo`)"""
    device: str = "cpu"
    """torch device"""
    runs_dir: str = "runs"
    """parent folder of the run folder"""
    verbose: int = 0
    """SB3 verbosity (1 prints the training table)"""
    progress: Union[bool, str] = "auto"
    """progress bar on stderr (timesteps, steps/s, latest evaluation win rate): true, false, or ``"auto"``
    (shown when stderr is a terminal)"""

    def __post_init__(self) -> None:
        for check in (_check_name, _check_runtime, _check_counts, _check_hyperparameters, _check_game, _check_policy):
            check(self)


POLICIES = ("mlp", "slot")
#: Options of ``policy: slot`` -> their type (see ``ccg_env.training.policy.SlotPolicy``).
SLOT_POLICY_KWARGS = {"slot_dim": int, "global_dim": int, "head_dim": int, "pairwise": bool, "pooled_value": bool}
#: The largest value of each whole-number option that a model file holds (``ccg_env.model_file``), so that no run
#: trains for an hour and then cannot be saved.
SLOT_POLICY_MAXIMA = {"slot_dim": MAX_LAYER_SIZE, "global_dim": MAX_LAYER_SIZE, "head_dim": MAX_LAYER_SIZE,
                      "attention_layers": MAX_ATTENTION_LAYERS}
LR_SCHEDULES = ("constant", "linear")
#: Options taken out after they measured no gain (docs/training.md, "Experiments that measured no gain") -> the
#: value that meant "off": a config holding that value still loads, any other value is refused by name.
REMOVED_OPTIONS = {"ent_coef_late": None, "ent_late_at": 0.65, "reward_shaping": 0.0}
#: Removed options of ``policy: slot`` (``attention_layers`` remains an option of backend rllib's slot module).
REMOVED_SLOT_OPTIONS = {"attention_layers": 0, "bfloat16": False}
DEVICE_PATTERN = re.compile(r"(cpu|auto|mps|cuda(:\d+)?)")


def _check_counts(config: TrainConfig) -> None:
    check_fields(config, "train config")  # the bounds declared with whole() and number()
    if config.eval_every < 0:
        raise ValueError(f"train config: eval_every must be 0 or more, got {config.eval_every!r}")


def _check_hyperparameters(config: TrainConfig) -> None:
    if config.lr_schedule not in LR_SCHEDULES:
        raise ValueError(f"train config: lr_schedule must be one of {LR_SCHEDULES}, got {config.lr_schedule!r}")


def _check_game(config: TrainConfig) -> None:
    from ..agent_api import available_agents

    if config.mode not in ("duel", "draft"):
        raise ValueError(f"train config: mode must be 'duel' or 'draft', got {config.mode!r}")
    if config.mode == "draft" and (config.policy != "mlp" or config.opponent == "league"):
        raise ValueError("train config: mode 'draft' trains policy 'mlp' against a named opponent (no league)")
    if config.opponent_draft not in (*available_agents(), "random"):
        raise ValueError(f"train config: opponent_draft must be one of {available_agents()}, "
                         f"got {config.opponent_draft!r}")
    for key in ("card_features", "card_ids"):
        if not isinstance(getattr(config, key), bool):
            raise ValueError(f"train config: {key} must be true or false, got {getattr(config, key)!r}")
    if config.seat not in ("random", 0, 1) or isinstance(config.seat, bool):
        raise ValueError(f"train config: seat must be 'random', 0 or 1, got {config.seat!r}")
    agents = available_agents()
    opponents = (*agents, "league", *(("self",) if config.backend == "rllib" else ()))
    if config.opponent not in opponents:
        raise ValueError(f"train config: opponent must be one of {', '.join(opponents)}, got {config.opponent!r}")
    if config.eval_opponent is not None and config.eval_opponent not in agents:
        raise ValueError(f"train config: eval_opponent must be one of {agents}, got {config.eval_opponent!r}")
    for spec in config.eval_opponents:
        eval_agent(spec, trust_model=config.trust_model)  # raises ValueError naming the agent or option at fault
    decks = config.decks
    if decks is not None and decks != "random" and (
            not isinstance(decks, list) or len(decks) != 2 or not all(isinstance(d, str) for d in decks)):
        raise ValueError(f"train config: decks must be two deck names or paths, 'random' or null, got {decks!r}")
    if config.init_model is not None and not Path(config.init_model).is_file():
        raise ValueError(f"train config: init_model: no model file at {config.init_model!r}")
    if config.imitation:  # both backends warm-start
        from .imitation import ImitationSettings

        if config.mode == "draft":
            raise ValueError("train config: imitation: a warm start is for mode duel")
        if config.init_model is not None:
            raise ValueError("train config: imitation and init_model are both set: the warm start would refit the "
                             "loaded model to the teacher; drop one (--set 'imitation={}' continues a model)")
        ImitationSettings.from_dict(config.imitation, "train config: imitation")
    if config.league or config.opponent == "league":
        from .league import LeagueSettings

        LeagueSettings.from_dict(config.league, "train config: league").check_backend(config.backend,
                                                                                      "train config: league")
    if config.backend == "rllib":
        _check_rllib(config)
    _check_model_trust(config)


#: The ``eval_opponents`` entry that stands for the run's best model so far.
BEST_SO_FAR = "best"


def eval_agent(spec: Any, where: str = "train config: eval_opponents", *,
               trust_model: bool = False) -> tuple[str, Any]:
    """An ``eval_opponents`` entry as (label, agent): a name, or ``{name: ..., option: value...}``; ``best`` gives
    (``"best"``, None): the trainer builds that opponent from the best model at each evaluation. ``where`` starts
    the error message of a bad entry. An entry's own ``trust`` may only narrow ``trust_model`` (the config's): a
    ``trust: true`` under ``trust_model: false`` is refused before anything is loaded."""
    from ..agent_api import available_agents, make_agent

    if spec == BEST_SO_FAR:
        return BEST_SO_FAR, None
    options = dict(spec) if isinstance(spec, dict) else {"name": spec}
    if options.get("trust", False) is not False and not trust_model:
        raise ValueError(f"{where}: {shown(spec)}: trust: an opponent cannot trust more than the config does "
                         f"(trust_model is false); set trust_model: true if you trust the file")
    name = options.pop("name", None)
    if not isinstance(name, str) or name not in available_agents():
        raise ValueError(f"{where}: {shown(spec)}: expected a registered agent ({', '.join(available_agents())}), a "
                         f"mapping with its name and options, such as {{name: search, iterations: 8}}, or "
                         f"{BEST_SO_FAR!r} (the run's best model so far)")
    try:
        agent = make_agent(name, **options)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {spec!r}: {error}") from None
    label = f"{name}({', '.join(f'{key}={value}' for key, value in options.items())})" if options else name
    return label, agent


BACKENDS = ("sb3", "rllib")


def _check_rllib(config: TrainConfig) -> None:
    """The settings of ``backend: rllib`` (checked without importing Ray) and the SB3-only ones it refuses."""
    from ..rllib.settings import RLlibSettings

    RLlibSettings.from_dict(config.rllib, "train config: rllib")
    unsupported = {"mode": (config.mode, "duel"), "init_model": (config.init_model, None),
                   "normalize_observations": (config.normalize_observations, True),
                   "card_features": (config.card_features, False), "card_ids": (config.card_ids, True),
                   "seat": (config.seat, "random")}
    if config.policy == "mlp":
        unsupported["rescale_inputs"] = (config.rescale_inputs, False)
    for key, (value, supported) in unsupported.items():
        if value != supported:
            raise ValueError(f"train config: {key}: backend rllib supports only {supported!r}, got {value!r}")
    for key in ("pairwise", "pooled_value"):  # the RLlib slot module always scores pairs and pools its value input
        if config.policy_kwargs.get(key, True) is not True:
            raise ValueError(f"train config: policy_kwargs: {key}: backend rllib's slot module supports only true, "
                             f"got {config.policy_kwargs[key]!r}")


def _check_model_trust(config: TrainConfig) -> None:
    """Refuse stable-baselines3 zips (unpickled when loaded) as init_model or checkpoints unless trusted."""
    from ccg_env.model_file import model_kind, untrusted_zip_message

    if not isinstance(config.trust_model, bool):
        raise ValueError(f"train config: trust_model must be true or false, got {config.trust_model!r}")
    paths = [("init_model", config.init_model)] if config.init_model else []
    paths += [("league: checkpoints", path) for path in config.league.get("checkpoints", ())]
    for key, path in paths:
        if not config.trust_model and model_kind(path) == "sb3-zip":
            raise ValueError(f"train config: {key}: {untrusted_zip_message(path)} (set trust_model: true)")


#: A run name: the run folder's name inside ``runs_dir`` (no path separators, not ``.`` or ``..``).
RUN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}")


def _check_name(config: TrainConfig) -> None:
    """The run name names one folder inside ``runs_dir``: never a path that leads out of it."""
    if config.name != "" and not (isinstance(config.name, str) and RUN_NAME.fullmatch(config.name)):
        raise ValueError(f"train config: name must be a folder name inside runs_dir (letters, digits, '_', '.', '+', "
                         f"'-'; up to 100, starting with a letter or digit), got {shown(config.name)}")


def _check_policy(config: TrainConfig) -> None:
    if not config.net_arch or len(config.net_arch) > MAX_LAYERS or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 < n <= MAX_LAYER_SIZE for n in config.net_arch):
        raise ValueError(f"train config: net_arch must be a list of 1 to {MAX_LAYERS} layer sizes from 1 to "
                         f"{MAX_LAYER_SIZE} (what a model file holds), got {shown(config.net_arch)}")
    hidden_bytes = 4 * sum(a * b for a, b in zip(config.net_arch, config.net_arch[1:]))  # a lower bound of the net
    if hidden_bytes > MAX_WEIGHTS_BYTES:
        raise ValueError(f"train config: net_arch {config.net_arch} needs {hidden_bytes / 1e6:,.0f} MB of weights "
                         f"between its hidden layers alone, more than the {MAX_WEIGHTS_BYTES / 1e6:,.0f} MB a model "
                         f"file holds")
    if config.policy not in POLICIES:
        raise ValueError(f"train config: policy must be one of {POLICIES}, got {config.policy!r}")
    removed = REMOVED_SLOT_OPTIONS if config.backend == "sb3" else {"bfloat16": False}
    config.policy_kwargs = without_removed(config.policy_kwargs, removed, "train config: policy_kwargs")
    allowed = SLOT_POLICY_KWARGS if config.policy == "slot" else {}
    if config.backend == "rllib" and config.policy == "slot":
        allowed = {**allowed, "attention_layers": int}
    for key, value in config.policy_kwargs.items():
        if key not in allowed:
            raise ValueError(f"train config: policy_kwargs: {key!r} is not an option of policy {config.policy!r}"
                             f" (options: {', '.join(allowed) or 'none'})")
        if allowed[key] is bool and not isinstance(value, bool):
            raise ValueError(f"train config: policy_kwargs: {key} must be true or false, got {value!r}")
        if allowed[key] is int and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"train config: policy_kwargs: {key} must be a positive integer, got {value!r}")
        if allowed[key] is int and value > SLOT_POLICY_MAXIMA[key]:
            raise ValueError(f"train config: policy_kwargs: {key} must be at most {SLOT_POLICY_MAXIMA[key]} (what a "
                             f"model file holds), got {value!r}")


def _check_runtime(config: TrainConfig) -> None:
    if config.backend not in BACKENDS:
        raise ValueError(f"train config: backend must be one of {BACKENDS}, got {config.backend!r}")
    if config.rllib and config.backend != "rllib":
        raise ValueError("train config: rllib: settings for backend rllib, but backend is "
                         f"{config.backend!r} (set backend: rllib or remove them)")
    if not DEVICE_PATTERN.fullmatch(str(config.device)):
        raise ValueError(f"train config: device must be 'cpu', 'auto', 'mps' or 'cuda[:N]', got {config.device!r}")
    if not (isinstance(config.progress, bool) or config.progress == "auto"):
        raise ValueError(f"train config: progress must be true, false or 'auto', got {config.progress!r}")
    if config.async_rollouts and config.backend != "sb3":
        raise ValueError("train config: async_rollouts: is for backend sb3 (RLlib has its own env runners); set it "
                         "to false")


def config_from_dict(values: dict[str, Any], source: str = "<dict>") -> TrainConfig:
    """Build a :class:`TrainConfig`, naming ``source`` and the key in every error."""
    if not isinstance(values, dict):
        raise ValueError(f"{source}: expected a mapping of settings, got {type(values).__name__}")
    values = without_removed(values, REMOVED_OPTIONS, source)
    check_keys(TrainConfig, values, source, key_word="key ", bounded=True)
    try:
        return TrainConfig(**values)
    except ValueError as error:
        raise ValueError(f"{source}: {error}") from None


def resolve_config_path(spec: str | Path) -> Path:
    """A YAML path as given, or a bare name such as ``smoke`` looked up in the packaged ``configs/train/``."""
    path = Path(spec)
    if path.exists() or path.suffix in (".yaml", ".yml"):
        return path
    from ..engine.datafiles import config_dir

    return config_dir() / "train" / f"{spec}.yaml"


def load_config(spec: str | Path, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Load ``configs/train/<name>.yaml`` (or any path), apply ``overrides``, validate; name defaults to the stem."""
    path = resolve_config_path(spec)
    if not path.is_file():
        raise FileNotFoundError(f"train config {str(spec)!r}: no such file ({path})")
    values = read_yaml(path) or {}  # the card files' limits: size, no anchors or aliases, bounded nesting
    if not isinstance(values, dict):
        raise ValueError(f"{path}: expected a mapping of settings, got {type(values).__name__}")
    values = {"name": path.stem, **values, **(overrides or {})}
    return config_from_dict(values, source=str(path))


def parse_overrides(pairs: Sequence[str]) -> dict[str, Any]:
    """``["key=value", ...]`` with YAML-parsed values (``n_steps=64``, ``net_arch=[64,64]``)."""
    overrides = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--set expects KEY=VALUE, got {pair!r}")
        try:
            overrides[key.strip()] = parse_yaml(value, f"--set {key.strip()}")
        except DataError as error:
            raise ValueError(str(error)) from None
    return overrides
