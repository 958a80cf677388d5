"""Skip the RLlib tests where Ray RLlib is not installed, or fail when CCG_ENV_REQUIRE_RLLIB=1 (CI and ``make test``
run them in ``.venv-rllib``, where it is)."""

from __future__ import annotations

import os

import pytest

REASON = ("Ray RLlib is not installed (the 'rllib' extra pins gymnasium 1.2.2, so these tests run in a second "
          "virtualenv: make venv-rllib, then .venv-rllib/bin/python -m pytest tests/rllib; make test does both)")


def require_rllib() -> None:
    """Import ray.rllib, or skip the calling test module (fail with CCG_ENV_REQUIRE_RLLIB=1)."""
    try:
        import ray.rllib  # noqa: F401
    except ImportError:
        if os.environ.get("CCG_ENV_REQUIRE_RLLIB") == "1":
            pytest.fail(f"CCG_ENV_REQUIRE_RLLIB=1 but {REASON}", pytrace=False)
        pytest.skip(REASON, allow_module_level=True)
