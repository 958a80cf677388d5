"""Benchmark: end-to-end MaskablePPO env-steps/s on the batched env, and the env's share of training time.

In one run, alternately: the MaskablePPO model of a training config (``--config``, default
``configs/train/ppo_vs_random.yaml``: its policy, network and PPO hyperparameters, built by
``ccg_env.training.train.make_model``) learns for ``--timesteps`` steps on the real batched env (``CcgDuelSb3VecEnv``
against the config's opponent) and on a no-op ``VecEnv`` with identical spaces (constant observations, a fixed
mask, games of a fixed length), with ``torch.set_num_threads(1)``. The env's share of training time is reported
two ways: measured directly (time inside the real env's ``reset``/``step``/``action_masks``, over the run's
total) and as the difference ``(t_real - t_noop) / t_real``. Medians over ``--repeats``.

``--profile`` adds where the real run's time goes: the env (inside its methods), the policy's forward passes
while collecting rollouts (collection time minus the env's), the PPO update, and the rest; then one minibatch of
the update taken apart, forward and backward of each part on its own (inputs detached): the features extractor,
the value network, the action head and the masked distribution (log-probabilities and entropy), beside the whole
step (forward, loss, backward, optimizer) they add up to. Medians over ``--repeats`` (and 5 timings per part).

With ``async_rollouts: true`` (the default config's setting) the env and the rollouts' forward passes run in the
worker process, which builds its own env from the config: the no-op comparison and the env's share are then not
measured, and the profile splits the learner's time into waiting for the worker's rollout, the PPO update and the
rest.

``--against KEY=VALUE`` (repeatable) measures a variant of the config beside it instead: both learn ``--timesteps``
steps in every repeat, in alternating order, and the median of the per-repeat speed ratios is reported.

Run: ``python benchmarks/train_throughput.py [--timesteps 16384] [--repeats 3] [--config ppo_vs_random] [--profile]
[--set KEY=VALUE ...] [--against KEY=VALUE ...]``
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import VecEnv

from ccg_env.cli import positive_int
from ccg_env.env.sb3_vec import CcgDuelSb3VecEnv
from ccg_env.training.train import TrainConfig, load_config, make_model, make_vec_env, parse_overrides


class TimedEnv:
    """Mixin that adds the wall time spent inside the env's own methods to ``env_seconds``."""

    env_seconds = 0.0

    def _timed(self, method: Any, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            self.env_seconds += time.perf_counter() - start


class TimedDuelVecEnv(TimedEnv, CcgDuelSb3VecEnv):
    """The real batched env, timed."""

    def reset(self) -> np.ndarray:
        return self._timed(super().reset)

    def step_wait(self) -> Any:
        return self._timed(super().step_wait)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> Any:
        return self._timed(super().env_method, method_name, *args, indices=indices, **kwargs)


class NoOpVecEnv(VecEnv):
    """Same spaces as the duel env, no game: constant observation, fixed mask, an episode every ``length`` steps."""

    def __init__(self, like: CcgDuelSb3VecEnv, length: int = 40) -> None:
        self.render_mode = None
        super().__init__(like.num_envs, like.observation_space, like.action_space)
        like.seed(0)
        self._observations = like.reset()
        self._masks = like.action_masks().copy()
        self._length, self._t = length, 0
        self.batch = like.batch  # make_model reads the observation layout from it

    def reset(self) -> np.ndarray:
        return self._observations.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._t += 1

    def step_wait(self) -> Any:
        done = self._t % self._length == 0
        dones = np.full(self.num_envs, done)
        rewards = np.where(dones, 1.0, 0.0).astype(np.float32)
        infos = [{} for _ in range(self.num_envs)]
        if done:
            for info in infos:
                info.update(terminal_observation=self._observations[0].copy(), episode={"r": 1.0, "l": self._length})
        return self._observations.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        return self._masks

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> Any:
        return self._masks

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * self.num_envs

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(attr_name)

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * self.num_envs

    def close(self) -> None:
        pass


class PhaseClock:
    """Wall seconds of a model's rollout collection and PPO updates, by wrapping the model's two methods."""

    def __init__(self, model: MaskablePPO) -> None:
        self.collect = self.update = 0.0
        collect, update = model.collect_rollouts, model.train

        def timed_collect(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return collect(*args, **kwargs)
            finally:
                self.collect += time.perf_counter() - start

        def timed_update() -> None:
            start = time.perf_counter()
            update()
            self.update += time.perf_counter() - start

        model.collect_rollouts, model.train = timed_collect, timed_update  # type: ignore[method-assign]


def learn_seconds(env: VecEnv, config: TrainConfig, timesteps: int) -> tuple[float, MaskablePPO, PhaseClock]:
    model: MaskablePPO = make_model(dataclasses.replace(config, verbose=0, device="cpu"), env)
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's default logger makes a /tmp folder per run
    clock = PhaseClock(model)
    start = time.perf_counter()
    model.learn(timesteps)
    return time.perf_counter() - start, model, clock


def _median_ms(run: Any, times: int = 5) -> float:
    """Median wall milliseconds of ``run()`` over ``times`` calls, after one warm-up call."""
    run()
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return 1000 * statistics.median(samples)


def minibatch_parts_ms(model: MaskablePPO) -> dict[str, float]:
    """Forward plus backward milliseconds of each part of the policy on one minibatch of the last rollout."""
    policy = model.policy
    batch = next(model.rollout_buffer.get(model.batch_size))
    obs, actions, masks = batch.observations, batch.actions.long().flatten(), batch.action_masks
    with torch.no_grad():
        features = policy.extract_features(obs)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
    # Each part's output is weighted at random before summing, so that its backward pass gets a dense gradient as
    # in the loss: a plain .sum() gives a broadcast one, which sends torch's batched products down a path that runs
    # sample by sample (it made the pair head look 1.4x as slow as it is).
    generator = torch.Generator().manual_seed(0)
    feature_weights = torch.randn(features.shape, generator=generator)
    value_weights = torch.randn(len(features), 1, generator=generator)
    logit_weights = torch.randn(logits.shape, generator=generator)

    def extractor() -> None:
        out = policy.extract_features(obs)
        if out.requires_grad:  # SB3's plain flatten has no weights: its forward pass is all there is
            (out * feature_weights).sum().backward()

    def value() -> None:
        latent = policy.mlp_extractor.forward_critic(features.clone().requires_grad_())
        (policy.value_net(latent) * value_weights).sum().backward()

    def head() -> None:
        latent = policy.mlp_extractor.forward_actor(features.clone().requires_grad_())
        (policy.action_net(latent) * logit_weights).sum().backward()

    def distribution() -> None:
        dist = policy.action_dist.proba_distribution(action_logits=logits.clone().requires_grad_())
        dist.apply_masking(masks)
        (dist.log_prob(actions).sum() + dist.entropy().sum()).backward()

    def whole_step() -> None:
        values, log_prob, entropy = policy.evaluate_actions(obs, actions, action_masks=masks)
        loss = -(log_prob * batch.advantages).mean() + ((values.flatten() - batch.returns) ** 2).mean()
        loss = loss - 0.01 * entropy.mean()
        policy.optimizer.zero_grad()
        loss.backward()
        policy.optimizer.step()

    parts = {"features extractor": extractor, "value network": value, "action head": head,
             "masked distribution": distribution, "whole step (forward, loss, backward, Adam)": whole_step}
    return {name: _median_ms(run) for name, run in parts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=positive_int, default=16_384, help="MaskablePPO env-steps per repeat")
    parser.add_argument("--repeats", type=positive_int, default=3, help="repeats; the median is reported")
    parser.add_argument("--config", default="ppo_vs_random", help="training config (name in configs/train or path)")
    parser.add_argument("--profile", action="store_true", help="also show where the real run's time goes")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a key of the config (repeatable), as ccg-env train --set")
    parser.add_argument("--against", action="append", default=[], metavar="KEY=VALUE",
                        help="also measure the config with these overrides (repeatable), interleaved with it in "
                             "every repeat, and report the ratio of the two")
    args = parser.parse_args()
    torch.set_num_threads(1)
    try:
        overrides = parse_overrides(args.overrides)
        config = load_config(args.config, overrides)
        variant = load_config(args.config, {**overrides, **parse_overrides(args.against)}) if args.against else None
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))
    if config.opponent == "league":
        parser.error(f"--config {args.config}: league self-play is not measured here; "
                     "pick a config with a fixed opponent")
    rollout = config.n_steps * config.num_envs
    if args.timesteps < rollout:
        parser.error(f"--timesteps {args.timesteps}: need at least one rollout of "
                     f"{rollout} steps ({config.num_envs} envs x n_steps {config.n_steps})")
    if variant is not None:
        return compare(config, variant, args)
    print(f"config {args.config}: policy {config.policy}, opponent {config.opponent}, num_envs={config.num_envs}, "
          f"n_steps={config.n_steps}, batch={config.batch_size}, epochs={config.n_epochs}, net={config.net_arch}; "
          f"{args.timesteps} steps ({args.timesteps // rollout} rollouts of {rollout}) x {args.repeats}, "
          "torch threads 1")
    real_rates, noop_rates, direct, difference = [], [], [], []
    phases: dict[str, list[float]] = {}
    parts: dict[str, list[float]] = {}
    for _ in range(args.repeats):
        real = make_timed_env(config)
        real_seconds, model, clock = learn_seconds(real, config, args.timesteps)
        real_rates.append(args.timesteps / real_seconds)
        if args.profile:
            if config.async_rollouts:
                shares = {"waiting for the worker's rollout": clock.collect, "PPO update": clock.update}
            else:
                shares = {"env (inside its methods)": real.env_seconds,
                          "policy while collecting rollouts": clock.collect - real.env_seconds,
                          "PPO update": clock.update}
            shares["the rest (callbacks, logging, setup)"] = real_seconds - clock.collect - clock.update
            for name, seconds in shares.items():
                phases.setdefault(name, []).append(seconds / real_seconds)
            for name, ms in minibatch_parts_ms(model).items():
                parts.setdefault(name, []).append(ms)
        if config.async_rollouts:  # the worker plays its own env: a no-op env here would change nothing
            continue
        noop_seconds = learn_seconds(NoOpVecEnv(make_vec_env(config, config.num_envs, "random")), config,
                                     args.timesteps)[0]
        noop_rates.append(args.timesteps / noop_seconds)
        direct.append(real.env_seconds / real_seconds)
        difference.append((real_seconds - noop_seconds) / real_seconds)
    print(f"MaskablePPO on the batched env : {statistics.median(real_rates):>8,.0f} env-steps/s"
          + (" (rollouts played by the async_rollouts worker)" if config.async_rollouts else ""))
    if noop_rates:
        print(f"MaskablePPO on the no-op env   : {statistics.median(noop_rates):>8,.0f} env-steps/s")
        print(f"env share of training time     : {statistics.median(direct):>8.1%} measured inside the env, "
              f"{statistics.median(difference):.1%} from (t_real - t_noop) / t_real")
    if args.profile:
        steps_per_update = rollout * config.n_epochs
        print("\nwhere the real run's time goes (median share of its wall time):")
        for name, values in phases.items():
            print(f"  {name:<42} {statistics.median(values):>7.1%}")
        print(f"\none minibatch of {config.batch_size} samples, forward + backward of each part alone "
              f"(median ms; the update runs {steps_per_update // config.batch_size} minibatches per rollout of "
              f"{rollout} env steps):")
        for name, values in parts.items():
            print(f"  {name:<42} {statistics.median(values):>7.1f} ms")


