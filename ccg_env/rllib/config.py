"""``ppo_config(...)``: an RLlib ``PPOConfig`` for self-play on :class:`~ccg_env.rllib.env.CcgMultiAgentEnv`.

The defaults are the ones measured good on a 2-core machine (``docs/scaling.md``): sampling in the driver process
(``num_env_runners=0``) with 8 envs, the learner in the driver too (``num_learners=0``), one torch thread, a
rollout of 128 steps per env, minibatches of 512 and 4 epochs. On a cluster raise ``num_env_runners`` (one CPU
each, ``envs_per_runner`` games side by side in each), ``num_learners`` and ``num_gpus_per_learner``; the train
batch grows with the runners (``rollout_length * envs_per_runner * max(1, num_env_runners)``) unless
``train_batch_size`` fixes it. Every env runner is a :class:`~ccg_env.rllib.runner.CcgEnvRunner` (RLlib's
multi-agent runner with its step counts logged once per ``sample()`` call).

Modules: ``"main"`` (:class:`~ccg_env.rllib.modules.MaskedPPOTorchRLModule`, the one trained) plays both seats of
a self-play game; a :class:`~ccg_env.rllib.league.LeagueCallback` adds frozen snapshots and maps opponents to
them (``league_mapping``).
"""

from __future__ import annotations

from typing import Any, Sequence

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from .env import CcgMultiAgentEnv
from .modules import MaskedPPOTorchRLModule
from .runner import CcgEnvRunner

MAIN = "main"
#: The slot module's ``policy_kwargs`` (the SB3 backend's ``pairwise`` and ``pooled_value`` are fixed here).
SLOT_OPTIONS = ("slot_dim", "global_dim", "head_dim", "attention_layers")


def main_module_spec(hidden: Sequence[int] = (256, 256), head: Sequence[int] = (),
                     share_encoder: bool = True) -> RLModuleSpec:
    """The trained module: masked PPO with an MLP encoder of ``hidden`` layers (and ``head`` layers per head).

    ``share_encoder``: one encoder feeds both the policy and the value head (RLlib's ``vf_share_layers``), which
    halves the cost of the first layer over the wide observation; False gives each head its own encoder.
    """
    return RLModuleSpec(module_class=MaskedPPOTorchRLModule,
                        model_config={"fcnet_hiddens": list(hidden), "fcnet_activation": "tanh",
                                      "head_fcnet_hiddens": list(head), "vf_share_layers": share_encoder})


def slot_module_spec(env_config: dict[str, Any] | None = None, options: dict[str, Any] | None = None,
                     value_hiddens: Sequence[int] = (256, 256), rescale_inputs: bool = True) -> RLModuleSpec:
    """The trained module as the slot policy (:class:`~ccg_env.rllib.slot_module.SlotPPOTorchRLModule`).

    ``options``: ``slot_dim``, ``global_dim``, ``head_dim``, ``attention_layers``; the observation's layout comes
    from the env ``env_config`` builds (its rules and cards).
    """
    from .slot_module import SlotPPOTorchRLModule, slot_model_config

    unknown = sorted(set(options or {}) - set(SLOT_OPTIONS))
    if unknown:
        raise ValueError(f"slot module: unknown options {unknown}; known: {', '.join(SLOT_OPTIONS)}")
    core = CcgMultiAgentEnv({key: value for key, value in (env_config or {}).items()
                             if key in ("rules", "cards", "decks", "turn_limit")}).core
    return RLModuleSpec(module_class=SlotPPOTorchRLModule,
                        model_config=slot_model_config(core, options, value_hiddens, rescale_inputs))


def self_play_mapping(agent_id: Any, episode: Any, **kwargs: Any) -> str:
    """Both agents of a self-play game (and the learner facing a scripted agent) are the main module."""
    return MAIN


