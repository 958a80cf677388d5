"""The observation spec: a plain record of what decides the observation's layout, compared by name.

An :class:`ObservationSpec` holds the layout's version, its pieces in vector order (name and shape), the card ids of
its one-hots (none when the layout leaves them out), the keywords, card types and hero classes of its flag columns,
and the columns of its card-feature rows (:mod:`ccg_env.env.card_features`; none without card features, and then
left out of :meth:`~ObservationSpec.to_dict`, so a spec without them reads and hashes as before). Encoders expose
theirs (``encoder.spec``); model files record it, so a model meeting a game with a new card, keyword or piece size
is refused with the name of what differs (:meth:`ObservationSpec.differences`) rather than a bare size mismatch.
:meth:`~ObservationSpec.digest` is the SHA-256 of its canonical JSON (:meth:`~ObservationSpec.to_dict`).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any

#: The layout's version: raised when an encoding changes meaning without changing any name or shape the spec holds.
OBSERVATION_VERSION = 1
#: Bounds on a spec read from a file (hostile input).
MAX_PIECES = 64
MAX_NAMES = 100_000
MAX_NAME_LENGTH = 200
_NAME_LISTS = (("card_ids", "card"), ("keywords", "keyword"), ("card_types", "card type"),
               ("hero_classes", "hero class"), ("card_features", "card feature column"))
#: Fields a spec's JSON may leave out (read as empty).
_OPTIONAL = frozenset({"card_features"})


@dataclass(frozen=True)
class ObservationSpec:
    """What decides the observation's layout: version, pieces (name, shape) in order, and the named columns."""

    version: int
    pieces: tuple[tuple[str, tuple[int, ...]], ...]
    card_ids: tuple[str, ...]
    keywords: tuple[str, ...]
    card_types: tuple[str, ...]
    hero_classes: tuple[str, ...]
    card_features: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        """Length of the observation vector the pieces make."""
        return sum(math.prod(shape) for _, shape in self.pieces)

    def to_dict(self) -> dict[str, Any]:
        """The spec as JSON data (lists for tuples), as model files record it; ``card_features`` only when there are
        some."""
        data: dict[str, Any] = {"version": self.version,
                                "pieces": [[name, list(shape)] for name, shape in self.pieces],
                                "card_ids": list(self.card_ids), "keywords": list(self.keywords),
                                "card_types": list(self.card_types), "hero_classes": list(self.hero_classes)}
        if self.card_features:
            data["card_features"] = list(self.card_features)
        return data

    def digest(self) -> str:
        """SHA-256 (hex) of the canonical JSON of :meth:`to_dict` (:func:`json_digest`)."""
        return json_digest(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any, where: str = "observation spec") -> ObservationSpec:
        """Validate a spec read from a file; a ValueError names ``where`` and the field at fault."""
        fields = ("version", "pieces", *(name for name, _ in _NAME_LISTS))
        if not isinstance(data, dict) or not set(fields) - _OPTIONAL <= set(data) <= set(fields):
            got = sorted(data)[:10] if isinstance(data, dict) else type(data).__name__
            raise ValueError(f"{where}: expected an object with the fields {', '.join(fields)} "
                             f"({', '.join(sorted(_OPTIONAL))} optional), got {got}")
        data = {key: [] for key in _OPTIONAL} | data
        version = data["version"]
        if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= 1_000_000:
            raise ValueError(f"{where}: version: expected a whole number from 1 to 1000000, got {_short(version)}")
        pieces = data["pieces"]
        if not isinstance(pieces, list) or not 1 <= len(pieces) <= MAX_PIECES:
            raise ValueError(f"{where}: pieces: expected a list of 1 to {MAX_PIECES} [name, shape] rows")
        for index, piece in enumerate(pieces):
            if not (isinstance(piece, list) and len(piece) == 2 and _is_name(piece[0])
                    and isinstance(piece[1], list) and 1 <= len(piece[1]) <= 3
                    and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 1_000_000
                            for n in piece[1])):
                raise ValueError(f"{where}: pieces[{index}]: expected [name, [sizes]], got {_short(piece)}")
        names = [piece[0] for piece in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"{where}: pieces: a piece name appears twice")
        for key, what in _NAME_LISTS:
            value = data[key]
            if not isinstance(value, list) or len(value) > MAX_NAMES or not all(_is_name(v) for v in value):
                raise ValueError(f"{where}: {key}: expected a list of {what} names, got {_short(value)}")
            if len(set(value)) != len(value):
                raise ValueError(f"{where}: {key}: a {what} appears twice")
        if data["card_ids"] != sorted(data["card_ids"]):
            raise ValueError(f"{where}: card_ids: expected them sorted (the observation's one-hot order)")
        spec = cls(version, tuple((name, tuple(shape)) for name, shape in pieces),
                   *(tuple(data[key]) for key, _ in _NAME_LISTS))
        if spec.size > 1_000_000:
            raise ValueError(f"{where}: pieces: {spec.size} values in all, over the limit of 1000000")
        return spec

    def differences(self, game: ObservationSpec) -> list[str]:
        """What differs from ``game``'s spec, each named from this (the model's) side; empty when they are equal.

        Names come first (card feature columns, cards, keywords, card types, hero classes), then pieces, then the
        version.
        """
        found: list[str] = []
        for key, what in (_NAME_LISTS[-1], *_NAME_LISTS[:-1]):  # the card features first: the layout's option
            ours, theirs = getattr(self, key), getattr(game, key)
            missing = [name for name in ours if name not in set(theirs)]
            new = [name for name in theirs if name not in set(ours)]
            found += [f"{what} {name!r} is not in the game's {_plural(key)}" for name in missing]
            found += [f"{what} {name!r} is new (the model was trained without it)" for name in new]
            if not missing and not new and ours != theirs:
                found.append(f"the {_plural(key)} are in another order")
        ours_pieces, theirs_pieces = dict(self.pieces), dict(game.pieces)
        for name, shape in self.pieces:
            if name not in theirs_pieces:
                found.append(f"piece {name!r} is not in the game's observation")
            elif theirs_pieces[name] != shape:
                other = theirs_pieces[name]
                found.append(f"the model's observation has piece {name!r} of shape {shape} ({math.prod(shape)} "
                             f"values), the game's {other} ({math.prod(other)})")
        found += [f"piece {name!r} is new" for name, _ in game.pieces if name not in ours_pieces]
        if set(ours_pieces) == set(theirs_pieces) and [n for n, _ in self.pieces] != [n for n, _ in game.pieces]:
            found.append("the pieces are in another order")
        if self.version != game.version:
            found.append(f"the model's observation layout is version {self.version}, the game's {game.version}")
        return found


