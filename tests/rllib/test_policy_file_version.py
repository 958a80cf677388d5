"""An RLlib policy file records the environment version and spec hash it was made for; one made for another spec
is refused naming both, and the RLlib env takes a ``version`` that must be one this ccg-env builds."""

from __future__ import annotations

import json
import zipfile

import pytest

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ccg_env.env.core import EnvCore  # noqa: E402
from ccg_env.env.versions import CURRENT_VERSION, VERSIONS  # noqa: E402
from ccg_env.model_file import ModelFileError  # noqa: E402
from ccg_env.rllib.config import main_module_spec  # noqa: E402
from ccg_env.rllib.env import CcgMultiAgentEnv  # noqa: E402
from ccg_env.rllib.policy_file import (load_fitting_policy, load_policy_file, read_policy_file,  # noqa: E402
                                       save_policy_file)

OTHER_HASH = "cd" * 32


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    env = CcgMultiAgentEnv({"version": "v1"})
    spec = main_module_spec((8,))
    spec.observation_space, spec.action_space = env.observation_spaces["player_0"], env.action_spaces["player_0"]
    return save_policy_file(tmp_path_factory.mktemp("policy") / "p.ccgrllib", spec.build(), env.core)


def test_a_policy_file_records_the_version_and_spec_hash(policy_file):
    metadata, _ = read_policy_file(policy_file)
    assert (metadata["env_version"], metadata["spec_hash"]) == (CURRENT_VERSION, VERSIONS[CURRENT_VERSION].spec_hash)
    load_fitting_policy(policy_file, EnvCore())


def test_a_policy_file_for_another_spec_is_refused_naming_both(policy_file, tmp_path):
    other = tmp_path / "other.ccgrllib"
    with zipfile.ZipFile(policy_file) as source, zipfile.ZipFile(other, "w") as target:
        metadata = {**json.loads(source.read("metadata.json")), "env_version": "v2", "spec_hash": OTHER_HASH}
        target.writestr("metadata.json", json.dumps(metadata))
        target.writestr("weights.pt", source.read("weights.pt"))
    named = (rf"{other}: the model does not fit this environment: it was made for environment v2 \(spec hash "
             rf"{OTHER_HASH[:16]}\) but this ccg-env builds v1 \(spec hash {VERSIONS['v1'].spec_hash[:16]}\)")
    with pytest.raises(ModelFileError, match=named):
        load_policy_file(other)
    with pytest.raises(ModelFileError, match=named):
        load_fitting_policy(other, EnvCore())


def test_the_rllib_env_refuses_a_replaced_version_naming_its_successor():
    with pytest.raises(ValueError, match="'v0' can no longer be built: it was replaced by 'v1'"):
        CcgMultiAgentEnv({"version": "v0"})
