"""The per-slot policy (ccg_env.training.policy): feature shapes, empty slots, the pair head's action layout, training."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from ccg_env.env.codec import ActionLayout  # noqa: E402
from ccg_env.env.gym_env import CcgDuelEnv  # noqa: E402
from ccg_env.training.policy import PairwiseActionHead, SlotEncoderExtractor  # noqa: E402
from ccg_env.training.slot_networks import SlotEncoder  # noqa: E402

SLOT_DIM, GLOBAL_DIM = 8, 16


@pytest.fixture(scope="module")
def env():
    return CcgDuelEnv(normalize_observations=True)


@pytest.fixture(scope="module", params=[0, 1], ids=["slots", "attention"])
def extractor(env, request):
    """The SB3 extractor, or the shared encoder with an attention layer (an option of the RLlib module only)."""
    torch.manual_seed(0)
    pieces = [tuple(p) for p in env.unwrapped.setup.encoder.pieces]
    if request.param:
        return SlotEncoder(env.observation_space.high, pieces, slot_dim=SLOT_DIM, global_dim=GLOBAL_DIM,
                           attention_layers=request.param)
    return SlotEncoderExtractor(env.observation_space, pieces, slot_dim=SLOT_DIM, global_dim=GLOBAL_DIM)


def _observations(env, count=6):
    rng = np.random.default_rng(0)
    observation, info = env.reset(seed=3)
    rows = []
    while len(rows) < count:
        rows.append(observation.copy())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            observation, info = env.reset()
    return torch.as_tensor(np.stack(rows))


def _view(env, features_row, name):
    return env.unwrapped.setup.encoder.view(features_row)[name]


def test_features_have_the_documented_size_and_order(env, extractor):
    layout = ActionLayout.for_rules(env.unwrapped.setup.rules)
    entities = layout.max_hand + 2 * layout.max_battlefield + 2
    assert extractor.output_dim == GLOBAL_DIM + entities * SLOT_DIM
    with torch.no_grad():
        features = extractor(_observations(env))
    assert features.shape == (6, extractor.output_dim)
    assert torch.isfinite(features).all()


def test_empty_slots_embed_to_zero_and_their_contents_are_ignored(env, extractor):
    observations = _observations(env)
    head = PairwiseActionHead(extractor.hand_slots, extractor.field_slots, SLOT_DIM, GLOBAL_DIM)
    with torch.no_grad():
        _, hand, own, enemy, _, _ = head.split(extractor(observations))
    encoder = env.unwrapped.setup.encoder
    for row in range(len(observations)):
        pieces = encoder.view(observations[row].numpy())
        for name, embedded in (("own_hand", hand), ("own_battlefield", own), ("enemy_battlefield", enemy)):
            present = pieces[name][:, 0] > 0
            assert torch.all(embedded[row][torch.as_tensor(~present)] == 0), name
            assert torch.any(embedded[row][torch.as_tensor(present)] != 0) or not present.any(), name
    garbage = observations.clone()
    start, stop, shape = extractor.slot_ranges["enemy_battlefield"]
    slots = garbage[:, start:stop].reshape(-1, *shape)
    empty = slots[..., 0] == 0
    assert empty.any(), "the sampled positions should have an empty enemy minion slot"
    slots[empty] = torch.where(torch.arange(shape[1]) == 0, 0.0, 0.7)  # junk everywhere but 'present'
    with torch.no_grad():
        assert torch.allclose(extractor(garbage), extractor(observations))


def test_occupied_slots_are_embedded_as_every_slot_through_its_network_would_be(env):
    """Only occupied slots are computed; each must still get its own slot's input gain, even where gains differ."""
    observations = _observations(env, 40)
    pieces = [tuple(p) for p in env.unwrapped.setup.encoder.pieces]
    gain = torch.rand(observations.shape[1], generator=torch.Generator().manual_seed(4)) + 0.5  # differs per slot
    torch.manual_seed(0)
    extractor = SlotEncoderExtractor(env.observation_space, pieces, slot_dim=SLOT_DIM, global_dim=GLOBAL_DIM,
                                     gain=gain.tolist())
    head = PairwiseActionHead(extractor.hand_slots, extractor.field_slots, SLOT_DIM, GLOBAL_DIM)
    with torch.no_grad():
        _, *embedded, _, _ = head.split(extractor(observations))
        for (name, (start, stop, shape)), got in zip(extractor.slot_ranges.items(), embedded):
            rows = (observations[:, start:stop] * gain[start:stop]).reshape(-1, *shape)
            present = (rows[..., :1] > 0).float()
            assert present.any() and not present.all(), name
            assert torch.allclose(got, extractor.slot_nets[name](rows) * present, atol=1e-6), name


