"""The draft training config: a short MaskablePPO run on Draft-v1 whose model then drafts and battles as an agent."""

import pytest

from ccg_env.training.train import load_config, train


def test_draft_config_trains_and_its_model_drafts_and_battles(tmp_path):
    import torch

    torch.set_num_threads(1)
    config = load_config("draft_ppo", {"runs_dir": str(tmp_path), "total_timesteps": 512, "num_envs": 4,
                                       "n_steps": 128, "batch_size": 128, "n_epochs": 1, "eval_every": 512,
                                       "eval_games": 4, "eval_envs": 2, "net_arch": [32, 32]})
    assert config.mode == "draft" and config.opponent_draft == "heuristic"
    result = train(config)
    assert result.timesteps >= 512 and [e.games for e in result.evaluations] == [4]

    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.agents.match import MatchRunner
    from ccg_env.agents.random_agent import RandomAgent

    learned, runner = LearnedAgent(result.policy_path), MatchRunner(mode="draft")
    for seat in (0, 1):
        agents = [learned, RandomAgent()] if seat == 0 else [RandomAgent(), learned]
        record = runner.play(agents, seed=seat)  # the model drafts its seat's deck, then battles with it
        assert runner.draft.is_over and record.result in ("win", "draw", "turn_limit", "loop")
        assert record.deck0.endswith("-draft") and record.decisions > 0


def test_draft_mode_refuses_the_slot_policy_and_unknown_draft_opponents():
    with pytest.raises(ValueError, match="mode 'draft'"):
        load_config("draft_ppo", {"policy": "slot"})
    with pytest.raises(ValueError, match="opponent_draft"):
        load_config("draft_ppo", {"opponent_draft": "nobody"})
    with pytest.raises(ValueError, match="mode must be"):
        load_config("draft_ppo", {"mode": "sealed"})