def ppo_config(*, env_config: dict[str, Any] | None = None, num_env_runners: int = 0, envs_per_runner: int = 8,
               num_learners: int = 0, num_gpus_per_learner: float = 0, num_cpus_per_env_runner: float = 1,
               runner_resources: dict[str, float] | None = None, rollout_length: int = 128,
               train_batch_size: int | None = None, minibatch_size: int = 512, num_epochs: int = 4,
               lr: float = 3e-4, lr_end_step: int | None = None, gamma: float = 0.99, lambda_: float = 0.95,
               clip_param: float = 0.2,
               entropy_coeff: float = 0.01,
               vf_loss_coeff: float = 0.5, grad_clip: float = 0.5,
               use_kl_loss: bool = False,
               hidden: Sequence[int] = (256, 256), share_encoder: bool = True, module: str = "mlp",
               slot_options: dict[str, Any] | None = None, rescale_inputs: bool = True, seed: int | None = 0,
               torch_threads: int = 1, league: Any = None, callbacks: Any = None) -> PPOConfig:
    """A ``PPOConfig`` over :class:`CcgMultiAgentEnv` with the masked module ``"main"`` (see the module docs).

    Args:
        env_config: :class:`CcgMultiAgentEnv` options (rules, cards, decks, opponents...).
        num_env_runners: sampling actors (0: sample in the driver process, best on small machines).
        envs_per_runner: games each runner steps side by side (8-16 is good).
        num_learners: learner actors (0: learn in the driver); ``num_gpus_per_learner`` GPUs each.
        num_cpus_per_env_runner: CPUs Ray reserves per runner.
        runner_resources: custom Ray resources each runner needs (to place runners on chosen nodes).
        rollout_length: env steps per env per sample round (``rollout_fragment_length``).
        train_batch_size: env steps per training iteration (default: ``rollout_length * envs_per_runner *
            max(1, num_env_runners)``).
        minibatch_size, num_epochs, lr, gamma, lambda_, clip_param, entropy_coeff, vf_loss_coeff, grad_clip:
            PPO's settings.
        lr_end_step: the learning rate falls linearly from ``lr`` to 0 at this many env steps (as the SB3
            backend's ``lr_schedule: linear`` over the run); None keeps it constant.
        use_kl_loss: RLlib's adaptive KL penalty on top of the clipped objective (off by default, as in SB3's
            PPO, which the shipped configs were tuned with).
        hidden: the encoder's hidden layer sizes (the slot module: its value network's).
        share_encoder: one encoder for the policy and value heads (False: one each; the MLP module only).
        module: ``"mlp"`` (:func:`main_module_spec`) or ``"slot"`` (:func:`slot_module_spec`).
        slot_options, rescale_inputs: the slot module's sizes and input gain (:func:`slot_module_spec`).
        seed: seeds RLlib (envs, modules, sampling); None leaves it unseeded.
        torch_threads: torch threads of the driver's learner and of each runner (1: steady on shared cores).
        league: :class:`~ccg_env.training.league.LeagueSettings` (or a mapping of them): train against a league of
            snapshots and scripted agents (the env's ``opponents`` are then set by the league).
        callbacks: an ``RLlibCallback`` class (with ``league``, it must subclass the league's callback).
    """
    _check_counts(num_env_runners=num_env_runners, envs_per_runner=envs_per_runner, num_learners=num_learners,
                  rollout_length=rollout_length, minibatch_size=minibatch_size, num_epochs=num_epochs,
                  torch_threads=torch_threads)
    if module not in ("mlp", "slot"):
        raise ValueError(f"ppo_config: module must be 'mlp' or 'slot', got {module!r}")
    if lr_end_step is not None:
        _check_counts(lr_end_step=lr_end_step)
    rate: Any = lr if lr_end_step is None else [[0, lr], [lr_end_step, 0.0]]
    spec = (slot_module_spec(env_config, slot_options, hidden, rescale_inputs) if module == "slot"
            else main_module_spec(hidden, share_encoder=share_encoder))
    batch = train_batch_size or rollout_length * envs_per_runner * max(1, num_env_runners)
    mapping: Any = self_play_mapping
    if league is not None:
        from ..training.league import League, LeagueSettings
        from .league import LeagueCallback, LeagueMapping, split_weights

        settings = league if isinstance(league, LeagueSettings) else LeagueSettings.from_dict(dict(league))
        settings.check_backend("rllib")
        env_weights, module_weights = split_weights(League(settings).chances())
        env_config = {**(env_config or {}), "opponents": env_weights}
        mapping = LeagueMapping(module_weights)
        callbacks = callbacks or LeagueCallback.with_settings(settings)
    config = (
        PPOConfig()
        .environment(CcgMultiAgentEnv, env_config=dict(env_config or {}))
        .framework("torch", torch_compile_learner=False)
        .env_runners(env_runner_cls=CcgEnvRunner, num_env_runners=num_env_runners,
                     num_envs_per_env_runner=envs_per_runner,
                     num_cpus_per_env_runner=num_cpus_per_env_runner, rollout_fragment_length=rollout_length,
                     custom_resources_per_env_runner=dict(runner_resources or {}))
        .learners(num_learners=num_learners, num_gpus_per_learner=num_gpus_per_learner)
        .multi_agent(policies={MAIN}, policy_mapping_fn=mapping, policies_to_train=[MAIN])
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={MAIN: spec}))
        .training(train_batch_size_per_learner=batch // max(1, num_learners), minibatch_size=minibatch_size,
                  num_epochs=num_epochs, lr=rate, gamma=gamma, lambda_=lambda_, clip_param=clip_param,
                  entropy_coeff=entropy_coeff, vf_loss_coeff=vf_loss_coeff, grad_clip=grad_clip,
                  use_kl_loss=use_kl_loss)
        .python_environment(extra_python_environs_for_worker={"OMP_NUM_THREADS": str(torch_threads)})
        .debugging(seed=seed)
    )
    import torch

    torch.set_num_threads(torch_threads)  # the driver's sampling and learning; actors read OMP_NUM_THREADS
    if callbacks is not None:
        config.callbacks(callbacks)
    return config


def _check_counts(**counts: int) -> None:
    for name, value in counts.items():
        minimum = 0 if name in ("num_env_runners", "num_learners") else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise ValueError(f"ppo_config: {name} must be a whole number >= {minimum}, got {value!r}")


__all__ = ["MAIN", "main_module_spec", "ppo_config", "self_play_mapping"]
