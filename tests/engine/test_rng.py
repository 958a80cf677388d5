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


def _state_before(output: int) -> int:
    """The state whose next SplitMix64 output is ``output``: the output mix inverted step by step."""
    mask = (1 << 64) - 1

    def unshift(value: int, shift: int) -> int:  # inverse of v ^ (v >> shift)
        result = value
        for _ in range(64 // shift + 1):
            result = value ^ (result >> shift)
        return result & mask

    z = unshift(output, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & mask
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & mask
    z = unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) & mask


def test_below_draws_again_past_the_last_whole_multiple_of_n_so_no_value_is_favoured():
    """2**64 - 1 leaves a remainder of 1 modulo 7, so the top output 2**64 - 2 would make 0 one draw likelier than
    the rest: below(7) rejects it and draws again."""
    top = (1 << 64) - 2
    state = _state_before(top)
    assert Rng(state).next_u64() == top
    rng, reference = Rng(state), Rng(state)
    reference.next_u64()  # the rejected draw
    assert rng.below(7) == reference.next_u64() % 7 and rng.state == reference.state
    kept = Rng(_state_before(top - 1))  # the largest output kept, in one draw
    one_draw = Rng(_state_before(top - 1))
    one_draw.next_u64()
    assert kept.below(7) == (top - 1) % 7 and kept.state == one_draw.state


def test_a_generator_made_without_a_seed_starts_from_seed_zero():
    assert Rng().state == 0 and Rng().next_u64() == 0xE220A8397B1DCDAF
