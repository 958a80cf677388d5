"""MaskablePPO smoke run on the batched env, plus config loading and validation errors."""

import csv

import numpy as np
import pytest

from ccg_env.training.train import TrainConfig, load_config, main, parse_overrides, train


def test_smoke_run_completes_and_reports_the_win_rate(tmp_path, capsys):
    config = load_config("smoke", {"runs_dir": str(tmp_path), "total_timesteps": 2048})
    assert config.progress == "auto"
    result = train(config)
    assert "step/s" not in capsys.readouterr().err, "no progress bar when stderr is not a terminal"
    assert result.timesteps >= 2048
    assert [e.timesteps for e in result.evaluations] == [1024, 2048]
    assert all(e.games == config.eval_games for e in result.evaluations)
    assert 0.0 <= result.final_win_rate <= 1.0
    run_dir = tmp_path / "smoke"
    rows = list(csv.DictReader((run_dir / "eval.csv").open()))
    assert [int(r["timesteps"]) for r in rows] == [1024, 2048]
    assert float(rows[-1]["win_rate"]) == pytest.approx(result.final_win_rate, abs=1e-4)
    assert int(rows[-1]["wins"]) + int(rows[-1]["losses"]) + int(rows[-1]["draws"]) + int(
        rows[-1]["turn_limits"]) + int(rows[-1]["illegal_actions"]) == config.eval_games
    assert (run_dir / "model.zip").is_file() and (run_dir / "checkpoints" / "step_2048.zip").is_file()
    assert result.policy_path == run_dir / "model.ccgmodel" and (run_dir / "checkpoints" / "step_2048.ccgmodel").is_file()
    assert list(run_dir.glob("events.out.tfevents.*")), "no TensorBoard event file"
    assert (run_dir / "config.yaml").is_file()
    assert (run_dir / "learning_curve.png").read_bytes().startswith(b"\x89PNG")


def test_best_model_is_the_evaluation_with_the_highest_win_rate_the_earliest_of_equals(tmp_path):
    from ccg_env.saved_policy import load_model
    from ccg_env.training.train import EvalResult, best_evaluation

    rates = [(1, 1), (3, 1), (3, 1), (0, 4)]
    history = [EvalResult(512 * i, 0.0, "random", {"win": w, "loss": l}) for i, (w, l) in enumerate(rates, 1)]
    assert best_evaluation(history) is history[1] and best_evaluation([]) is None

    result = train(load_config("smoke", {"runs_dir": str(tmp_path), "total_timesteps": 2048, "eval_every": 512,
                                         "eval_games": 8}))
    assert len(result.evaluations) == 4 and result.best is best_evaluation(result.evaluations)
    saved = load_model(result.run_dir / "best_model.ccgmodel")
    assert saved.metadata.source["timesteps"] == result.best.timesteps
    assert (result.run_dir / "best_model.zip").is_file()


