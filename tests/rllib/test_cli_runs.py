"""``ccg-env train --backend rllib`` through the command line: remote env runners, resuming a run, and a two-node
``ray start`` cluster with token authentication, joined with ``--address`` and through ``ray job submit``.

Each run is a shrunk ``rllib_selfplay`` (the warm start, the league, evaluations and checkpoints, on tiny batches)
in a process of its own, which starts (or joins) Ray as a user's would and stops it. One cluster serves the module;
the run without ``--address`` runs beside it, to show that it starts a Ray of its own.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ccg_env.rllib.policy_file import read_policy_file  # noqa: E402
from tests.rllib.ray_cluster import BIN, LocalCluster, cluster_env, new_token_file, short_temp_root  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: One run's limit: a private Ray's start, a tiny warm start, 2-4 iterations and their evaluations.
RUN_SECONDS = 420
#: ``rllib_selfplay`` shrunk: 2 games x 32 steps per runner and round, 2-game evaluations, small slot module.
SHRUNK = ["total_timesteps=256", "num_envs=2", "n_steps=32", "batch_size=64", "n_epochs=1", "eval_every=128",
          "eval_games=2", "eval_envs=2", "net_arch=[16]", "policy_kwargs={slot_dim: 8, global_dim: 16, head_dim: 8}",
          "imitation={teacher: heuristic, samples: 200, epochs: 1, batch_size: 64}",
          "league={snapshot_every: 1, max_snapshots: 2, self_play: 0.1, scripted: {heuristic: 0.5}, snapshots: 0.4}",
          "progress=false"]


def ccg_env_train(runs: Path, name: str, *settings: str, address: str | None = None,
                  env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run ``ccg-env train --backend rllib --config rllib_selfplay`` shrunk, into ``runs/name``."""
    command = [str(BIN / "ccg-env"), "train", "--backend", "rllib", "--config", "rllib_selfplay"]
    for setting in (*SHRUNK, f"runs_dir={runs}", f"name={name}", *settings):
        command += ["--set", setting]
    if address:
        command += ["--address", address]
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_SECONDS, env=env)
    assert done.returncode == 0, (f"ccg-env train failed ({done.returncode}):\n{done.stdout[-3000:]}\n"
                                  f"{done.stderr[-6000:]}")
    return done


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


@pytest.fixture(scope="module")
def two_nodes():
    """A head node with the dashboard (1 CPU) and a second node whose resource ``ccg_runner_node`` only it has."""
    root = short_temp_root()
    cluster = LocalCluster(root, cluster_env(root, new_token_file(root)))
    try:
        cluster.start_head(num_cpus=1, dashboard=True)
        cluster.add_node(num_cpus=2, resources={"ccg_runner_node": 2})
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def node_ids(two_nodes) -> dict[str, str]:
    """Node id of the head (``"head"``) and of the node with ``ccg_runner_node`` (``"runner"``), asked of Ray."""
    cluster = two_nodes
    script = ("import json, ray; ray.init(address=%r, log_to_driver=False); "
              "print(json.dumps([[n['NodeID'], 'ccg_runner_node' in n['Resources']] for n in ray.nodes() "
              "if n['Alive']])); ray.shutdown()" % cluster.address)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env=cluster.env)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return {("runner" if runner else "head"): node for node, runner in found}