def test_attention_lets_each_slot_see_the_others(env, extractor):
    observations = _observations(env, 40)
    start, stop, shape = extractor.slot_ranges["own_battlefield"]
    minions = observations[:, start:stop].reshape(-1, *shape)
    row = int(torch.nonzero(minions[:, 0, 0] > 0)[0])  # a position with a minion of its own
    stronger = observations.clone()
    stronger[row, start + 1] += 0.05  # that first minion's attack
    head = PairwiseActionHead(extractor.hand_slots, extractor.field_slots, SLOT_DIM, GLOBAL_DIM)
    with torch.no_grad():
        before, after = head.split(extractor(observations[row:row + 1])), head.split(extractor(stronger[row:row + 1]))
    assert not torch.equal(before[2][0, 0], after[2][0, 0])  # the minion's own embedding
    others_changed = not torch.equal(before[1], after[1]) or not torch.equal(before[3], after[3])
    assert others_changed is bool(extractor.attention_layers)  # its hand and the enemy's minions see it, or not


def test_attention_hides_empty_slots(env):
    torch.manual_seed(0)
    pieces = [tuple(p) for p in env.unwrapped.setup.encoder.pieces]
    extractor = SlotEncoder(env.observation_space.high, pieces, slot_dim=SLOT_DIM, global_dim=GLOBAL_DIM,
                            attention_layers=1)
    observations = _observations(env)
    start, stop, shape = extractor.slot_ranges["enemy_battlefield"]
    last_enemy_slot = extractor.hand_slots + 2 * extractor.field_slots - 1  # its place among the entities
    assert (observations[:, stop - shape[1]] == 0).all(), "the sampled positions should leave that slot empty"
    with torch.no_grad():
        before = extractor(observations)
        extractor.token_embedding[last_enemy_slot] = torch.randn(SLOT_DIM)  # what an empty slot would say
        assert torch.equal(extractor(observations), before)
        extractor.token_embedding[0] = torch.randn(SLOT_DIM)  # a hand slot that holds a card in each position
        assert not torch.equal(extractor(observations), before)


def test_pair_head_scores_each_action_id_from_its_own_slots():
    layout = ActionLayout(max_hand=10, max_battlefield=7)
    torch.manual_seed(1)
    head = PairwiseActionHead(10, 7, SLOT_DIM, GLOBAL_DIM, head_dim=12)
    for layer in (head.key_out["card"], head.key_out["attacker"], head.key_out["power"], head.end_turn,
                  head.mulligan_slot):
        torch.nn.init.normal_(layer.weight)  # the real init is near zero; make every input visible
    features = torch.randn(2, GLOBAL_DIM + (10 + 14 + 2) * SLOT_DIM)
    assert head(features).shape == (2, layout.size)

    def changed_ids(offset):
        moved = features.clone()
        moved[:, offset:offset + SLOT_DIM] += 1.0
        with torch.no_grad():
            difference = (head(moved) - head(features)).abs().amax(0)
        return {layout.describe(i) for i in torch.nonzero(difference > 1e-6).flatten().tolist()}

    hand_3 = GLOBAL_DIM + 3 * SLOT_DIM
    assert changed_ids(hand_3) == {layout.describe(1 + 3 * layout.target_slots + t)
                                   for t in range(layout.target_slots)} | {"mulligan: put back hand slot 3"}
    own_minion_2 = GLOBAL_DIM + (10 + 2) * SLOT_DIM
    expected = {f"play hand slot {h} at own minion 2" for h in range(10)}
    expected |= {f"attack with own minion 2 at {d}" for d in ["enemy hero", *(f"enemy minion {i}" for i in range(7))]}
    expected |= {"use the hero power at own minion 2"}
    assert changed_ids(own_minion_2) == expected
    enemy_hero = GLOBAL_DIM + (10 + 14 + 1) * SLOT_DIM
    expected = {f"play hand slot {h} at enemy hero" for h in range(10)}
    expected |= {f"attack with {a} at enemy hero" for a in ["own hero", *(f"own minion {i}" for i in range(7))]}
    expected |= {"use the hero power at enemy hero"}
    assert changed_ids(enemy_hero) == expected
    own_hero = GLOBAL_DIM + (10 + 14) * SLOT_DIM  # the hero is the power's source and a target of everything
    expected = {f"play hand slot {h} at own hero" for h in range(10)}
    expected |= {f"attack with own hero at {d}" for d in ["enemy hero", *(f"enemy minion {i}" for i in range(7))]}
    expected |= {layout.describe(layout.hero_power_offset + t) for t in range(layout.target_slots)}
    assert changed_ids(own_hero) == expected