@pytest.mark.parametrize("async_rollouts", [False, True], ids=["one process", "async rollouts"])
def test_ctrl_c_stops_training_and_still_saves_the_model(tmp_path, monkeypatch, capsys, async_rollouts):
    import multiprocessing

    import ccg_env.training.train as train_module
    from ccg_env.saved_policy import load_model

    evaluate, calls = train_module.evaluate, []

    def interrupted_at_the_second_evaluation(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(train_module, "evaluate", interrupted_at_the_second_evaluation)
    assert main(["--config", "smoke", "--set", f"runs_dir={tmp_path}", "--set", "total_timesteps=4096",
                 "--set", "eval_every=1024", "--set", "eval_games=8", "--set", "progress=true",
                 "--set", f"async_rollouts={str(async_rollouts).lower()}"]) == 130
    captured = capsys.readouterr()
    assert captured.out.startswith("interrupted after 2048 steps")
    assert captured.err.endswith("\n"), "the progress bar is closed, so the next line starts on its own"
    run_dir = tmp_path / "smoke"
    assert load_model(run_dir / "model.ccgmodel").metadata.source["timesteps"] == 2048
    assert (run_dir / "model.zip").is_file() and len(list(csv.DictReader((run_dir / "eval.csv").open()))) == 1
    assert not [p for p in multiprocessing.active_children() if p.name == "ccg-env rollout worker"], "it ends too"


def test_a_stop_signal_ends_training_like_ctrl_c_and_the_model_is_saved(tmp_path, monkeypatch):
    import os
    import signal

    import ccg_env.training.train as train_module

    evaluate, calls = train_module.evaluate, []

    def stopped_by_the_scheduler_at_the_second_evaluation(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGTERM)  # what a job scheduler (or `kill`) sends
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(train_module, "evaluate", stopped_by_the_scheduler_at_the_second_evaluation)
    before = signal.getsignal(signal.SIGTERM)
    result = train(load_config("smoke", {"runs_dir": str(tmp_path), "total_timesteps": 4096, "eval_every": 1024,
                                         "eval_games": 8}))
    assert result.interrupted and result.timesteps < 4096 and result.model_path.is_file()
    assert signal.getsignal(signal.SIGTERM) is before  # the handler is put back


def test_loaded_model_plays_legal_moves_and_its_model_file_plays_the_same(tmp_path):
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv
    from ccg_env.saved_policy import load_model

    result = train(load_config("smoke", {"runs_dir": str(tmp_path), "total_timesteps": 512, "eval_every": 0,
                                         "eval_games": 8}))
    model = MaskablePPO.load(result.model_path)  # our own zip, just written
    safe = load_model(result.policy_path)
    assert safe.metadata.observation_normalized and safe.metadata.source == {"run": "smoke", "timesteps": 512}
    env = CcgDuelEnv(normalize_observations=True)
    observation, info = env.reset(seed=0)
    for _ in range(30):
        action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
        assert safe.predict(observation, action_masks=env.action_masks(), deterministic=True)[0] == action
        assert info["action_mask"][int(action)] == 1
        observation, _, terminated, truncated, info = env.step(int(action))
        if terminated or truncated:
            observation, info = env.reset()


def test_progress_bar_shows_timesteps_speed_and_the_latest_win_rate_on_stderr(tmp_path, capsys):
    result = train(load_config("smoke", {"runs_dir": str(tmp_path), "total_timesteps": 1024, "eval_every": 512,
                                         "eval_games": 8, "progress": True}))
    err = capsys.readouterr().err
    final = err.replace("\r", "\n").strip().splitlines()[-1]
    assert final.startswith("smoke: 100%") and "1.02k/1.02k" in final and "step/s" in final
    assert f"eval win rate vs random {result.final_win_rate:.3f}" in final


@pytest.mark.parametrize("setting, terminal, shown", [
    ("auto", True, True), ("auto", False, False), (True, False, True), (False, True, False)])
def test_progress_auto_follows_whether_stderr_is_a_terminal(setting, terminal, shown, monkeypatch):
    import io
    import sys

    from ccg_env.training.train import show_progress

    stderr = io.StringIO()
    monkeypatch.setattr(stderr, "isatty", lambda: terminal)
    monkeypatch.setattr(sys, "stderr", stderr)
    assert show_progress(setting) is shown


def test_progress_setting_is_validated(tmp_path):
    path = tmp_path / "noisy.yaml"
    path.write_text("progress: loud\n")
    with pytest.raises(ValueError, match=r"noisy\.yaml: train config: progress must be true, false or 'auto'"):
        load_config(path)
    assert load_config("smoke", {"progress": False}).progress is False


def test_unknown_key_names_the_file_and_key(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("total_timesteps: 100\nlearning_rat: 0.1\n")
    with pytest.raises(ValueError, match=r"bad\.yaml.*'learning_rat'"):
        load_config(path)


def test_wrong_types_and_values_name_the_key(tmp_path):
    path = tmp_path / "typed.yaml"
    path.write_text("num_envs: eight\n")
    with pytest.raises(ValueError, match=r"typed\.yaml.*'num_envs'"):
        load_config(path)
    path.write_text("batch_size: 0\n")
    with pytest.raises(ValueError, match=r"typed\.yaml.*batch_size"):
        load_config(path)
    with pytest.raises(FileNotFoundError, match="no-such-config"):
        load_config("no-such-config")


@pytest.mark.parametrize("setting", [{"ent_coef_late": 0.005}, {"ent_late_at": 0.5}, {"reward_shaping": 0.1}])
def test_removed_options_are_refused_by_name(setting):
    key = next(iter(setting))
    with pytest.raises(ValueError, match=rf"smoke\.yaml: {key} was removed \(it measured no gain; see docs/training\.md\)"):
        load_config("smoke", setting)


def test_removed_options_at_their_off_value_still_load():
    config = load_config("smoke", {"ent_coef_late": None, "ent_late_at": 0.65, "reward_shaping": 0.0})
    assert not hasattr(config, "reward_shaping") and not hasattr(config, "ent_coef_late")


def test_packaged_configs_load_and_name_defaults_to_the_stem():
    config = load_config("ppo_vs_random")
    assert config.name == "ppo_vs_random" and config.net_arch == [256, 256] and config.torch_threads == 1
    assert isinstance(load_config("smoke"), TrainConfig)


def test_command_line_overrides_and_errors(capsys):
    assert parse_overrides(["n_steps=64", "net_arch=[32, 32]"]) == {"n_steps": 64, "net_arch": [32, 32]}
    with pytest.raises(SystemExit):
        main(["--config", "smoke", "--set", "nonsense=1"])
    assert "'nonsense'" in capsys.readouterr().err


def test_rescaled_inputs_continue_from_a_model_and_export_smaller(tmp_path):
    from sb3_contrib import MaskablePPO

    from ccg_env.training.train import export_for_play

    first = train(load_config("smoke", {"runs_dir": str(tmp_path), "name": "first", "total_timesteps": 512,
                                        "eval_every": 0, "eval_games": 8, "rescale_inputs": True}))
    gain = MaskablePPO.load(first.model_path).policy.features_extractor.gain
    assert float(gain.max()) == pytest.approx(10.0) and float(gain.min()) >= 1.0
    settings = {"runs_dir": str(tmp_path), "total_timesteps": 512, "eval_every": 0, "eval_games": 8,
                "rescale_inputs": True, "learning_rate": 1e-9}
    second = train(load_config("smoke", {**settings, "name": "second", "init_model": str(first.policy_path)}))
    weights = [p.detach() for p in MaskablePPO.load(first.model_path).policy.parameters()]
    continued = [p.detach() for p in MaskablePPO.load(second.model_path).policy.parameters()]
    assert all(np.allclose(a, b, atol=1e-5) for a, b in zip(weights, continued)), "started from the first model"
    with pytest.raises(ValueError, match="init_model: .* stable-baselines3 .zip"):
        load_config("smoke", {**settings, "name": "third", "init_model": str(first.model_path)})
    third = train(load_config("smoke", {**settings, "name": "third", "init_model": str(first.model_path),
                                        "trust_model": True}))
    from_zip = [p.detach() for p in MaskablePPO.load(third.model_path).policy.parameters()]
    assert all(np.allclose(a, b, atol=1e-5) for a, b in zip(weights, from_zip)), "a trusted zip starts it too"
    with pytest.raises(ValueError, match="unpickles"):
        export_for_play(second.model_path, tmp_path / "export" / "play.zip")
    small = export_for_play(second.model_path, tmp_path / "export" / "play.zip", trust=True)
    assert small.stat().st_size < second.model_path.stat().st_size * 0.6
    exported = [p.detach() for p in MaskablePPO.load(small).policy.parameters()]
    assert all(np.array_equal(a, b) for a, b in zip(continued, exported))


def test_continue_training_starts_from_a_model_file_and_refuses_an_untrusted_zip(tmp_path):
    import dataclasses

    from ccg_env.agents.notebook_helpers import continue_training
    from ccg_env.model_file import UntrustedModelError
    from ccg_env.saved_policy import load_model

    config = load_config("smoke", {"runs_dir": str(tmp_path), "name": "first", "total_timesteps": 512,
                                   "eval_every": 0, "eval_games": 8})
    first = train(config)
    more = dataclasses.replace(config, name="more", learning_rate=1e-9)
    with pytest.raises(UntrustedModelError):
        continue_training(first.model_path, more)
    result = continue_training(first.policy_path, more)
    before, after = load_model(first.policy_path).policy, load_model(result.policy_path).policy
    assert result.timesteps >= 512 and result.policy_path.is_file()
    assert all(np.allclose(a.detach(), b.detach(), atol=1e-5) for a, b in zip(before.parameters(), after.parameters()))


def test_more_evaluation_opponents_get_their_own_rows_and_curves_while_the_best_model_follows_the_first(tmp_path):
    result = train(load_config("smoke", {"runs_dir": str(tmp_path), "total_timesteps": 1536, "eval_every": 512,
                                         "eval_games": 4, "eval_envs": 4,
                                         "eval_opponents": ["heuristic", {"name": "search", "iterations": 2},
                                                            "best"]}))
    rows = list(csv.DictReader((result.run_dir / "eval.csv").open()))
    others = ("random", "heuristic", "search(iterations=2)")
    assert [(int(r["timesteps"]), r["opponent"]) for r in rows] == [  # no best model before the first evaluation
        *((512, opponent) for opponent in others), *((step, opponent) for step in (1024, 1536)
                                                     for opponent in (*others, "best"))]
    assert all(int(r["games"]) == 4 for r in rows)
    assert [e.opponent for e in result.evaluations] == ["random", "random", "random"]
    assert (result.run_dir / "learning_curve.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("spec, complaint", [
    ("nobody", "'nobody': expected a registered agent .*, or 'best' \\(the run's best model so far\\)"),
    ({"name": "search", "iters": 2}, "agent 'search' has no option 'iters'"),
])
def test_bad_evaluation_opponents_are_named(spec, complaint):
    with pytest.raises(ValueError, match=f"eval_opponents: .*{complaint}"):
        load_config("smoke", {"eval_opponents": [spec]})


def test_a_model_logs_nowhere_until_a_run_gives_it_its_folder(tmp_path, monkeypatch):
    import tempfile

    from ccg_env.training.train import make_model, make_vec_env

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where SB3's default logger makes its SB3-<time> folder
    config = load_config("smoke")
    model = make_model(config, make_vec_env(config, 2, "random"))
    model.learn(64)
    assert list(tmp_path.glob("SB3-*")) == []


def test_the_two_backends_share_the_run_module_without_importing_each_other_at_module_level():
    import ast
    from pathlib import Path

    import ccg_env

    package = Path(ccg_env.__file__).parent

    def module_level_imports(path):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ImportFrom):
                yield ("." * node.level) + (node.module or "")

    for path in (package / "training").glob("*.py"):
        assert not any("rllib" in name for name in module_level_imports(path)), path.name
    for path in (package / "rllib").glob("*.py"):
        assert "..training.train" not in set(module_level_imports(path)), path.name
    run = set(module_level_imports(package / "training" / "run.py"))
    assert run <= {"__future__", "collections.abc", "dataclasses", "pathlib", "typing", ".train_config"}, run
