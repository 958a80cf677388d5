"""LegalActionsCategorical (ccg_env.training.legal_distribution): the same distribution as sb3-contrib's, exact zeros."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.distributions import MaskableCategorical  # noqa: E402

from ccg_env.training.legal_distribution import LegalActionsCategorical, LegalActionsDistribution  # noqa: E402


@pytest.fixture
def logits_and_masks():
    generator = torch.Generator().manual_seed(0)
    logits = 3 * torch.randn(64, 30, generator=generator)
    masks = torch.rand(64, 30, generator=generator) < 0.2
    masks[:, 0] = True  # every row has a legal action, as the env guarantees
    masks[1] = True  # one row with everything legal
    masks[2] = False
    masks[2, 7] = True  # one row with a single legal action
    return logits, masks


def test_legal_actions_get_sb3_contribs_probabilities_and_illegal_ones_exactly_zero(logits_and_masks):
    logits, masks = logits_and_masks
    ours, theirs = LegalActionsCategorical(logits, masks), MaskableCategorical(logits=logits, masks=masks)
    assert torch.allclose(ours.probs, theirs.probs, atol=1e-6)
    assert torch.all(ours.probs[~masks] == 0)
    assert torch.allclose(ours.probs.sum(-1), torch.ones(64))
    actions = torch.multinomial(masks.float(), 1).squeeze(-1)  # one legal action per row
    assert torch.allclose(ours.log_prob(actions), theirs.log_prob(actions), atol=1e-5)
    assert torch.allclose(ours.entropy(), theirs.entropy(), atol=1e-5)
    assert ours.entropy()[2] == 0  # one legal action: no uncertainty
    assert torch.equal(ours.mode, theirs.probs.argmax(-1))


def test_sampling_never_draws_an_illegal_action(logits_and_masks):
    logits, masks = logits_and_masks
    distribution = LegalActionsCategorical(logits, masks)
    torch.manual_seed(1)
    for _ in range(200):
        drawn = distribution.sample()
        assert drawn.shape == (64,) and masks[torch.arange(64), drawn].all()


def test_samples_follow_the_probabilities():
    probs = torch.tensor([[0.0, 0.5, 0.0, 0.3, 0.2, 0.0]])
    distribution = LegalActionsCategorical(probs.log().expand(20_000, -1), probs.expand(20_000, -1) > 0)
    torch.manual_seed(2)
    counts = torch.bincount(distribution.sample(), minlength=6) / 20_000
    assert counts[[0, 2, 5]].sum() == 0
    assert torch.allclose(counts, probs[0], atol=0.015), counts  # 20,000 draws: about 0.0035 standard error


def test_a_draw_at_the_top_of_the_range_stays_legal(logits_and_masks, monkeypatch):
    """A uniform draw that rounds up to a row's total lands past the last running sum: it must stay legal."""
    logits, masks = logits_and_masks
    masks[:, -1] = False  # the last action is illegal everywhere, so running past the end would pick it
    masks[:, 0] = True
    distribution = LegalActionsCategorical(logits, masks)
    monkeypatch.setattr(torch, "rand", lambda *shape, **kwargs: torch.ones(*shape, **kwargs))
    drawn = distribution.sample()
    assert masks[torch.arange(64), drawn].all()
    assert torch.equal(drawn, distribution.probs.argmax(-1))


def test_gradients_are_finite_and_reach_only_legal_logits(logits_and_masks):
    logits, masks = logits_and_masks
    logits = logits.clone().requires_grad_()
    distribution = LegalActionsCategorical(logits, masks)
    actions = torch.multinomial(masks.float(), 1).squeeze(-1)
    (distribution.log_prob(actions).sum() + distribution.entropy().sum()).backward()
    assert torch.isfinite(logits.grad).all()
    assert torch.all(logits.grad[~masks] == 0) and logits.grad[masks].abs().sum() > 0


def test_masking_can_be_replaced_and_removed(logits_and_masks):
    logits, masks = logits_and_masks
    distribution = LegalActionsCategorical(logits, masks)
    distribution.apply_masking(None)
    assert torch.allclose(distribution.probs, logits.softmax(-1)) and distribution.masks is None
    distribution.apply_masking(masks.numpy())  # what the rollout buffer hands over
    assert torch.all(distribution.probs[~masks] == 0)


def test_a_mask_row_without_a_legal_action_is_refused(logits_and_masks):
    logits, masks = logits_and_masks
    masks = masks.clone()
    masks[[3, 9]] = False
    with pytest.raises(ValueError, match=r"action mask: 2 row\(s\) allow no action \(first: \[3, 9\]\)"):
        LegalActionsCategorical(logits, masks)


def test_the_slot_policy_draws_its_actions_from_it():
    from ccg_env.training.train import load_config, make_model, make_vec_env

    config = load_config("smoke", {"policy": "slot", "policy_kwargs": {"slot_dim": 8, "global_dim": 16, "head_dim": 8}})
    policy = make_model(config, make_vec_env(config, 2, "random")).policy
    assert isinstance(policy.action_dist, LegalActionsDistribution)
    observation = torch.as_tensor(policy.observation_space.sample())[None]
    mask = torch.zeros(1, policy.action_space.n, dtype=torch.bool)
    mask[0, [0, 5]] = True
    distribution = policy.get_distribution(observation, action_masks=mask.numpy())
    assert isinstance(distribution.distribution, LegalActionsCategorical)
    assert set(torch.nonzero(distribution.distribution.probs[0]).flatten().tolist()) <= {0, 5}
