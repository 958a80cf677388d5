"""Where an RLlib env runner's sampling time goes: one runner's env steps/s beside the env it steps, and a profile.

One env runner of ``ppo_config``'s class (``CcgEnvRunner``) built in this process (self-play, the shipped slot
module, ``--envs`` games side by side) samples ``--steps`` env steps per repeat; beside it, the same
``CcgMultiAgentEnv`` alone steps random legal moves (the env's own cost, no RLlib); with ``--compare``, RLlib's own
``MultiAgentEnvRunner`` on the same config samples too, interleaved with the others. Each rate is given per second
of wall time and per second of this process's CPU time (the steadier figure on a loaded machine). ``--profile``
splits the runner's time (own time per function, cProfile) into RLlib's connectors, its episode and metrics
bookkeeping, the module's forward pass (torch), the env (``ccg_env``, the game included), deep copies, built-in C
calls and the rest. Needs the ``rllib`` extra: run it with ``.venv-rllib/bin/python`` (elsewhere it says so and
exits 0)."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time

#: Profile categories: the first whose path fragment occurs in a function's file name takes its own time.
CATEGORIES = (
    ("built-in calls (C: numpy, torch ops...)", "~"), ("deep copies (copy.py)", "/copy.py"),
    ("RLlib connectors", "rllib/connectors/"), ("RLlib episodes and metrics", "rllib/env/"),
    ("RLlib episodes and metrics", "rllib/utils/metrics"), ("module forward (torch)", "torch/"),
    ("module forward (torch)", "ccg_env/rllib/slot_module"), ("module forward (torch)", "ccg_env/rllib/modules"),
    ("module forward (torch)", "ccg_env/training/slot_networks"), ("env and game (ccg_env)", "ccg_env/"),
    ("env and game (ccg_env)", "ccg_env/agents/"), ("other RLlib", "ray/rllib/"), ("numpy, tree, gymnasium", "numpy/"),
    ("numpy, tree, gymnasium", "tree/"), ("numpy, tree, gymnasium", "gymnasium/"))


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def env_alone(envs: int, steps: int, seed: int) -> tuple[float, float]:
    """Env steps per wall and per CPU second of ``envs`` self-play games stepped in turn with random legal moves."""
    import numpy as np

    from ccg_env.rllib.env import CcgMultiAgentEnv

    rng = np.random.default_rng(seed)
    games = [CcgMultiAgentEnv({"seed": seed + index, "decks": "random"}) for index in range(envs)]
    observations = [env.reset(seed=seed + index)[0] for index, env in enumerate(games)]
    started, used, done = time.perf_counter(), time.process_time(), 0
    while done < steps:
        for index, env in enumerate(games):
            (agent, seen), = observations[index].items()
            action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
            observations[index], _, terminateds, _, _ = env.step({agent: action})
            if terminateds["__all__"]:
                observations[index] = env.reset()[0]
            done += 1
    return done / (time.perf_counter() - started), done / (time.process_time() - used)


def make_runner(envs: int, seed: int, stock: bool = False):
    """A local env runner of the shipped config (its runner class, or RLlib's own with ``stock``), ``envs`` games."""
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

    from ccg_env.rllib.config import ppo_config

    config = ppo_config(env_config={"decks": "random", "seed": seed}, envs_per_runner=envs, rollout_length=128,
                        module="slot", slot_options={"slot_dim": 48, "global_dim": 128, "head_dim": 32}, seed=seed)
    runner = (MultiAgentEnvRunner if stock else config.env_runner_cls)(config=config)
    runner.sample(num_timesteps=envs * 8, random_actions=False)  # warm-up: first forward passes, resets
    return runner


def runner_rate(runner, steps: int) -> tuple[float, float]:
    """Env steps per wall and per CPU second of one ``sample`` call of ``steps`` env steps."""
    started, used = time.perf_counter(), time.process_time()
    episodes = runner.sample(num_timesteps=steps, random_actions=False)
    sampled = sum(episode.env_steps() for episode in episodes)
    return sampled / (time.perf_counter() - started), sampled / (time.process_time() - used)


def medians(rates: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(wall for wall, _ in rates), statistics.median(cpu for _, cpu in rates)


def profile_split(runner, steps: int) -> list[tuple[str, float]]:
    """Shares of the runner's own time per category (see CATEGORIES), largest first."""
    profiler = cProfile.Profile()
    profiler.enable()
    runner.sample(num_timesteps=steps, random_actions=False)
    profiler.disable()
    totals: dict[str, float] = {}
    for (filename, _, _), (_, _, own, _, _) in pstats.Stats(profiler).stats.items():
        path = filename.replace("\\", "/")
        name = next((label for label, fragment in CATEGORIES
                     if (path == fragment if fragment == "~" else fragment in path)), "other")
        totals[name] = totals.get(name, 0.0) + own
    whole = sum(totals.values()) or 1.0
    return sorted(((name, value / whole) for name, value in totals.items()), key=lambda item: -item[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=positive, default=8192, help="env steps per repeat (default 8192)")
    parser.add_argument("--envs", type=positive, default=32, help="games side by side in the runner (default 32)")
    parser.add_argument("--repeats", type=positive, default=3, help="repeats; medians are printed (default 3)")
    parser.add_argument("--compare", action="store_true", help="also sample with RLlib's own MultiAgentEnvRunner")
    parser.add_argument("--profile", action="store_true", help="split one more sample's time by component")
    args = parser.parse_args(argv)
    try:
        import ray.rllib  # noqa: F401
    except ImportError:
        print("rllib_runner.py needs Ray RLlib (the 'rllib' extra): run it with .venv-rllib/bin/python; skipped")
        return 0
    import torch

    from ccg_env.engine import ENGINE_BUILD

    torch.set_num_threads(1)
    print(f"engine build: {ENGINE_BUILD}; {args.envs} games side by side, {args.steps} env steps per repeat")
    runner = make_runner(args.envs, seed=0)
    stock = make_runner(args.envs, seed=0, stock=True) if args.compare else None
    alone, sampled, stock_sampled = [], [], []
    for repeat in range(args.repeats):  # interleaved, so that all see the same machine
        alone.append(env_alone(args.envs, args.steps, seed=repeat))
        sampled.append(runner_rate(runner, args.steps))
        if stock is not None:
            stock_sampled.append(runner_rate(stock, args.steps))
    (env_rate, env_cpu), (runner_speed, runner_cpu) = medians(alone), medians(sampled)
    print("(medians; env steps per wall second, and per CPU second of this process)")
    print(f"env alone, random legal moves:        {env_rate:10,.0f} env steps/s {env_cpu:10,.0f} per CPU s")
    print(f"one env runner, slot module sampling: {runner_speed:10,.0f} env steps/s {runner_cpu:10,.0f} per CPU s")
    if stock is not None:
        stock_speed, stock_cpu = medians(stock_sampled)
        print(f"RLlib's MultiAgentEnvRunner:          {stock_speed:10,.0f} env steps/s {stock_cpu:10,.0f} per CPU s")
        ratio, cpu_ratio = runner_speed / stock_speed, runner_cpu / stock_cpu
        print(f"runner / RLlib's runner:              {ratio:10.2f} {cpu_ratio:21.2f}")
        stock.stop()
    print(f"runner / env alone:                   {runner_speed / env_rate:10.2f} {runner_cpu / env_cpu:21.2f}")
    if args.profile:
        print("runner's own time by component (cProfile):")
        for name, share in profile_split(runner, args.steps):
            print(f"  {name:<40} {share:6.1%}")
    runner.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
