"""MaskablePPO whose next rollout is played on a second process while the learner trains on the current one.

On one process, PPO alternates: the env plays a rollout (the policy choosing every move), then the learner
updates on it, and each waits for the other. With ``async_rollouts: true`` a worker process holds the training
env and a copy of the policy and plays rollout *k + 1* while the learner updates on rollout *k*, so the update
(about half of a step's cost) and the play (the other half) run on the two cores at once.

The price is one update of lag: rollout *k + 1* is played by the policy as it stood before the update on
rollout *k*. PPO stays correct about it, because the probability ratio it clips is taken against the policy that
played the samples (their recorded log-probabilities), not the learner's current one; the advantages use the
playing policy's values, as on one process. Only the first two rollouts are played by the same (initial) policy.

Everything the learner does between rollouts happens before the weights are sent (the kept imitation steps, the
entropy step), and evaluations run in the learner's process while the worker waits with its finished rollout.
A league (``opponent: league``) lives in the worker, where its games are played: the worker counts their results,
snapshots the policy it plays with, and sends each rollout's :class:`~ccg_env.training.sb3_league.LeagueReport` with
the rollout (the learner logs it from ``league_report``).
The worker's arrays reach the learner through shared memory: two rollout slots, one being written while the other
is read, so nothing is pickled per rollout but the policy's weights (a few MB) and the episodes' statistics.
"""

from __future__ import annotations

import dataclasses
import traceback
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from .sb3_league import LeagueKeeper, LeagueReport
    from .train_config import TrainConfig

#: The rollout arrays that MaskablePPO's update reads (``MaskableRolloutBuffer.get``), shipped per rollout.
ROLLOUT_ARRAYS = ("observations", "actions", "values", "log_probs", "advantages", "returns", "action_masks")
#: Seconds to wait for the worker to start (it imports torch and builds the env and policy).
START_TIMEOUT = 300.0


class RolloutWorkerError(RuntimeError):
    """The rollout worker process failed or stopped; the message carries its traceback or exit code."""


class AsyncRolloutPPO(MaskablePPO):
    """MaskablePPO playing its rollouts on a worker process, one update ahead of the learner (see the module).

    ``worker_config`` is the run's :class:`~ccg_env.training.train_config.TrainConfig`: the worker builds its own
    training env from it (``make_training_env``: the same opponent, decks and seed) and a policy of the
    same architecture, whose weights it takes from the learner before every rollout.
    """

    def __init__(self, *args: Any, worker_config: TrainConfig, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.worker_config = worker_config
        self._worker: _WorkerHandle | None = None
        self.league_report: LeagueReport | None = None
        """the league's report on the rollout taken last (None without a league)"""

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "worker_config", "_worker", "league_report"]

    def learn(self, *args: Any, **kwargs: Any) -> AsyncRolloutPPO:
        """MaskablePPO's ``learn``; the worker starts with the first rollout and stops when learning ends."""
        try:
            return super().learn(*args, **kwargs)
        finally:
            self.close_worker()

    def close_worker(self) -> None:
        """Stop the worker process (the rollout it may be playing is dropped)."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def collect_rollouts(self, env: Any, callback: Any, rollout_buffer: Any, n_rollout_steps: int,
                         use_masking: bool = True) -> bool:
        """Take the rollout the worker played (one update ago), send it today's weights for the next one."""
        if n_rollout_steps != self.n_steps or not use_masking:
            raise ValueError("AsyncRolloutPPO plays rollouts of n_steps with action masks only")
        callback.on_rollout_start()
        if self._worker is None:
            rollout_buffer.reset()  # arrays of the rollout's shape again, if an earlier learn() flattened them
            self._worker = _WorkerHandle(self.worker_config, rollout_buffer)
            self._worker.request(0, self.policy)
        slot, episodes, self.league_report = self._worker.receive()
        self._worker.request(1 - slot, self.policy)
        for name, array in self._worker.slots[slot].items():
            setattr(rollout_buffer, name, array)
        rollout_buffer.pos, rollout_buffer.full = rollout_buffer.buffer_size, True
        rollout_buffer.generator_ready = False  # get() flattens (copies) the slot's arrays before the update
        for _ in range(n_rollout_steps):  # the callbacks count steps as on one process
            self.num_timesteps += env.num_envs
            if not callback.on_step():
                return False
        self.ep_info_buffer.extend(episodes)
        callback.on_rollout_end()
        return True


