"""docs/scaling.md's cluster launcher YAML fits Ray's launcher schema, and ships the wheel and the token."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.rllib.ray_or_skip import require_rllib

require_rllib()

from ray.autoscaler._private.util import prepare_config, validate_config  # noqa: E402

SCALING = Path(__file__).resolve().parents[2] / "docs" / "scaling.md"


def launcher_yaml() -> dict:
    """The one ```yaml block of docs/scaling.md that is a cluster launcher config."""
    blocks = re.findall(r"^```yaml\n(.*?)^```", SCALING.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    (block,) = [block for block in blocks if "cluster_name:" in block]
    return yaml.safe_load(block)


def test_the_launcher_yaml_fits_rays_schema_and_ships_the_wheel_and_the_token():
    config = launcher_yaml()
    validate_config(prepare_config(config))
    mounts = config["file_mounts"]
    assert mounts["/home/ubuntu/ccg-env/dist"] == "./dist" and mounts["/home/ubuntu/.ray/auth_token"]
    assert any("ccg_env-*-linux_x86_64.whl)[rllib]" in command for command in config["setup_commands"])  # compiled
    for key in ("head_start_ray_commands", "worker_start_ray_commands"):
        assert any(command.startswith("RAY_AUTH_MODE=token ") for command in config[key]), key
    with pytest.raises(Exception, match="setup_comands"):  # the check refuses what Ray would refuse
        validate_config(prepare_config({**config, "setup_comands": []}))
