"""The packaged card files, for tests that load them afresh beside card files of their own."""

from __future__ import annotations

from pathlib import Path

from ccg_env.engine.datafiles import config_dir


def packaged_card_files(pattern: str = "*.yaml") -> list[Path]:
    """The packaged card files whose names match ``pattern``, in the order the card loader reads them."""
    return sorted(config_dir().joinpath("cards").glob(pattern))
