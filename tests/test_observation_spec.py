"""The observation spec: encoders expose it, model files record it, and a model meeting a game with a card added or
removed, a piece resized or a new keyword is refused with the name of what differs; files without one load as before."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from ccg_env.engine.game_setup import resolve_cards, resolve_rules
from ccg_env.env.observation_spec import ObservationSpec
from ccg_env.model_file import ModelFileError, ModelMetadata, check_fits, read_metadata, write_model_file
from tests.observation_spec_games import (NAMED, REMOVED_CARD, UNSEEN_KEYWORD, cards_with_one_less, cards_with_one_more,
                                          packaged_spec, rules_with_a_smaller_hand,
                                          spec_of_game, spec_without_the_last_keyword)



@pytest.fixture(scope="module")
def game_specs(tmp_path_factory) -> dict[str, ObservationSpec]:
    folder = tmp_path_factory.mktemp("games")
    return {"card added": spec_of_game(cards=cards_with_one_more(folder / "more")),
            "card removed": spec_of_game(cards=cards_with_one_less(folder / "less")),
            "piece resized": spec_of_game(rules=rules_with_a_smaller_hand(folder / "rules"))}


# --- the spec itself --------------------------------------------------------------------------------------------


def test_the_encoders_spec_describes_their_layout():
    from ccg_env.env.core import EnvCore
    from ccg_env.env.draft_observation import DraftEncoder

    core = EnvCore()
    spec = core.encoder.spec
    assert spec.size == core.encoder.size
    assert [name for name, _ in spec.pieces] == [piece.name for piece in core.encoder.pieces]
    assert spec.card_ids == tuple(sorted(core.cards))
    assert "taunt" in spec.keywords and "spell" in spec.card_types and "mage" in spec.hero_classes
    draft = DraftEncoder(core.encoder, core.rules).spec
    assert draft.size == core.encoder.size + sum(int(np.prod(s)) for n, s in draft.pieces if n.startswith("draft"))


def test_the_digest_is_stable_and_changes_with_the_layout(game_specs):
    spec = packaged_spec()
    assert spec.digest() == packaged_spec().digest() and len(spec.digest()) == 64
    again = ObservationSpec.from_dict(json.loads(json.dumps(spec.to_dict())))
    assert again == spec and again.digest() == spec.digest()
    assert len({spec.digest(), *(other.digest() for other in game_specs.values())}) == 4


@pytest.mark.parametrize("change, message", [
    ({"version": 0}, "version: expected a whole number from 1"),
    ({"pieces": [["own_hand", [-1]]]}, r"pieces\[0\]: expected \[name, \[sizes\]\]"),
    ({"pieces": [["a", [1]], ["a", [2]]]}, "a piece name appears twice"),
    ({"card_ids": ["b", "a"]}, "card_ids: expected them sorted"),
    ({"keywords": ["taunt", "taunt"]}, "keywords: a keyword appears twice"),
    ({"extra": 1}, "expected an object with the fields"),
])
def test_a_hostile_spec_is_refused_with_the_field_named(change, message):
    with pytest.raises(ValueError, match=message):
        ObservationSpec.from_dict({**packaged_spec().to_dict(), **change}, "m.ccgmodel: observation_spec")


def test_equal_specs_have_no_differences_and_each_game_differs_by_its_one_change(game_specs):
    assert packaged_spec().differences(packaged_spec()) == []
    for game, words in NAMED.items():
        assert any(re.search(words, line) for line in packaged_spec().differences(game_specs[game]))
    older = spec_without_the_last_keyword(packaged_spec())
    assert older.differences(packaged_spec())[0] == f"keyword {UNSEEN_KEYWORD!r} is new (the model was trained " \
                                                    f"without it)"


# --- MaskablePPO model files -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def model_file(tmp_path_factory) -> Path:
    """A small untrained MaskablePPO policy of the packaged game, saved as training saves it."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from ccg_env.env.gym_env import CcgDuelEnv
    from ccg_env.saved_policy import save_policy

    torch.set_num_threads(1)
    env = CcgDuelEnv()
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0, policy_kwargs={"net_arch": [8]},
                        device="cpu")
    return save_policy(tmp_path_factory.mktemp("model") / "tiny.ccgmodel", model.policy, resolve_rules(),
                       resolve_cards())


