"""A 2-node local Ray cluster (``ray.cluster_utils.Cluster``): the env runner samples on the second node."""

from __future__ import annotations

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

from tests.rllib.conftest import OBJECT_STORE_BYTES, tiny_config  # noqa: E402


def test_sampling_runs_on_the_second_node():
    ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "object_store_memory": OBJECT_STORE_BYTES})
    worker = cluster.add_node(num_cpus=1, resources={"ccg_runner_node": 1}, object_store_memory=OBJECT_STORE_BYTES)
    try:
        ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
        algo = tiny_config(num_env_runners=1, runner_resources={"ccg_runner_node": 1}).build_algo()
        result = algo.train()
        nodes = algo.env_runner_group.foreach_env_runner(lambda runner: ray.get_runtime_context().get_node_id(),
                                                         local_env_runner=False)
        assert nodes == [worker.node_id], "the env runner is not on the second node"
        assert ray.get_runtime_context().get_node_id() != worker.node_id
        assert result["env_runners"]["num_env_steps_sampled"] >= 4 * 32
        algo.stop()
    finally:
        ray.shutdown()
        cluster.shutdown()
