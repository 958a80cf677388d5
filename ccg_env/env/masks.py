"""The action mask: the engine's legal choices (TargetSystem candidates and validators) as action ids.

:func:`legal_by_id` is the one place where legal choices become ids, and :class:`MaskWriter` the one place where
ids become an int8 mask; every env front-end, opponent and the arena go through them (via the env core).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from ..engine import Choice, Game
from .codec import ActionCodec


def legal_by_id(game: Game, codec: ActionCodec) -> dict[int, Choice]:
    """Action id -> legal choice for the player on turn, in the engine's order (empty once the game is over)."""
    return codec.legal_map(game, game.legal_actions())


def legal_ids(game: Game, codec: ActionCodec) -> list[int]:
    """Return the action ids of every legal choice of the player on turn (empty once the game is over)."""
    return codec.encode_all(game, game.legal_actions())


def _mark(mask: bytearray | memoryview, ids: Iterable[int]) -> None:
    """Set a one at each id of a zeroed byte buffer: the one place where ids become a mask."""
    for action_id in ids:
        mask[action_id] = 1


def new_mask(ids: Iterable[int], size: int) -> np.ndarray:
    """A fresh int8 mask of ``size`` entries with ones at ``ids``."""
    mask = bytearray(size)
    _mark(mask, ids)
    return np.frombuffer(mask, dtype=np.int8)


class MaskWriter:
    """Writes an int8 action mask (ones at given ids, zeros elsewhere) into one array, checked once.

    Args:
        out: a C-contiguous int8 array of shape ``(action count,)`` (a row of a batch is fine).
    """

    __slots__ = ("out", "_bytes", "_zeros")

    def __init__(self, out: np.ndarray) -> None:
        if out.dtype != np.int8 or out.ndim != 1 or not out.flags.c_contiguous:
            raise ValueError(f"mask buffer: expected a contiguous 1-D int8 array, got {out.dtype} {out.shape}")
        self.out = out
        self._bytes = memoryview(out).cast("B")  # type: ignore[arg-type]  # numpy arrays are buffers
        self._zeros = bytes(out.nbytes)

    def __call__(self, ids: Iterable[int]) -> None:
        """Zero the mask, then set a one at each id (as :meth:`write`)."""
        self.write(ids)

    def write(self, ids: Iterable[int]) -> None:
        """Zero the mask, then set a one at each id."""
        mask = self._bytes
        mask[:] = self._zeros
        _mark(mask, ids)


def legal_mask(game: Game, codec: ActionCodec, player: int, out: np.ndarray) -> None:
    """Write ``player``'s int8 action mask into ``out`` (shape ``(codec.layout.size,)``).

    Ones exactly at the ids of the legal choices when ``player`` is on turn and the game is not over;
    all zeros otherwise.
    """
    on_turn = game.state.result is None and game.state.current == player
    MaskWriter(out)(legal_ids(game, codec) if on_turn else ())
