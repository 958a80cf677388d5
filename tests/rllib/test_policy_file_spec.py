"""An RLlib policy file records its observation spec, and a game with a card added or removed, a piece resized or a
new keyword is refused with the name of what differs; a file without a spec is checked by its sizes and card ids."""

from __future__ import annotations

import pytest

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ccg_env.env.core import EnvCore  # noqa: E402
from ccg_env.model_file import ModelFileError  # noqa: E402
from ccg_env.rllib.config import main_module_spec  # noqa: E402
from ccg_env.rllib.env import CcgMultiAgentEnv  # noqa: E402
from ccg_env.rllib.policy_file import (check_policy_fits, load_fitting_policy, read_policy_file,  # noqa: E402
                                       save_policy_file)
from tests.observation_spec_games import (NAMED, NEW_CARD, UNSEEN_KEYWORD, cards_with_one_less,  # noqa: E402
                                          cards_with_one_more, packaged_spec, rules_with_a_smaller_hand,
                                          spec_of_game, spec_without_the_last_keyword)



@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    env = CcgMultiAgentEnv()
    spec = main_module_spec((8,))
    spec.observation_space, spec.action_space = env.observation_spaces["player_0"], env.action_spaces["player_0"]
    return save_policy_file(tmp_path_factory.mktemp("policy") / "p.ccgrllib", spec.build(), env.core)


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    return {"card added": {"cards": cards_with_one_more(folder / "more")},
            "card removed": {"cards": cards_with_one_less(folder / "less")},
            "piece resized": {"rules": rules_with_a_smaller_hand(folder / "rules")}}


def test_a_policy_file_records_the_spec_of_its_game(policy_file):
    metadata, _ = read_policy_file(policy_file)
    assert metadata["observation_spec"] == packaged_spec().to_dict()


@pytest.mark.parametrize("game", sorted(NAMED))
def test_a_policy_file_meeting_another_game_is_refused_by_name(policy_file, games, game):
    metadata, _ = read_policy_file(policy_file)
    check_policy_fits(metadata, "p.ccgrllib", spec=packaged_spec())  # its own game fits
    spec = spec_of_game(**games[game])
    with pytest.raises(ModelFileError, match=rf"^p.ccgrllib: the model does not fit the game's observation: "
                                             rf".*{NAMED[game]}"):
        check_policy_fits(metadata, "p.ccgrllib", spec=spec, observation_size=spec.size)


def test_load_fitting_policy_refuses_a_core_with_a_new_card_by_name(policy_file, games):
    load_fitting_policy(policy_file, EnvCore())
    with pytest.raises(ModelFileError, match=rf"{policy_file}: the model does not fit the game's observation: "
                                             rf"card '{NEW_CARD}' is new"):
        load_fitting_policy(policy_file, EnvCore(cards=games["card added"]["cards"]))


def test_a_policy_file_from_before_a_keyword_is_refused_naming_it(policy_file):
    metadata, _ = read_policy_file(policy_file)
    older = spec_without_the_last_keyword(packaged_spec())
    metadata = {**metadata, "observation_size": older.size, "observation_spec": older.to_dict()}
    with pytest.raises(ModelFileError, match=rf"keyword '{UNSEEN_KEYWORD}' is new"):
        check_policy_fits(metadata, "p.ccgrllib", spec=packaged_spec())


def test_a_policy_file_without_a_spec_is_checked_by_sizes(policy_file, games):
    metadata, _ = read_policy_file(policy_file)
    del metadata["observation_spec"]
    spec = spec_of_game(**games["piece resized"])
    check_policy_fits(metadata, "p.ccgrllib", spec=packaged_spec(), observation_size=packaged_spec().size)
    with pytest.raises(ModelFileError, match=rf"reads observations of {packaged_spec().size} entries but the "
                                             rf"game's have {spec.size}"):
        check_policy_fits(metadata, "p.ccgrllib", spec=spec, observation_size=spec.size)