class _WorkerHandle:
    """The learner's end of the worker: the process, its pipe and the two shared rollout slots."""

    def __init__(self, config: TrainConfig, like: Any) -> None:
        context = torch.multiprocessing.get_context("spawn")
        tensors = [{name: torch.from_numpy(np.zeros_like(getattr(like, name))).share_memory_()
                    for name in ROLLOUT_ARRAYS} for _ in range(2)]
        self.slots = [{name: tensor.numpy() for name, tensor in slot.items()} for slot in tensors]
        self._pipe, child = context.Pipe()
        self._process = context.Process(target=_work, args=(config, tensors, child), daemon=True,
                                        name="ccg-env rollout worker")
        self._process.start()
        child.close()
        if not self._pipe.poll(START_TIMEOUT):
            self.close()
            raise RolloutWorkerError(f"the rollout worker did not start within {START_TIMEOUT:.0f} s")
        self._check(self._next_message(), "ready")

    def request(self, slot: int, policy: Any) -> None:
        """Ask for the next rollout, played by ``policy``'s current weights, into ``slot``."""
        weights = {name: tensor.detach().cpu().numpy() for name, tensor in policy.state_dict().items()}
        try:
            self._pipe.send((slot, weights))
        except OSError as error:  # a broken pipe: the worker is gone
            raise self._died() from error

    def receive(self) -> tuple[int, list[dict[str, Any]], LeagueReport | None]:
        """Wait for the rollout asked for last: its slot, the statistics of the episodes that ended in it and the
        league's report (None without a league)."""
        return self._check(self._next_message(), "rollout")

    def _next_message(self) -> tuple[str, Any]:
        try:
            return self._pipe.recv()
        except (EOFError, OSError) as error:  # the worker is gone without a word (killed, crashed in native code)
            raise self._died() from error

    def _check(self, message: tuple[str, Any], expected: str) -> Any:
        kind, body = message
        if kind == "error":
            self.close()
            raise RolloutWorkerError(f"the rollout worker failed:\n{body}")
        if kind != expected:
            raise RolloutWorkerError(f"the rollout worker answered {kind!r} where {expected!r} was due")
        return body

    def _died(self) -> RolloutWorkerError:
        self._process.join(5)
        return RolloutWorkerError(f"the rollout worker stopped (exit code {self._process.exitcode})")

    def close(self) -> None:
        """Ask the worker to stop, and end it if it does not."""
        try:
            self._pipe.send(None)
        except OSError:  # already gone, or the pipe already closed
            pass
        self._process.join(10)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(5)
        self._pipe.close()


class _WorkerCallback:
    """The callback the worker's own ``collect_rollouts`` calls: it keeps the league, if there is one, after every
    step, and never stops a rollout."""

    def __init__(self, keeper: LeagueKeeper | None = None) -> None:
        self.keeper = keeper
        self._locals: dict[str, Any] = {}

    def on_rollout_start(self) -> None: ...

    def update_locals(self, locals_: dict[str, Any]) -> None:
        self._locals = locals_

    def on_step(self) -> bool:
        if self.keeper is not None:
            model = self._locals["self"]
            self.keeper.after_step(self._locals["dones"], self._locals["infos"], model.num_timesteps, model.policy)
        return True

    def on_rollout_end(self) -> None: ...


def _work(config: TrainConfig, slots: list[dict[str, torch.Tensor]], pipe: Connection) -> None:
    """The worker process: build the env and policy, then play one rollout per request until told to stop."""
    try:
        from .train import league_keeper, make_model, make_training_env

        torch.set_num_threads(config.torch_threads)
        env, pool = make_training_env(config)
        model = make_model(dataclasses.replace(config, async_rollouts=False), env)
        model._setup_learn(config.total_timesteps)  # resets the seeded env, as the learner's learn() would
        views = [{name: tensor.numpy() for name, tensor in slot.items()} for slot in slots]
        callback = _WorkerCallback(None if pool is None else league_keeper(pool, env))
        pipe.send(("ready", None))
        while (request := pipe.recv()) is not None:
            slot, weights = request
            model.policy.load_state_dict({name: torch.from_numpy(array) for name, array in weights.items()})
            model.ep_info_buffer.clear()
            model.collect_rollouts(env, callback, model.rollout_buffer, model.n_steps)
            for name, view in views[slot].items():
                np.copyto(view, getattr(model.rollout_buffer, name))
            report = None if pool is None else pool.take_report()
            pipe.send(("rollout", (slot, list(model.ep_info_buffer), report)))
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group; the learner saves the model
        pass
    except BaseException:  # noqa: BLE001 - every failure goes back to the learner, which raises it
        try:
            pipe.send(("error", traceback.format_exc()))
        except OSError:
            pass
