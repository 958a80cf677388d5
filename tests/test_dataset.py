"""``ccg-env dataset`` and ``ccg-env bc``: the Minari dataset's fields and shapes, loaded back with minari; the arena's
deal schedule; each episode replayed from its replay file to the same observations and actions; seeds reproduce
the dataset; bad input refused in one line; a behaviour-cloned model that the learned agent plays."""

from __future__ import annotations

import numpy as np
import pytest

from ccg_env.cli import main
from ccg_env.env.core import EnvCore
from ccg_env.env.deals import deck_pairs

minari = pytest.importorskip("minari")

DECISIONS = 240
ITERATIONS = 4
DATASET_ID = "duel-search4-v0"
N_DECKS = 7


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A search dataset written by the command: (datasets folder, the dataset loaded with minari.load_dataset)."""
    out = tmp_path_factory.mktemp("datasets")
    assert main(["dataset", "--agent", f"search:{ITERATIONS}", "--decisions", str(DECISIONS), "--seed", "11",
                 "--out", str(out), "--no-progress"]) == 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MINARI_DATASETS_PATH", str(out))
        dataset = minari.load_dataset(DATASET_ID)
    return out, dataset


def test_the_dataset_holds_whole_games_of_at_least_the_decisions_asked(written):
    _, dataset = written
    lengths = [len(episode.actions) for episode in dataset.iterate_episodes()]
    assert dataset.total_steps == sum(lengths) and sum(lengths) >= DECISIONS
    assert sum(lengths[:-1]) < DECISIONS  # it stopped after the game that reached the count
    assert dataset.total_episodes == len(lengths)


def test_fields_and_shapes(written):
    _, dataset = written
    core = EnvCore()
    size, actions = core.observation_encoder.size, core.size
    assert dataset.observation_space["observation"].shape == (size,)
    assert dataset.action_space.n == actions
    for episode in dataset.iterate_episodes():
        steps = len(episode.actions)
        observations, masks = episode.observations["observation"], episode.observations["action_mask"]
        assert observations.shape == (steps + 1, size) and observations.dtype == np.float32
        assert masks.shape == (steps + 1, actions) and masks.dtype == np.int8
        assert observations.min() >= 0 and observations.max() <= 1  # normalized as the env's option gives it
        assert masks[np.arange(steps), episode.actions].all()  # every recorded action was legal
        assert not masks[-1].any()  # the final position: the game is over
        assert not episode.rewards[:-1].any() and episode.rewards[-1] in (-1.0, 0.0, 1.0)
        assert not episode.terminations[:-1].any() and not episode.truncations[:-1].any()
        assert episode.terminations[-1] != episode.truncations[-1]
        assert {key: value.shape for key, value in episode.infos.items()} == {
            "game_seed": (steps + 1,), "deal": (steps + 1,), "seat": (steps + 1,), "decks": (steps + 1, 2),
            "visit_counts": (steps + 1, actions)}


def test_episodes_follow_the_arena_deal_schedule(written):
    _, dataset = written
    pairs = deck_pairs(N_DECKS)
    for k, episode in enumerate(dataset.iterate_episodes()):
        deal = k // 2
        assert episode.id == k
        assert set(episode.infos["game_seed"]) == {11 + deal} and set(episode.infos["deal"]) == {deal}
        assert set(episode.infos["seat"]) == {k % 2}  # each deal from both seats, seat 0 first
        assert {tuple(row) for row in episode.infos["decks"]} == {pairs[deal % len(pairs)]}
    metadata = list(dataset.storage.get_episode_metadata(range(dataset.total_episodes)))
    assert [entry["seed"] for entry in metadata] == [11 + k // 2 for k in range(dataset.total_episodes)]
    assert metadata[1]["options"]["seat"] == 1 and metadata[1]["options"]["opponent"] == "heuristic"


def test_visit_counts_are_the_searchs_and_its_move_the_most_visited(written):
    _, dataset = written
    searched = 0
    for episode in dataset.iterate_episodes():
        visits = episode.infos["visit_counts"]
        steps = len(episode.actions)
        totals = visits.sum(axis=1)
        assert set(totals) <= {0, ITERATIONS} and totals[-1] == 0
        chose = visits[np.arange(steps), episode.actions]
        rows = totals[:steps] > 0
        assert (chose[rows] == visits[:steps][rows].max(axis=1)).all()
        assert not (visits[:steps] * (1 - episode.observations["action_mask"][:steps])).any()  # legal ids only
        searched += int(rows.sum())
    assert searched > DECISIONS // 3


def test_each_episode_replays_from_its_replay_file_to_the_same_observations_and_actions(written):
    from ccg_env.viewer.replay import load_replay, replay_games

    out, dataset = written
    core = EnvCore()
    buffer = core.observation_encoder.new_buffer()
    write = core.observation_writer(buffer, normalize=True)
    metadata = list(dataset.storage.get_episode_metadata(range(dataset.total_episodes)))
    for episode, entry in zip(dataset.iterate_episodes(), metadata):
        seat = entry["options"]["seat"]
        replay = load_replay(out / DATASET_ID / entry["options"]["replay"])
        assert replay.seed == entry["seed"] and replay.sources["decks"] == [entry["options"]["deck0"],
                                                                            entry["options"]["deck1"]]
        ids, observations = [], []
        for step, game in replay_games(replay):  # also checks the replayed end against the file's
            if step < len(replay.choices) and game.current_player == seat:
                legal = core.legal(game)
                write(game, seat, legal.values())
                observations.append(buffer.copy())
                ids.append(core.codec.encode(game, replay.choices[step]))
        assert ids == episode.actions.tolist()
        np.testing.assert_array_equal(np.stack(observations), episode.observations["observation"][:-1])
        expected = 0.0 if replay.winner is None else (1.0 if replay.winner == seat else -1.0)
        assert episode.rewards[-1] == expected


def test_the_replay_command_opens_a_recorded_game(written, capsys):
    out, dataset = written
    episode = dataset[1]  # the agent in seat 1
    capsys.readouterr()
    assert main(["replay", str(out / DATASET_ID / "replays" / "episode_1.json"), "--all", "--seat", "1"]) == 0
    ending = {1.0: "Game over: you win", -1.0: "Game over: Enemy wins"}.get(float(episode.rewards[-1]), "Game over:")
    assert capsys.readouterr().out.rstrip().splitlines()[-1].strip().startswith(ending)


def _episodes(dataset):
    return [(episode.observations["observation"], episode.observations["action_mask"], episode.actions,
             episode.rewards, episode.infos["game_seed"]) for episode in dataset.iterate_episodes()]


def test_the_same_seed_writes_the_same_dataset_and_another_seed_another(tmp_path, monkeypatch):
    from ccg_env.training import dataset
    from ccg_env.training.dataset import generate, load

    for folder, seed, chunk in (("a", 5, 64), ("b", 5, 1), ("c", 6, 64)):  # b: every game added on its own
        monkeypatch.setattr(dataset, "CHUNK", chunk)
        generate("heuristic", 60, seed, tmp_path / folder)
    first, again, other = (_episodes(load(tmp_path / folder, "duel-heuristic-v0")) for folder in "abc")
    assert len(first) == len(again)
    for left, right in zip(first, again):
        for a, b in zip(left, right):
            np.testing.assert_array_equal(a, b)
    assert other[0][4][0] == 6 and not np.array_equal(other[0][0], first[0][0])


def test_a_stopped_run_keeps_the_games_played_so_far_as_a_whole_dataset(tmp_path):
    from ccg_env.training.dataset import generate, load

    played = []

    def stop_after_three(decisions):
        played.append(decisions)
        if len(played) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate("heuristic", 10_000, 0, tmp_path, progress=stop_after_three)
    dataset = load(tmp_path, "duel-heuristic-v0")
    assert dataset.total_episodes == 3 and dataset.total_steps == sum(played)
    assert sorted(path.name for path in (tmp_path / "duel-heuristic-v0" / "replays").iterdir()) == [
        f"episode_{k}.json" for k in range(3)]


def test_the_summary_counts_what_was_written(tmp_path):
    from ccg_env.training.dataset import generate, load

    summary = generate("heuristic", 50, 2, tmp_path)
    dataset = load(tmp_path, summary.dataset_id)
    assert (summary.episodes, summary.decisions) == (dataset.total_episodes, dataset.total_steps)
    rewards = [float(episode.rewards[-1]) for episode in dataset.iterate_episodes()]
    assert (summary.wins, summary.losses, summary.draws) == (rewards.count(1.0), rewards.count(-1.0),
                                                             rewards.count(0.0))
    assert summary.line().startswith(f"wrote duel-heuristic-v0 to {tmp_path / 'duel-heuristic-v0'}: "
                                     f"{summary.decisions:,} decisions in {summary.episodes:,} games")


@pytest.mark.parametrize("args, message", [
    (["--agent", "nosuch"], "nosuch"),
    (["--agent", "heuristic", "--dataset-id", "bad id"], "--dataset-id 'bad id': expected a Minari dataset id"),
    (["--agent", "search:iterations=0"], "iterations"),
])
def test_bad_input_is_refused_in_one_line_before_anything_is_written(tmp_path, capsys, args, message):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_info:
        main(["dataset", *args, "--decisions", "10", "--out", str(out), "--no-progress"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and error[0].startswith("ccg-env dataset: error:") and message in error[0]
    assert not out.exists()


def test_an_existing_dataset_and_a_file_as_out_are_refused(written, tmp_path, capsys):
    out, _ = written
    for target, message in ((out, f"already holds a dataset '{DATASET_ID}'"), (tmp_path / "file", "is a file")):
        if target.name == "file":
            target.write_text("x")
        with pytest.raises(SystemExit):
            main(["dataset", "--agent", f"search:{ITERATIONS}", "--decisions", "10", "--out", str(target),
                  "--no-progress"])
        assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", [["dataset", "--agent", "heuristic", "--decisions", "10", "--no-progress"],
                                     ["bc", "somewhere/duel-heuristic-v0"]])
def test_a_missing_extra_is_refused_naming_it(tmp_path, monkeypatch, capsys, command):
    import ccg_env.extras as extras

    monkeypatch.setattr(extras, "_installed", lambda name: name != "minari")
    with pytest.raises(SystemExit):
        main([*command, "--out", str(tmp_path / ("m.ccgmodel" if command[0] == "bc" else "out"))])
    error = capsys.readouterr().err.strip().splitlines()
    assert error == [f"ccg-env {command[0]}: error: ccg-env {command[0]} needs the optional extra 'dataset' (minari "
                     "not installed): pip install 'ccg-env[dataset]'"]
    assert not any(tmp_path.iterdir())


def test_behaviour_cloning_writes_a_model_the_learned_agent_plays(written, tmp_path, capsys):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.agents.match import MatchRunner
    from ccg_env.saved_policy import load_model

    out, dataset = written
    model = tmp_path / "bc.ccgmodel"
    assert main(["bc", str(out / DATASET_ID), "--out", str(model), "--epochs", "2"]) == 0
    printed = capsys.readouterr().out
    assert "epoch 2: held-out accuracy" in printed and f"{dataset.total_steps:,} decisions" in printed
    loaded = load_model(model)
    assert loaded.metadata.source["bc_dataset"] == DATASET_ID
    assert loaded.metadata.source["decisions"] == dataset.total_steps
    record = MatchRunner().play([LearnedAgent(str(model)), LearnedAgent(str(model))], seed=3)
    assert record.result in ("win", "draw", "turn_limit")


def test_behaviour_cloning_refuses_a_folder_that_is_no_dataset(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["bc", str(tmp_path), "--out", str(tmp_path / "m.ccgmodel")])
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and "not a Minari dataset folder" in error[0]