def test_missing_pieces_are_named(env):
    pieces = [tuple(p) for p in env.unwrapped.setup.encoder.pieces if p.name != "enemy_battlefield"]
    with pytest.raises(ValueError, match="enemy_battlefield"):
        SlotEncoderExtractor(env.observation_space, pieces)


@pytest.mark.parametrize("pairwise", [True, False])
def test_slot_policy_trains_saves_and_plays_as_a_learned_agent(tmp_path, pairwise):
    from sb3_contrib import MaskablePPO

    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.training.policy import SlotPolicy
    from ccg_env.training.train import load_config, train

    result = train(load_config("smoke", {
        "runs_dir": str(tmp_path), "total_timesteps": 512, "eval_every": 0, "eval_games": 8, "policy": "slot",
        "policy_kwargs": {"slot_dim": 8, "global_dim": 16, "head_dim": 8, "pairwise": pairwise}}))
    model = MaskablePPO.load(result.model_path)
    assert isinstance(model.policy, SlotPolicy)
    assert isinstance(model.policy.action_net, PairwiseActionHead) is pairwise
    agent = LearnedAgent(result.policy_path)  # the .ccgmodel written beside the zip
    assert agent._load().metadata.policy_class == "SlotPolicy"
    env = CcgDuelEnv()  # raw observations: the agent scales them as the training env did
    observation, info = env.reset(seed=5)
    for _ in range(40):
        action = agent.act(observation, info["action_mask"])
        assert info["action_mask"][action] == 1
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            observation, info = env.reset()


def test_pooled_value_reads_only_the_context_and_heroes_and_survives_the_model_file(env, tmp_path):
    from ccg_env.saved_policy import load_model, save_policy
    from ccg_env.training.train import load_config, make_model, make_vec_env

    config = load_config("smoke", {"policy": "slot", "policy_kwargs": {
        "slot_dim": SLOT_DIM, "global_dim": GLOBAL_DIM, "head_dim": 8, "pooled_value": True}})
    vec_env = make_vec_env(config, 2, "random")
    policy = make_model(config, vec_env).policy
    observations = _observations(env)
    features = policy.extract_features(observations).detach()
    heroes = 2 * SLOT_DIM
    slots = features.clone()
    slots[:, GLOBAL_DIM:-heroes] = torch.randn_like(slots[:, GLOBAL_DIM:-heroes])  # every slot embedding changed
    critic = policy.mlp_extractor.forward_critic
    assert torch.equal(critic(features), critic(slots))
    context = features.clone()
    context[:, 0] += 1.0
    hero = features.clone()
    hero[:, -1] += 1.0
    assert not torch.equal(critic(features), critic(context)) and not torch.equal(critic(features), critic(hero))
    assert policy.mlp_extractor.value_net[0].in_features == GLOBAL_DIM + heroes

    setup = vec_env.batch.setup
    path = save_policy(tmp_path / "pooled.ccgmodel", policy, setup.rules, setup.cards, {"run": "test"})
    loaded = load_model(path)
    assert loaded.metadata.policy_kwargs["pooled_value"] is True
    with torch.no_grad():
        assert torch.equal(policy.predict_values(observations), loaded.policy.predict_values(observations))


def test_the_removed_attention_and_bfloat16_options_are_refused_by_name(env):
    from ccg_env.model_file import ModelFileError, check_policy_kwargs
    from ccg_env.training.train_config import TrainConfig

    removed = r"was removed \(it measured no gain; see docs/training\.md\)"
    for options in ({"attention_layers": 1}, {"bfloat16": True}):
        with pytest.raises(ValueError, match=f"policy_kwargs: {next(iter(options))} {removed}"):
            TrainConfig(policy="slot", policy_kwargs=options)
    with pytest.raises(ValueError, match=f"policy_kwargs: bfloat16 {removed}"):
        TrainConfig(backend="rllib", policy="slot", policy_kwargs={"bfloat16": True})
    assert TrainConfig(policy="slot", policy_kwargs={"attention_layers": 0, "bfloat16": False}).policy_kwargs == {}
    assert TrainConfig(backend="rllib", policy="slot", policy_kwargs={"attention_layers": 1}).policy_kwargs == {
        "attention_layers": 1}  # still an option of the RLlib slot module
    with pytest.raises(ValueError, match="slot_dim must be at most 4096"):
        TrainConfig(policy="slot", policy_kwargs={"slot_dim": 5000})
    pieces = [list(p[:3]) + [list(p[3])] for p in env.unwrapped.setup.encoder.pieces]
    written = {"features_extractor_kwargs": {"pieces": pieces, "attention_layers": 2}}
    with pytest.raises(ModelFileError, match="attention_layers: the slot policy's attention layers were removed"):
        check_policy_kwargs("SlotPolicy", written, env.observation_space.shape[0], "file")