def json_digest(data: Any) -> str:
    """SHA-256 (hex) of ``data`` as canonical JSON: sorted keys, no spaces, ASCII."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def spec_of(layout: Any) -> ObservationSpec:
    """The spec of an encoder, read from its layout: ``pieces``, ``cards`` and the flag columns of ``columns``.

    The card ids are those of the ``own_secrets`` piece's one-hot (none when the layout leaves card ids out), the
    card-feature columns those of the ``weapon_cards`` piece (none without card features).
    """
    hand, classes = layout.columns["own_hand"], layout.columns["own_hero_class"]
    return ObservationSpec(OBSERVATION_VERSION, tuple((p.name, tuple(int(n) for n in p.shape)) for p in layout.pieces),
                           tuple(card.id for card in layout.cards) if "own_secrets" in layout.columns else (),
                           tuple(c[len("keyword_"):] for c in hand if c.startswith("keyword_")),
                           tuple(c[len("type_"):] for c in hand if c.startswith("type_")),
                           tuple(c[len("class_"):] for c in classes if c.startswith("class_")),
                           tuple(layout.columns.get("weapon_cards", ())))


def _plural(key: str) -> str:
    return {"card_ids": "card set", "keywords": "keywords", "card_types": "card types",
            "hero_classes": "hero classes", "card_features": "card feature columns"}[key]


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME_LENGTH


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


__all__ = ["OBSERVATION_VERSION", "ObservationSpec", "spec_of"]
