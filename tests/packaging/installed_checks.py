"""Checks run by the Python of a virtualenv that has only an installed ccg-env wheel (and its base dependencies), from
a folder outside the source tree: tests/packaging/wheel_smoke.py copies this file there and runs it.

It checks that ``ccg_env`` is imported from the virtualenv, with the engine build the wheel promises (compiled or
pure Python), that no other top-level package came with it, and that the installed package plays: a Gymnasium
``make`` of each registered environment id with a game played to its end, and PettingZoo's ``api_test``.
Usage: ``python installed_checks.py compiled|pure``; prints one line per check, exits non-zero on the first failure.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import sys
from pathlib import Path


def check(condition: bool, what: str) -> None:
    """Print ``what`` when it holds; else stop with it as the error."""
    if not condition:
        sys.exit(f"installed-package check failed: {what}")
    print(f"ok: {what}")


def check_install(expected_build: str) -> None:
    import ccg_env
    from ccg_env.engine import COMPILED, ENGINE_BUILD

    where = Path(ccg_env.__file__).resolve()
    check(where.is_relative_to(Path(sys.prefix).resolve()), f"ccg_env is imported from the virtualenv ({where})")
    check(ccg_env.__version__ == importlib.metadata.version("ccg-env"),
          f"ccg_env.__version__ {ccg_env.__version__} is the installed distribution's version")
    check(COMPILED == (expected_build == "compiled"), f"the engine build is {expected_build}: {ENGINE_BUILD}")
    check(importlib.util.find_spec("agents") is None, "no top-level 'agents' package is installed")
    check(importlib.util.find_spec("ccg_env.agents.heuristic") is not None, "the agents are ccg_env.agents")


def play_gymnasium() -> None:
    import gymnasium
    import numpy as np

    from ccg_env.env import registration

    ids = sorted(env_id for env_id in gymnasium.registry if env_id.startswith("ccg_env/"))
    check(registration.ENV_ID in ids, f"importing gymnasium registers {registration.ENV_ID} (registered: {ids})")
    for env_id in ids:
        env = gymnasium.make(env_id)
        observation, _ = env.reset(seed=0)
        rng, steps, done = np.random.default_rng(0), 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
            observation, _, terminated, truncated, info = env.step(action)
            done, steps = terminated or truncated, steps + 1
        check(env.observation_space.contains(observation), f"gymnasium.make({env_id!r}) played a game to its end "
                                                           f"({steps} steps, {info.get('outcome')})")
        env.close()


def run_api_test() -> None:
    import ccg_env
    from pettingzoo.test import api_test

    api_test(ccg_env.env(seed=0), num_cycles=100)
    check(True, "pettingzoo.test.api_test(ccg_env.env(seed=0)) passed")


def main() -> None:
    if sys.argv[1:] not in (["compiled"], ["pure"]):
        sys.exit("usage: python installed_checks.py compiled|pure")
    check_install(sys.argv[1])
    play_gymnasium()
    run_api_test()


if __name__ == "__main__":
    main()
