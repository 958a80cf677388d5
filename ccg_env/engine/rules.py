"""Rules constants (hand size, board size, mana, fatigue, turn limit...), loaded and validated from YAML."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from .datafiles import check_keys, default_path, get_int, read_yaml
from .errors import DataError, shown


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers that parameterise a game; defaults live in ``configs/rules/default.yaml``."""

    deck_size: int = 30
    max_copies: int = 2
    max_hand: int = 10
    max_battlefield: int = 7
    max_secrets: int = 5
    hero_health: int = 30
    max_mana: int = 10
    mana_per_turn: int = 1
    cards_per_turn: int = 1
    opening_hand_first: int = 3
    opening_hand_second: int = 4
    coin_for_second: bool = True
    fatigue_step: int = 1
    turn_limit: int = 80
    mulligan: bool = True

    def __reduce__(self) -> tuple[type[Rules], tuple[Any, ...]]:
        """Pickle as the constructor call (the compiled build's frozen dataclass cannot restore its fields)."""
        return Rules, tuple(getattr(self, field.name) for field in fields(self))

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<rules>") -> Rules:
        """Validate a mapping of rule values; unknown or out-of-range values raise :class:`DataError`."""
        names = {f.name for f in fields(cls)}
        check_keys(data, names, set(), source=source, item=None)
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name in _FLAGS:
                if not isinstance(value, bool):
                    raise DataError(f"expected true or false, got {shown(value)}", source=source, field=name)
                values[name] = value
            else:
                low, high = RANGES[name]
                values[name] = get_int(data, name, None, source=source, item=None, minimum=low, maximum=high)
        rules = cls(**values)
        if rules.opening_hand_second > rules.max_hand or rules.opening_hand_first > rules.max_hand:
            raise DataError("opening hands cannot exceed max_hand", source=source, field="max_hand")
        return rules

    @classmethod
    def load(cls, path: str | Path | None = None) -> Rules:
        """Load rules from a YAML file (the packaged default when ``path`` is None, read once per process)."""
        if path is None:
            return _default_rules()
        return cls.from_dict(read_yaml(path) or {}, source=str(path))


#: The rules that are true or false rather than numbers.
_FLAGS = frozenset({"coin_for_second", "mulligan"})


@lru_cache(maxsize=1)
def _default_rules() -> Rules:
    path = default_path("rules", "default")
    return Rules.from_dict(read_yaml(path) or {}, source=str(path))


#: The allowed range of every numeric rule (documented in docs/cards.md). The upper ends keep a game's size,
#: and the observation whose length grows with the hand, battlefield and secrets, bounded.
RANGES: dict[str, tuple[int, int]] = {
    "deck_size": (1, 100), "max_copies": (1, 100), "max_hand": (1, 20), "max_battlefield": (1, 14),
    "max_secrets": (0, 10), "hero_health": (1, 1000), "max_mana": (1, 100), "mana_per_turn": (0, 100),
    "cards_per_turn": (0, 10), "opening_hand_first": (0, 20), "opening_hand_second": (0, 20),
    "fatigue_step": (0, 100), "turn_limit": (1, 1000),
}