def test_two_env_runners_through_the_cli_then_a_resume_that_keeps_the_history(two_nodes, node_ids, tmp_path):
    """Without ``--address`` the run starts a Ray of its own, although a cluster runs on this machine (``ray start``
    wrote its address where ``ray.init()`` would look, and the token is the cluster's)."""
    run = tmp_path / "duo"
    ccg_env_train(tmp_path, "duo", "rllib={num_env_runners: 2, num_learners: 0}", env=two_nodes.env)
    runners = json.loads((run / "runners.json").read_text())
    assert [runner["runner"] for runner in runners] == [1, 2], "the samples did not come from two env runners"
    assert not {runner["node_id"] for runner in runners} & set(node_ids.values()), "the run joined the cluster"
    first_eval, first_progress = rows(run / "eval.csv"), rows(run / "progress.csv")
    imitation = (run / "imitation.csv").read_text()
    steps = [int(row["timesteps"]) for row in first_progress]  # RLlib may sample a step or two past a round
    assert len(steps) == 2 and 256 <= steps[-1] < 300
    assert [int(row["timesteps"]) for row in first_eval if row["opponent"] == "heuristic"] == [0, *steps]
    assert read_policy_file(run / "model.ccgrllib")[0]["source"]["timesteps"] == steps[-1]
    best_before = read_policy_file(run / "best_model.ccgrllib")[0]["source"]["timesteps"]

    ccg_env_train(tmp_path, "duo", f"rllib={{num_env_runners: 2, resume_from: {run / 'model'}}}",
                  "total_timesteps=512", env=two_nodes.env)
    every_eval, progress = rows(run / "eval.csv"), rows(run / "progress.csv")
    assert every_eval[:len(first_eval)] == first_eval, "the resumed run rewrote the first run's evaluations"
    assert progress[:2] == first_progress
    more = [int(row["timesteps"]) for row in progress[2:]]  # the step count goes on from the checkpoint's
    assert len(more) == 2 and steps[-1] < more[0] < more[1] and more[-1] >= 512
    assert [int(row["timesteps"]) for row in every_eval if row["opponent"] == "heuristic"] == [0, *steps, *more]
    assert float(progress[2]["seconds"]) > float(first_progress[-1]["seconds"]), "the run's clock started again"
    assert (run / "imitation.csv").read_text() == imitation, "the resumed run has no warm start of its own"
    heuristic = [row for row in every_eval if row["opponent"] == "heuristic"]
    best = max(heuristic, key=lambda row: float(row["win_rate"]))  # the earliest of equals, as the run keeps it
    best_now = read_policy_file(run / "best_model.ccgrllib")[0]["source"]["timesteps"]
    assert best_now == int(best["timesteps"]) and (best_now == best_before or best_now > steps[-1])
    assert read_policy_file(run / "model.ccgrllib")[0]["source"]["timesteps"] == more[-1]


def test_a_run_that_cannot_start_deletes_nothing(tmp_path):
    run = tmp_path / "kept"
    run.mkdir()
    (run / "eval.csv").write_text("timesteps,seconds,opponent\n", encoding="utf-8")
    command = [str(BIN / "ccg-env"), "train", "--backend", "rllib", "--config", "rllib_selfplay",
               "--set", f"runs_dir={tmp_path}", "--set", "name=kept",
               "--set", f"rllib={{resume_from: {tmp_path / 'nowhere'}}}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_SECONDS)
    assert done.returncode != 0 and "is not an RLlib checkpoint folder" in done.stderr
    assert (run / "eval.csv").read_text() == "timesteps,seconds,opponent\n"


ON_NODE_2 = "rllib={num_env_runners: 1, runner_resources: {ccg_runner_node: 1}}"


def test_a_run_on_a_two_node_cluster_samples_on_the_second_node(two_nodes, node_ids, tmp_path):
    cluster, nodes = two_nodes, node_ids
    ccg_env_train(tmp_path, "cluster", ON_NODE_2, "total_timesteps=64", "eval_every=64", address="auto",
                  env=cluster.env)
    run = tmp_path / "cluster"
    runners = json.loads((run / "runners.json").read_text())
    assert [runner["node_id"] for runner in runners] == [nodes["runner"]], "the runner is not on the second node"
    assert int(rows(run / "progress.csv")[-1]["timesteps"]) >= 64
    assert rows(run / "eval.csv")[-1]["opponent"] == "heuristic" and (run / "model.ccgrllib").is_file()

    # the same run as a Ray job: its working dir carries the config, the driver runs on the head and joins with
    # --address auto, the runner samples on node 2, the run folder is an absolute path on the head
    job_dir = tmp_path / "job_dir"
    job_dir.mkdir()
    (job_dir / "my_cluster.yaml").write_text((ROOT / "configs/train/rllib_selfplay.yaml").read_text())
    entrypoint = [str(BIN / "ccg-env"), "train", "--backend", "rllib", "--config", "my_cluster.yaml",
                  "--address", "auto"]
    for setting in (*SHRUNK, f"runs_dir={tmp_path}", "name=job", ON_NODE_2, "total_timesteps=64", "eval_every=64"):
        entrypoint += ["--set", setting]
    done = subprocess.run([str(BIN / "ray"), "job", "submit", "--address", cluster.dashboard, "--working-dir",
                           str(job_dir), "--", *entrypoint],
                          capture_output=True, text=True, timeout=RUN_SECONDS, env=cluster.env)
    assert done.returncode == 0 and "succeeded" in done.stdout, f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    runners = json.loads((tmp_path / "job" / "runners.json").read_text())
    assert [runner["node_id"] for runner in runners] == [nodes["runner"]]
    assert (tmp_path / "job" / "model.ccgrllib").is_file()
