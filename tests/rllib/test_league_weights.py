"""Who the league's main module meets: PFSP weights over snapshots and scripted agents, and the scripted share."""

from __future__ import annotations

import pytest

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ccg_env.rllib.league import pfsp_weights  # noqa: E402
from ccg_env.rllib.settings import LeagueSettings  # noqa: E402

SNAPSHOTS = ["snapshot_10", "snapshot_20", "snapshot_30"]
#: main beats the heuristic more often than it beats its own recent snapshots
WIN_RATES = {"heuristic": 0.6, "snapshot_10": 0.8, "snapshot_20": 0.5, "snapshot_30": 0.45}


def test_one_pfsp_draw_weights_every_opponent_by_how_often_main_loses_to_it():
    weights = pfsp_weights(LeagueSettings(self_play=0.1, scripted=("heuristic",)), WIN_RATES, SNAPSHOTS)
    assert sum(weights.values()) == pytest.approx(1.0) and weights["self"] == pytest.approx(0.1)
    assert weights["snapshot_30"] > weights["snapshot_20"] > weights["heuristic"] > weights["snapshot_10"]
    priorities = {name: (1 - rate) ** 2 for name, rate in WIN_RATES.items()}
    for name in WIN_RATES:
        assert weights[name] == pytest.approx(0.9 * priorities[name] / sum(priorities.values()))


def test_a_scripted_share_is_kept_whatever_the_snapshots_win_rates():
    settings = LeagueSettings(self_play=0.1, scripted=("heuristic", "random"), scripted_share=0.5)
    weights = pfsp_weights(settings, {**WIN_RATES, "random": 0.99}, SNAPSHOTS)
    assert sum(weights.values()) == pytest.approx(1.0) and weights["self"] == pytest.approx(0.1)
    assert weights["heuristic"] + weights["random"] == pytest.approx(0.5)
    assert sum(weights[name] for name in SNAPSHOTS) == pytest.approx(0.4)
    assert weights["heuristic"] > 100 * weights["random"]  # PFSP within the scripted group
    assert weights["snapshot_30"] > weights["snapshot_20"] > weights["snapshot_10"]  # and within the snapshots


def test_before_the_first_snapshot_the_scripted_agents_take_every_non_self_play_game():
    settings = LeagueSettings(self_play=0.2, scripted=("heuristic",), scripted_share=0.5)
    assert pfsp_weights(settings, {}, []) == pytest.approx({"self": 0.2, "heuristic": 0.8})


@pytest.mark.parametrize("share", [0.95, -0.1, True, "half"])
def test_a_scripted_share_outside_what_self_play_leaves_is_refused(share):
    with pytest.raises(ValueError, match="scripted_share must be null or a number from 0 to 1 - self_play"):
        LeagueSettings.from_dict({"self_play": 0.1, "scripted_share": share})
