"""CcgEnvRunner logs the same step counts as RLlib's runner, once per sample, and returns numpy episodes."""

from __future__ import annotations

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner  # noqa: E402

from ccg_env.rllib.runner import CcgEnvRunner  # noqa: E402
from tests.rllib.conftest import tiny_config  # noqa: E402


def value(stats) -> int:
    """A logged count as a whole number (RLlib's metrics hold ``Stats`` objects)."""
    return int(stats.peek())


def sampled_counts(runner_class: type, steps: int) -> tuple[dict, list]:
    """The runner's step and episode counts after one ``sample`` of ``steps`` env steps, and its episodes."""
    runner = runner_class(config=tiny_config(env_config={"decks": "random", "seed": 3}, seed=3))
    try:
        episodes = runner.sample(num_timesteps=steps, random_actions=True)
        metrics = runner.get_metrics()
    finally:
        runner.stop()
    counts = {"env": value(metrics["num_env_steps_sampled"]), "episodes": value(metrics["num_episodes"]),
              "agents": {agent: value(stats) for agent, stats in metrics["num_agent_steps_sampled"].items()},
              "modules": {module: value(stats) for module, stats in metrics["num_module_steps_sampled"].items()},
              "lifetime": value(metrics["num_env_steps_sampled_lifetime"])}
    return counts, episodes


def test_the_counts_match_the_episodes_and_add_up_as_rllibs_own_runners_do():
    assert tiny_config().env_runner_cls is CcgEnvRunner
    for runner_class in (CcgEnvRunner, MultiAgentEnvRunner):
        counts, episodes = sampled_counts(runner_class, 400)
        assert counts["env"] == counts["lifetime"] == sum(episode.env_steps() for episode in episodes) >= 400
        assert counts["episodes"] == sum(episode.is_done for episode in episodes) > 0
        # every step observes the agent on turn, a game's last step both agents: one more observation per game
        assert sum(counts["agents"].values()) == counts["env"] + counts["episodes"]
        assert set(counts["agents"]) == {"player_0", "player_1"}
        assert counts["modules"] == {"main": sum(counts["agents"].values())}
        # a chunk cut where no agent acted holds no agent episodes (RLlib's is_numpy cannot be asked of it)
        assert all(episode.is_numpy for episode in episodes if episode.agent_episodes)


def test_a_chunk_cut_before_any_agent_step_is_returned_not_raised():
    # a legal first move hands the turn over; cut there, the chunk holds no agent's finished step
    runner = CcgEnvRunner(config=tiny_config(env_config={"decks": "random", "seed": 3}, seed=3))
    try:
        empty_chunks = 0
        for _ in range(300):
            episodes = runner.sample(num_timesteps=1, random_actions=True)
            empty_chunks += sum(not episode.agent_episodes for episode in episodes)
            assert all(episode.is_numpy for episode in episodes if episode.agent_episodes)
            if empty_chunks:
                break
    finally:
        runner.stop()
    assert empty_chunks
