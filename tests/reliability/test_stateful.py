"""Hypothesis stateful testing over legal_actions / apply: any choice, legal or not, with every check.

Besides the loops of the fuzzer, Hypothesis also sends arbitrary (mostly illegal) choices with any kind and
any uid, switches to clones and JSON copies mid-game, and shrinks any failure to a short sequence.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ccg_env.engine import CardClass, Choice, ChoiceKind, Game, IllegalActionError
from ccg_env.engine.decks import default_deck_paths
from ccg_env.engine.invariants import InvariantMonitor

from .fuzzing import fuzz

DECKS = sorted(default_deck_paths())
HEROES = [c.value for c in CardClass]  # the class a neutral deck's hero plays (every hero power)
UIDS = st.integers(min_value=-1, max_value=140)


def _running(machine: "GameMachine") -> bool:
    return not machine.game.is_over


class GameMachine(RuleBasedStateMachine):
    """One game (default or tight rules) driven by Hypothesis; the invariant monitor runs after every action."""

    @initialize(seed=st.integers(0, 2**32 - 1), decks=st.tuples(st.sampled_from(DECKS), st.sampled_from(DECKS)),
                 log=st.booleans(), rules=st.sampled_from(sorted(fuzz.RULE_VARIANTS)),
                 heroes=st.tuples(st.sampled_from(HEROES), st.sampled_from(HEROES)))
    def start(self, seed: int, decks: tuple[str, str], log: bool, rules: str, heroes: tuple[str, str]) -> None:
        plan = fuzz.GamePlan(seed, decks, "random", log, rules, heroes=heroes)
        self.game = plan.new_game()
        self.monitor = InvariantMonitor(self.game)

    def _apply(self, choice: Choice) -> None:
        self.game.apply(choice)
        self.monitor.check()

    @precondition(_running)
    @rule(data=st.data())
    def play_a_legal_choice(self, data) -> None:
        self._apply(data.draw(st.sampled_from(self.game.legal_actions())))

    @precondition(lambda m: _running(m) and len(m.game.legal_actions()) > 1)
    @rule(data=st.data())
    def play_or_attack(self, data) -> None:
        self._apply(data.draw(st.sampled_from(self.game.legal_actions()[1:])))

    @rule(kind=st.sampled_from(list(ChoiceKind)), source_uid=st.none() | UIDS, target_uid=st.none() | UIDS)
    def try_any_choice(self, kind: ChoiceKind, source_uid: int | None, target_uid: int | None) -> None:
        choice = Choice(kind, source_uid, target_uid)
        if choice in self.game.legal_actions():
            self._apply(choice)
            return
        before, log_size = self.game.to_json(), len(self.game.log)
        with pytest.raises(IllegalActionError):
            self.game.apply(choice)
        assert self.game.to_json() == before and len(self.game.log) == log_size

    @rule()
    def continue_from_a_json_copy(self) -> None:
        text = self.game.to_json()
        restored = Game.from_json(text)
        assert restored.to_json() == text
        self.game = restored
        self.monitor.rebind(restored)

    @precondition(_running)
    @rule()
    def continue_from_a_clone(self) -> None:
        before = self.game.to_json()
        clone = self.game.clone()
        assert clone.to_json() == before
        clone.apply(clone.legal_actions()[-1])
        assert self.game.to_json() == before  # the original is untouched by its clone's moves
        self.game = clone
        self.monitor.rebind(clone)
        self.monitor.check()

    @precondition(_running)
    @rule(seed=st.integers(0, 1000))
    def play_to_the_end(self, seed: int) -> None:
        rng = random.Random(seed)
        while not self.game.is_over:
            self._apply(rng.choice(self.game.legal_actions()))

    @precondition(lambda m: m.game.is_over)
    @rule(kind=st.sampled_from(list(ChoiceKind)))
    def every_choice_is_refused_after_the_end(self, kind: ChoiceKind) -> None:
        state = self.game.state
        me, enemy = state.players[state.current], state.players[1 - state.current]
        source = {ChoiceKind.END_TURN: None, ChoiceKind.PLAY: (me.hand or [me.hero])[0].uid,
                  ChoiceKind.ATTACK: me.hero.uid, ChoiceKind.MULLIGAN: (me.hand or [me.hero])[0].uid,
                  ChoiceKind.HERO_POWER: (me.hero_power or [me.hero])[0].uid, ChoiceKind.PICK: 0}[kind]
        target = enemy.hero.uid if kind is ChoiceKind.ATTACK else None
        before = self.game.to_json()
        with pytest.raises(IllegalActionError, match="game is over"):
            self.game.apply(Choice(kind, source, target))
        assert self.game.to_json() == before

    @invariant()
    def over_means_a_result_and_no_choices(self) -> None:
        if hasattr(self, "game") and self.game.is_over:
            assert self.game.result is not None and self.game.legal_actions() == []


GameMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)
test_game_state_machine = GameMachine.TestCase
