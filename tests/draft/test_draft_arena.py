"""Draft matches: agents with draft strategies, the match runner in draft mode, the arena and ``arena --mode draft``."""

import pytest

from ccg_env.agents.arena import build_drafting_agent, run_tournament
from ccg_env.agents.draft import DraftingAgent, HeuristicDrafter
from ccg_env.agents.heuristic import HeuristicAgent
from ccg_env.agents.match import MatchRunner
from ccg_env.agents.random_agent import RandomAgent
from ccg_env import cli
from ccg_env.engine import CardClass


def test_drafting_agent_specs():
    composite = build_drafting_agent("heuristic:draft=random")
    assert isinstance(composite, DraftingAgent) and isinstance(composite.drafter, RandomAgent)
    assert composite.name == "heuristic:draft=random" and not hasattr(composite, "draft_pick")
    assert isinstance(build_drafting_agent("heuristic"), HeuristicAgent)  # drafts itself
    searcher = build_drafting_agent("search:iterations=4")
    assert isinstance(searcher, DraftingAgent) and isinstance(searcher.drafter, HeuristicDrafter)
    with pytest.raises(ValueError, match="does not draft"):
        build_drafting_agent("heuristic:draft=search")
    with pytest.raises(ValueError, match="unknown agent"):
        build_drafting_agent("heuristic:draft=nobody")


def test_match_runner_drafts_then_battles_with_the_drafted_decks():
    runner = MatchRunner(mode="draft")
    record = runner.play([HeuristicAgent(), RandomAgent()], seed=5)
    draft = runner.draft
    assert draft.is_over and [len(d.cards) for d in draft.decks()] == [30, 30]
    assert (record.deck0, record.deck1) == tuple(f"{s.hero.value}-draft" for s in draft.sides)
    again = MatchRunner(mode="draft")
    assert again.play([HeuristicAgent(), RandomAgent()], seed=5) == record  # seeded: same draft, same game
    assert again.draft.decks() == draft.decks()


def test_draft_tournament_plays_each_draft_from_both_seats():
    result = run_tournament(["heuristic", "heuristic:draft=random"], games_per_pair=6, workers=1, progress=False,
                            mode="draft")
    assert [(g.seed, g.seat0) for g in result.games] == [
        (0, "heuristic"), (0, "heuristic:draft=random"), (1, "heuristic"), (1, "heuristic:draft=random"),
        (2, "heuristic"), (2, "heuristic:draft=random")]
    # the same seed gives each seat the same hero and offers, whoever sits there
    assert result.games[0].deck0 == result.games[1].deck0 and result.games[0].deck1 == result.games[1].deck1
    assert set(result.decks) <= {f"{c.value}-draft" for c in CardClass}
    assert "draft mode" in result.table() and result.config["mode"] == "draft"


def test_draft_tournament_results_do_not_depend_on_workers():
    one = run_tournament(["heuristic", "random"], games_per_pair=4, workers=1, progress=False, mode="draft")
    two = run_tournament(["heuristic", "random"], games_per_pair=4, workers=2, progress=False, mode="draft")
    assert one.games == two.games


def test_draft_tournament_refuses_a_deck_pool_and_sample_games(tmp_path):
    with pytest.raises(ValueError, match="deck pool"):
        run_tournament(["heuristic", "random"], games_per_pair=2, mode="draft", decks=["aggro"], progress=False)
    with pytest.raises(ValueError, match="sample games"):
        run_tournament(["heuristic", "random"], games_per_pair=2, mode="draft", save_games=1,
                       out_dir=str(tmp_path), progress=False)
    with pytest.raises(ValueError, match="mode"):
        run_tournament(["heuristic", "random"], games_per_pair=2, mode="sealed", progress=False)


def test_cli_arena_mode_draft(tmp_path, capsys):
    out = tmp_path / "arena"
    assert cli.main(["arena", "--mode", "draft", "--agents", "heuristic", "heuristic:draft=random", "--games", "4",
                     "--workers", "1", "--no-progress", "--out-dir", str(out)]) == 0
    text = capsys.readouterr().out
    assert "heuristic:draft=random" in text and "draft mode" in text and (out / "pairs.csv").is_file()


@pytest.mark.parametrize("extra, message", [(["--decks", "aggro"], "leave out --decks"),
                                            (["--agents", "heuristic", "heuristic:draft=search"], "does not draft")])
def test_cli_arena_mode_draft_errors(extra, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["arena", "--mode", "draft", "--games", "2", "--out-dir", str(tmp_path / "a"), *extra])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err