def compare(base: TrainConfig, variant: TrainConfig, args: argparse.Namespace) -> None:
    """``--against``: end-to-end env-steps/s of ``base`` and ``variant``, alternated (ABAB...), medians and ratio."""
    print(f"config {args.config} (A) against A with {' '.join(args.against)} (B): {args.timesteps} steps x "
          f"{args.repeats}, alternated, torch threads 1")
    rates: dict[str, list[float]] = {"A": [], "B": []}
    for repeat in range(args.repeats):
        for name, config in (("A", base), ("B", variant)) if repeat % 2 == 0 else (("B", variant), ("A", base)):
            rates[name].append(args.timesteps / learn_seconds(make_timed_env(config), config, args.timesteps)[0])
    ratios = [b / a for a, b in zip(rates["A"], rates["B"])]
    for name in ("A", "B"):
        print(f"{name}: {statistics.median(rates[name]):>8,.0f} env-steps/s (runs: "
              f"{', '.join(f'{r:,.0f}' for r in rates[name])})")
    print(f"B / A: {statistics.median(ratios):.2f} (median of the per-repeat ratios)")


def make_timed_env(config: TrainConfig) -> TimedDuelVecEnv:
    env = TimedDuelVecEnv(config.num_envs, opponent=config.opponent, seat=config.seat, decks=config.decks,
                          rules=config.rules, cards=config.cards, turn_limit=config.turn_limit,
                          normalize_observations=config.normalize_observations)
    env.seed(config.seed)
    return env


if __name__ == "__main__":
    main()