def test_a_model_file_records_the_spec_of_its_game(model_file):
    metadata = read_metadata(model_file)
    assert metadata.observation_spec == packaged_spec().to_dict()
    assert list(metadata.observation_spec["card_ids"]) == list(metadata.card_ids)


@pytest.mark.parametrize("game", sorted(NAMED))
def test_a_model_file_meeting_another_game_is_refused_by_name(model_file, game_specs, game):
    from ccg_env.saved_policy import load_model

    model = load_model(model_file)
    model.check_fits(spec=packaged_spec())  # its own game fits
    with pytest.raises(ModelFileError, match=rf"^{model_file}: the model does not fit the game's observation: "
                                             rf".*{NAMED[game]}") as refused:
        model.check_fits(spec=game_specs[game], observation_size=game_specs[game].size)
    assert "\n" not in str(refused.value)


def test_a_model_file_from_before_a_keyword_is_refused_naming_it(model_file, tmp_path):
    older = spec_without_the_last_keyword(packaged_spec())
    metadata = read_metadata(model_file)
    path = write_model_file(tmp_path / "older.ccgmodel",
                            ModelMetadata(**{**metadata.__dict__, "observation_size": older.size,
                                             "observation_spec": older.to_dict()}), b"weights")
    with pytest.raises(ModelFileError, match=rf"older.ccgmodel: the model does not fit the game's observation: "
                                             rf"keyword '{UNSEEN_KEYWORD}' is new"):
        check_fits(read_metadata(path), str(path), spec=packaged_spec(), observation_size=packaged_spec().size)


def test_a_learned_agent_refuses_a_game_whose_hand_piece_is_resized_by_name(model_file, tmp_path):
    from ccg_env.agents.learned import LearnedAgent
    from ccg_env.env.codec import ActionLayout

    rules = rules_with_a_smaller_hand(tmp_path)
    size = spec_of_game(rules=rules).size
    mask = np.ones(ActionLayout.for_rules(rules).size, dtype=np.int8)
    with pytest.raises(ModelFileError, match=NAMED["piece resized"]):
        LearnedAgent(model_file).act(np.zeros(size, dtype=np.float32), mask, SimpleNamespace(rules=rules))


def test_a_recorded_spec_that_contradicts_the_file_is_refused(model_file, tmp_path):
    metadata = read_metadata(model_file)
    spec = {**metadata.observation_spec, "card_ids": [c for c in metadata.card_ids if c != REMOVED_CARD]}
    with pytest.raises(ModelFileError, match="observation_spec: its pieces make|its card ids differ"):
        write_model_file(tmp_path / "x.ccgmodel", ModelMetadata(**{**metadata.__dict__, "observation_spec": spec}),
                         b"weights")


def test_the_shipped_model_records_no_spec_and_is_checked_by_sizes_and_card_ids(tmp_path):
    from ccg_env.models import DEFAULT_MODEL

    metadata = read_metadata(DEFAULT_MODEL)
    assert metadata.observation_spec is None
    spec = packaged_spec()
    check_fits(metadata, "shipped", observation_size=spec.size, card_ids=spec.card_ids, spec=spec)
    smaller = spec_of_game(rules=rules_with_a_smaller_hand(tmp_path))
    with pytest.raises(ModelFileError, match=rf"reads observations of {spec.size} entries but the game's have "
                                             rf"{smaller.size}"):
        check_fits(metadata, "shipped", observation_size=smaller.size, spec=smaller)


def test_a_league_refuses_a_checkpoint_of_another_game_by_name(model_file, tmp_path):
    from ccg_env.env.duel import DuelSetup
    from ccg_env.training.league import LeagueSettings
    from ccg_env.training.sb3_league import LeaguePool

    LeaguePool(LeagueSettings(), DuelSetup.build()).add_checkpoint(model_file)
    other = DuelSetup.build(cards=cards_with_one_more(tmp_path))
    with pytest.raises(ModelFileError, match=NAMED["card added"]):
        LeaguePool(LeagueSettings(), other).add_checkpoint(model_file)
