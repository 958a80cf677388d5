"""The agent registry: options checked against the factory's signature before the agent is built."""

from __future__ import annotations

from pathlib import Path

import pytest

from ccg_env import agent_api
from ccg_env.agent_api import make_agent


class Picky:
    """A registered agent with typed options, one of them required."""

    spec_example = "picky:model=brain.zip"

    def __init__(self, model: str | Path, depth: int = 2, temperature: float = 1.0, greedy: bool = True,
                 seed: int | None = None, name: str = "picky") -> None:
        self.model, self.depth, self.temperature, self.seed, self.name = model, depth, temperature, seed, name

    def act(self, observation, action_mask, view=None) -> int:
        return 0

    def reset(self, seed=None) -> None:
        """Nothing to reset."""


@pytest.fixture(autouse=True)
def picky(monkeypatch):
    monkeypatch.setitem(agent_api._REGISTRY, "picky", Picky)
    monkeypatch.setitem(agent_api._REGISTRY, "loose", lambda **options: Picky(**options))


def test_fitting_options_build_the_agent():
    agent = make_agent("picky", model="m.zip", depth=3, temperature=1, seed=None)
    assert (agent.model, agent.depth, agent.temperature, agent.seed) == ("m.zip", 3, 1, None)
    assert make_agent("picky", model=Path("m.zip")).model == Path("m.zip")


@pytest.mark.parametrize("options, message", [
    ({}, r"agent 'picky' requires model= \(for example picky:model=brain.zip\); options: model=str or Path "
         r"\(required\), depth=int, temperature=float, greedy=bool, seed=int or none, name=str"),
    ({"model": "m", "dpeth": 3}, r"agent 'picky' has no option 'dpeth'; options: model="),
    ({"model": "m", "depth": "abc"}, r"agent 'picky': option depth expects int, got 'abc'"),
    ({"model": "m", "depth": 2.5}, r"option depth expects int, got 2.5"),
    ({"model": "m", "depth": True}, r"option depth expects int, got True"),
    ({"model": "m", "greedy": 1}, r"option greedy expects bool, got 1"),
    ({"model": 7}, r"option model expects str or Path, got 7"),
    ({"model": "m", "seed": "x"}, r"option seed expects int or none, got 'x'"),
])
def test_options_that_do_not_fit_are_refused_naming_the_option(options, message):
    with pytest.raises(ValueError, match=message):
        make_agent("picky", **options)


def test_a_factory_taking_any_keywords_gets_them_unchecked():
    with pytest.raises(TypeError, match="bogus"):  # the factory's own error: nothing to check it against
        make_agent("loose", model="m", bogus=1)


def test_an_unknown_name_lists_the_available_agents():
    with pytest.raises(ValueError, match=r"unknown agent 'nobody'; available: .*picky"):
        make_agent("nobody")


def test_agent_names_are_those_make_agent_accepts(monkeypatch):
    assert agent_api.is_agent_name("picky") and agent_api.is_agent_name("heuristic")  # registered; entry point
    assert agent_api.is_agent_name("heuristic")  # found again without a scan
    assert not agent_api.is_agent_name("nobody")
    monkeypatch.delitem(agent_api._REGISTRY, "picky")
    assert not agent_api.is_agent_name("picky")  # unregistered: no longer a name


def test_an_entry_point_is_looked_up_once_per_process(monkeypatch):
    agent_api.agent_factory("heuristic")
    scans = []
    monkeypatch.setattr(agent_api, "entry_points", lambda **kwargs: scans.append(kwargs) or [])
    assert agent_api.agent_factory("heuristic").__name__ == "HeuristicAgent"  # no scan: the installed packages'
    assert not scans                                                          # entry points would come back empty
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        agent_api.agent_factory("nobody")  # an unknown name is looked up every time
    assert scans


def test_build_agent_names_the_spec_in_its_errors():
    from ccg_env.agents.arena import build_agent

    with pytest.raises(ValueError, match=r"^agent spec 'picky:model=m,depth=deep': agent 'picky': option depth"):
        build_agent("picky:model=m,depth=deep")
    with pytest.raises(ValueError, match=r"^agent 'picky' requires model="):
        build_agent("picky")
    assert build_agent("picky:model=m,depth=4").name == "picky:model=m,depth=4"
