"""Settings every test shares: what the tests write goes under pytest's own temporary folder."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def torch_cache_under_the_tests_temporary_folder(tmp_path_factory):
    """torch makes a per-user compile cache (``torchinductor_<user>``) in the system temporary folder the first time
    an optimizer imports ``torch._dynamo``; the tests' goes under pytest's temporary folder instead (child processes
    inherit it). A cache the person running the tests chose is kept."""
    if "TORCHINDUCTOR_CACHE_DIR" in os.environ:
        yield
        return
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(tmp_path_factory.mktemp("torch-cache"))
    try:
        yield
    finally:
        os.environ.pop("TORCHINDUCTOR_CACHE_DIR", None)
