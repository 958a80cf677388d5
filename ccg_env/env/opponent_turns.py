"""The opponents' turns of many duels played together, so that an opponent which decides in batches (a league's
policy snapshot) runs one forward pass per round for every duel waiting on it instead of one per decision."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

if TYPE_CHECKING:
    from ccg_env.engine import Choice, Game

    from .duel import Duel


class BatchedChooser(Protocol):
    """Decides for many games at once: the choice of ``seat`` in each ``(game, seat)``, in order."""

    def choose_many(self, requests: list[tuple[Game, int]]) -> list[Choice]: ...


def play_opponent_turns(duels: list[Duel]) -> None:
    """Play each duel's opponent until the learner is to move again or the game ends (after ``play_learner``).

    An opponent with a ``batched()`` method names there the chooser of its next decision (None: it decides at once
    through ``choose``). Each round plays every duel through the core's loop (``EnvCore.play_until``) until its
    opponent waits on a chooser, then asks every chooser once for all the duels waiting on it; a duel's own moves
    stay in order, and the duels are independent games, so each plays as it would alone.
    """
    pending = duels
    while pending:
        waiting: dict[int, tuple[BatchedChooser, list[Duel]]] = {}
        for duel in pending:
            duel.core.play_until(duel.match, duel.seat, _choose_or_wait(duel, waiting))  # type: ignore[arg-type]
        pending = []
        for chooser, group in waiting.values():
            choices = chooser.choose_many([(duel.game, 1 - duel.seat) for duel in group])  # type: ignore[misc]
            for duel, choice in zip(group, choices):
                duel.core.apply(duel.match, choice)  # type: ignore[arg-type]
            pending += group


def _choose_or_wait(duel: Duel, waiting: dict[int, tuple[BatchedChooser, list[Duel]]]
                    ) -> Callable[[Game, int], Choice | None]:
    """The duel's opponent's choice now, or None once the duel is queued on the batched chooser it waits for."""
    opponent = duel.opponent
    batched = getattr(opponent, "batched", None)

    def choose(game: Game, seat: int) -> Choice | None:
        chooser = batched() if batched is not None else None
        if chooser is None:
            return opponent.choose(game, seat)
        waiting.setdefault(id(chooser), (chooser, []))[1].append(duel)
        return None

    return choose
