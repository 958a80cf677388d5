"""Models shipped with the package: the default model the ``learned`` agent plays when given no path."""

from __future__ import annotations

from pathlib import Path
from typing import Final

#: The model of the default training run (``configs/train/ppo_vs_heuristic.yaml``), a safe ``.ccgmodel`` file.
DEFAULT_MODEL: Final = Path(__file__).with_name("ppo_vs_heuristic.ccgmodel")
