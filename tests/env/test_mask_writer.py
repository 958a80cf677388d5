"""Rule: a player's mask has ones exactly at the ids of the engine's legal choices while that player is on turn,
and is all zeros for the player who is not on turn and for both once the game is over, whatever array it is
written into (a fresh one, one holding a previous mask); an array it cannot write (a strided column of a batch)
is either written correctly or refused with a ValueError that says so, never left holding a wrong mask. A buffer
of another dtype or shape (a float32 or int64 array, a 2-D one) is refused when the writer is made, and the writer
writes into the very array it was given (``writer.out``).

``legal_mask`` is the mask the fuzzer, the determinism checks and the notebooks take as the reference.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ccg_env.engine import Game
from ccg_env.env.codec import ActionCodec, ActionLayout
from ccg_env.env.masks import MaskWriter, legal_mask


def positions(seed: int, count: int = 40):
    """Positions of a seeded random game (the finished one last)."""
    game, rng = Game.new(seed=seed), random.Random(seed)
    for _ in range(count):
        if game.is_over:
            break
        yield game
        choices = game.legal_actions()
        game.apply(choices[rng.randrange(len(choices))])
    while not game.is_over:
        choices = game.legal_actions()
        game.apply(choices[rng.randrange(len(choices))])
    yield game


def outputs(size: int, kind: str) -> np.ndarray:
    if kind == "fresh":
        return np.zeros(size, dtype=np.int8)
    if kind == "stale":  # a mask array reused from an earlier position, full of ones and other values
        return np.full(size, 3, dtype=np.int8)
    batch = np.full((size, 2), 3, dtype=np.int8)  # one column of a batch: not contiguous
    column = batch[:, 1]
    assert not column.flags.c_contiguous
    return column


@pytest.mark.parametrize("kind", ["fresh", "stale", "strided"])
def test_mask_is_the_legal_set_for_the_player_on_turn_and_zeros_otherwise(kind):
    codec = None
    seen_over = False
    for game in positions(seed=3):
        codec = codec or ActionCodec(ActionLayout.for_rules(game.state.rules))
        size = codec.layout.size
        legal = codec.encode_all(game, game.legal_actions()) if not game.is_over else []
        expected = np.zeros(size, dtype=np.int8)
        expected[legal] = 1
        for player in (0, 1):
            out = outputs(size, kind)
            if kind == "strided":
                try:
                    legal_mask(game, codec, player, out)
                except ValueError as error:
                    assert "contiguous" in str(error)
                    continue
            else:
                legal_mask(game, codec, player, out)
            on_turn = player == game.current_player and not game.is_over
            np.testing.assert_array_equal(out, expected if on_turn else np.zeros(size, dtype=np.int8))
        seen_over |= game.is_over
        if not game.is_over:
            assert legal and expected.sum() == len(set(legal))
    assert seen_over


@pytest.mark.parametrize("buffer", [np.zeros(262, dtype=np.float32), np.zeros(262, dtype=np.int64),
                                    np.zeros((2, 131), dtype=np.int8)], ids=["float32", "int64", "2-D"])
def test_a_mask_buffer_that_is_not_a_1d_int8_array_is_refused(buffer):
    with pytest.raises(ValueError, match="expected a contiguous 1-D int8 array"):
        MaskWriter(buffer)


def test_a_mask_writer_writes_into_the_array_it_was_given_and_exposes_it():
    out = np.full(262, 3, dtype=np.int8)
    writer = MaskWriter(out)
    writer.write([0, 5])
    assert writer.out is out and out[[0, 5]].tolist() == [1, 1] and out.sum() == 2
