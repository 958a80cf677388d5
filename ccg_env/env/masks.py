"""The action mask: the engine's legal choices (TargetSystem candidates and validators) as action ids."""

from __future__ import annotations

import numpy as np

from ..engine import Game
from .codec import ActionCodec


def legal_ids(game: Game, codec: ActionCodec) -> list[int]:
    """Return the action ids of every legal choice of the player on turn (empty once the game is over)."""
    return codec.encode_all(game, game.legal_actions())


def legal_mask(game: Game, codec: ActionCodec, player: int, out: np.ndarray) -> None:
    """Write ``player``'s int8 action mask into ``out`` (shape ``(codec.layout.size,)``).

    Ones exactly at the ids of the legal choices when ``player`` is on turn and the game is not over;
    all zeros otherwise.
    """
    ids = legal_ids(game, codec) if game.state.result is None and game.state.current == player else []
    if not out.flags.c_contiguous:
        out.fill(0)
        out[ids] = 1
        return
    mask = memoryview(out).cast("B")  # type: ignore[arg-type]  # numpy arrays are buffers; its stubs do not say so
    mask[:] = bytes(len(mask))
    for action_id in ids:
        mask[action_id] = 1
