"""Opponent turns played together (ccg_env.env.opponent_turns): a batch of duels whose opponents decide in batches
plays the games it would play stepping each duel alone, and asks each chooser once per round."""

import numpy as np

from ccg_env.env.duel import RandomOpponent
from ccg_env.env.vector import DuelBatch


class LastLegal:
    """Chooses the last legal choice of every request (a play or an attack of that game's own cards, mostly, rather
    than ending the turn); counts the batches it was asked."""

    def __init__(self) -> None:
        self.batch_sizes: list[int] = []

    def choose_many(self, requests):
        self.batch_sizes.append(len(requests))
        return [game.legal_actions()[-1] for game, _ in requests]


class Alternating:
    """An opponent that takes the last legal choice in batches on even turns and plays at random on odd ones."""

    name = "alternating"

    def __init__(self, chooser: LastLegal) -> None:
        self.chooser, self.random, self.game = chooser, RandomOpponent(), None

    def batched(self):
        return self.chooser if self.game is not None and self.game.state.turn % 2 == 0 else None

    def choose(self, game, seat):
        self.game = game
        if game.state.turn % 2 == 0:
            return self.chooser.choose_many([(game, seat)])[0]
        return self.random.choose(game, seat)

    def reset(self, seed):
        self.random.reset(seed)


def alternating_batch(num_envs: int, chooser: LastLegal) -> DuelBatch:
    """A started batch whose duels all play :class:`Alternating` opponents sharing ``chooser``."""
    batch = DuelBatch(num_envs)
    for duel in batch.duels:
        duel.opponent = Alternating(chooser)
    batch.reset(list(range(num_envs)))
    follow_games(batch, range(num_envs))
    return batch


def follow_games(batch: DuelBatch, slots) -> None:
    """Show the opponents of ``slots`` the games just started there (what :meth:`Alternating.batched` reads)."""
    for i in slots:
        batch.duels[i].opponent.game = batch.duels[i].game


def play(together: bool, steps: int = 300) -> tuple[list, LastLegal]:
    chooser = LastLegal()
    batch = alternating_batch(8, chooser)
    if not together:
        batch._opponents_batch = lambda: False
    rng, trace = np.random.default_rng(0), []
    for _ in range(steps):
        actions = [int(rng.choice(np.flatnonzero(mask))) for mask in batch.masks]
        ended = batch.step(actions)
        trace.append((batch.observations.copy(), batch.rewards.copy(), ended, batch.outcomes(ended).tolist()))
        batch.reset([None] * 8, None, ended)
        follow_games(batch, ended)
    return trace, chooser


def test_duels_played_together_play_the_games_each_would_play_alone():
    together, chooser = play(True)
    alone, _ = play(False)
    assert sum(len(ended) for _, _, ended, _ in together) > 8, "games ended and restarted along the way"
    for (obs_a, rewards_a, ended_a, outcomes_a), (obs_b, rewards_b, ended_b, outcomes_b) in zip(together, alone):
        assert np.array_equal(obs_a, obs_b) and np.array_equal(rewards_a, rewards_b)
        assert ended_a == ended_b and outcomes_a == outcomes_b
    assert max(chooser.batch_sizes) > 1, "the chooser was asked for several duels at once"


def test_the_next_step_reset_path_plays_together_too():
    chooser = LastLegal()
    batch = alternating_batch(4, chooser)
    rng, pending = np.random.default_rng(1), []
    for _ in range(200):
        actions = [int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0 for mask in batch.masks]
        ended = batch.step_with_next_step_reset(actions, pending)
        follow_games(batch, pending)
        for i in pending:
            assert batch.rewards[i] == 0 and not batch.terminated[i], "a pending slot restarts"
        pending = ended
    assert chooser.batch_sizes and all(mask.any() for i, mask in enumerate(batch.masks) if i not in pending)
