"""A saved policy's model file records what it was trained with: the rules as their fields, the card set's ids in
order, and its source; a policy saved without them records none."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def policy():
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv

    torch.set_num_threads(1)
    return MaskablePPO("MlpPolicy", CcgDuelEnv(), n_steps=32, batch_size=32, n_epochs=1, seed=0,
                       policy_kwargs={"net_arch": [8]}, device="cpu").policy


def test_a_saved_policy_records_its_rules_cards_and_source(policy, tmp_path):
    from ccg_env.engine import Rules, default_cards
    from ccg_env.saved_policy import load_policy_file, save_policy

    rules, cards = Rules.load(), default_cards()
    path = save_policy(tmp_path / "recorded.ccgmodel", policy, rules, cards, {"run": "test"})
    metadata = load_policy_file(path).metadata
    assert metadata.rules == dataclasses.asdict(rules)
    assert metadata.card_ids == tuple(sorted(cards))
    assert metadata.source == {"run": "test"}


def test_a_policy_saved_without_rules_or_cards_records_none(policy, tmp_path):
    from ccg_env.saved_policy import load_policy_file, save_policy

    metadata = load_policy_file(save_policy(tmp_path / "bare.ccgmodel", policy)).metadata
    assert metadata.rules is None and metadata.card_ids is None and metadata.source == {}
