"""The game's random generator is SplitMix64: its published outputs, and picks drawn from the same stream."""

from __future__ import annotations

import pytest

from ccg_env.engine.rng import Rng


def test_the_first_outputs_from_seed_zero_are_splitmix64s_published_ones():
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_a_seed_is_taken_modulo_two_to_the_64():
    assert Rng(-1).state == (1 << 64) - 1 and Rng(1 << 64).state == 0


@pytest.mark.parametrize("seed", [0, 1, 12345, (1 << 64) - 1])
@pytest.mark.parametrize("bound", [1, 2, 7, 30, 1000])
def test_below_draws_the_next_output_modulo_the_bound(seed, bound):
    """``below`` writes ``next_u64`` out for speed; both must walk the same stream (a rejection is vanishingly rare
    for these small bounds, so the first output is taken)."""
    fast, reference = Rng(seed), Rng(seed)
    assert [fast.below(bound) for _ in range(5)] == [reference.next_u64() % bound for _ in range(5)]
    assert fast.state == reference.state


def test_below_refuses_an_empty_range():
    with pytest.raises(ValueError, match="positive bound, got 0"):
        Rng(0).below(0)
