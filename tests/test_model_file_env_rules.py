"""A model's metadata read as a plain namespace (an RLlib policy folder's, or a learned agent's) may lack the card ids:
such a model counts as bound to the packaged card set, and a spec hash that does not fit is refused by name."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ccg_env.env.versions import CURRENT_VERSION
from ccg_env.model_file import ModelFileError, check_env_spec


def test_rule_metadata_without_card_ids_that_does_not_fit_is_refused_as_bound_to_the_packaged_cards():
    metadata = SimpleNamespace(env_version=CURRENT_VERSION, spec_hash="0" * 64, observation_spec=None)
    with pytest.raises(ModelFileError, match=r"^m: the model does not fit this environment: ") as caught:
        check_env_spec(metadata, "m")
    assert "without the card set" not in str(caught.value)
