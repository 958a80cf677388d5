"""The ladder's reference pool file: members, their anchored ratings with intervals, and what they were fitted on.

A pool file is YAML (``ccg_env/benchmark/pool_v1.yaml`` is packaged)::

    pool: v1
    env_version: v1                # the environment the ratings hold for (with spec_hash; when recorded)
    spec_hash: 3f2a...
    package_version: 1.0.0
    anchor: {member: heuristic, rating: 1000.0}
    fit: {...}                     # how the ratings were fitted: games per pair, seed, bootstrap, command, time
    members:
      - {name: random, spec: random, rating: 512.3, low: 470.1, high: 548.0, games: 196, quick_games: 28,
         samples: [508.1, 530.4, ...]}

``spec`` is an agent spec as the arena takes; ``games`` and ``quick_games`` are the games a ladder run plays
against the member (default and ``--quick``); ``samples`` (optional, as many for every member) are its ratings in
the fit's bootstrap samples, which a ladder run redraws so that its interval carries the pool's uncertainty. A pool file may come from anyone: :func:`load_pool` checks every
field and names the file and the field at fault.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import yaml

from .arena import parse_agent_spec

#: The packaged pool.
DEFAULT_POOL = Path(__file__).resolve().parents[1] / "benchmark" / "pool_v1.yaml"
#: Bounds on a pool file (hostile input).
MAX_POOL_BYTES = 1_000_000
MAX_MEMBERS = 64
MAX_GAMES = 1_000_000
MAX_SAMPLES = 10_000


@dataclass(frozen=True)
class PoolMember:
    """One reference agent: display name, agent spec, rating with its 95% interval, ladder games (default, quick)."""

    name: str
    spec: str
    rating: float
    low: float
    high: float
    games: int
    quick_games: int
    samples: tuple[float, ...] = ()  # the member's ratings in the fit's bootstrap samples (sample k of every member
    # is one joint draw), with which a ladder run's interval also carries the pool's uncertainty


@dataclass(frozen=True)
class Pool:
    """A reference pool: its members, the anchor of its scale, the environment it holds for, and its fit."""

    members: tuple[PoolMember, ...]
    anchor: str
    anchor_rating: float
    stamp: dict[str, Any] = field(default_factory=dict)  # pool, env_version, spec_hash, package_version
    fit: dict[str, Any] = field(default_factory=dict)
    path: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The pool as the file's data."""
        return {**self.stamp, "anchor": {"member": self.anchor, "rating": self.anchor_rating}, "fit": self.fit,
                "members": [{"name": m.name, "spec": m.spec, "rating": m.rating, "low": m.low, "high": m.high,
                             "games": m.games, "quick_games": m.quick_games,
                             **({"samples": list(m.samples)} if m.samples else {})} for m in self.members]}

    def rating_samples(self) -> list[tuple[float, ...]] | None:
        """Every member's bootstrap samples, or None unless every member has them."""
        return [m.samples for m in self.members] if all(m.samples for m in self.members) else None


def environment_stamp() -> dict[str, str]:
    """The package version, and the environment version and spec hash (:mod:`ccg_env.env.versions`) when this
    ccg-env records them."""
    from ccg_env import __version__

    stamp = {"package_version": __version__}
    try:
        from ccg_env.env.versions import env_record
    except ImportError:
        return stamp
    return {**env_record(), **stamp}


def load_pool(path: str | Path | None = None) -> Pool:
    """Read and check a pool file (default: the packaged pool).

    Raises:
        ValueError: the file is missing, too large, not YAML, or a field is missing or wrong (named).
    """
    source = Path(path) if path is not None else DEFAULT_POOL
    where = f"pool file {str(source)[:200]}"
    try:
        with open(source, "rb") as handle:
            raw = handle.read(MAX_POOL_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{where}: cannot read it ({error.strerror or error})") from error
    if len(raw) > MAX_POOL_BYTES:
        raise ValueError(f"{where}: larger than {MAX_POOL_BYTES} bytes")
    try:
        data = yaml.safe_load(raw.decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise ValueError(f"{where}: not a YAML file ({' '.join(str(error).split())[:200]})") from error
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a mapping with 'members' and 'anchor', got {type(data).__name__}")
    members = _members(data.get("members"), where)
    anchor = data.get("anchor")
    if not isinstance(anchor, dict) or anchor.get("member") not in {m.name for m in members}:
        raise ValueError(f"{where}: field 'anchor' must be {{member: NAME, rating: NUMBER}} naming a member")
    anchor_rating = _number(anchor.get("rating"), f"{where}: field 'anchor.rating'")
    stamp = {key: str(data[key]) for key in ("pool", "env_version", "spec_hash", "package_version") if key in data}
    fit = data.get("fit", {})
    if not isinstance(fit, dict):
        raise ValueError(f"{where}: field 'fit' must be a mapping")
    return Pool(tuple(members), str(anchor["member"]), anchor_rating, stamp, fit, str(source))


def _members(value: Any, where: str) -> list[PoolMember]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_MEMBERS:
        raise ValueError(f"{where}: field 'members' must be a list of 1 to {MAX_MEMBERS} members")
    members = []
    for index, item in enumerate(value):
        at = f"{where}: members[{index}]"
        if not isinstance(item, dict):
            raise ValueError(f"{at}: expected a mapping, got {type(item).__name__}")
        texts = [item.get(key) for key in ("name", "spec")]
        if not all(isinstance(text, str) and 0 < len(text) <= 200 for text in texts):
            raise ValueError(f"{at}: fields 'name' and 'spec' must be texts of 1 to 200 characters")
        try:
            options = parse_agent_spec(texts[1])[1]
        except ValueError as error:
            raise ValueError(f"{at}: {error}") from error
        if options.get("trust"):
            raise ValueError(f"{at}: spec {texts[1][:60]!r} asks to trust a model file: a pool file cannot")
        rating, low, high = (_number(item.get(key), f"{at}: field '{key}'") for key in ("rating", "low", "high"))
        if not low <= rating <= high:
            raise ValueError(f"{at}: the interval [{low}, {high}] does not hold the rating {rating}")
        games, quick = (_count(item.get(key), f"{at}: field '{key}'") for key in ("games", "quick_games"))
        if texts[0] in {m.name for m in members}:
            raise ValueError(f"{at}: member name {texts[0]!r} is given twice")
        members.append(PoolMember(texts[0], texts[1], rating, low, high, games, quick,
                                  _samples(item.get("samples", []), f"{at}: field 'samples'")))
    if len({len(m.samples) for m in members}) > 1:
        raise ValueError(f"{where}: every member needs as many 'samples' as the others (or none has them)")
    return members


def _samples(value: Any, where: str) -> tuple[float, ...]:
    if not isinstance(value, list) or len(value) > MAX_SAMPLES:
        raise ValueError(f"{where} must be a list of at most {MAX_SAMPLES} numbers")
    return tuple(_number(item, where) for item in value)


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{where} must be a finite number, got {str(value)[:40]!r}")
    return float(value)


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GAMES:
        raise ValueError(f"{where} must be a whole number from 1 to {MAX_GAMES}, got {str(value)[:40]!r}")
    return value


def write_pool(pool: Pool, path: str | Path, header: Sequence[str] = ()) -> None:
    """Write ``pool`` as a pool file, with ``header`` lines as YAML comments above it."""
    text = "".join(f"# {line}\n" for line in header)
    text += yaml.safe_dump(pool.to_dict(), sort_keys=False, width=110)
    Path(path).write_text(text, encoding="utf-8")
