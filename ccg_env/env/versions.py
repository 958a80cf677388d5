"""The recorded environment versions: what each one pins, and the spec hash of everything an agent sees or can do.

An environment version (``v1``: the ids ``ccg_env/Duel-v1`` and ``ccg_env/Draft-v1``, ``ccg_env.env(version="v1")``)
names one game: the packaged rules, card set, heroes and deck pool, the observation and action layouts, the rewards
and the illegal-action defaults. :func:`spec_data` gathers all of them as plain JSON data from what is loaded (the
validated card definitions, not the YAML bytes: comments, layout and prose such as card texts do not count) and
:func:`spec_hash` is the SHA-256 of its canonical JSON. :data:`VERSIONS` records each released version's hash; a
released version is never changed: a change to any of those makes a new version (and a CHANGELOG.md entry), which
``tests/test_env_versions.py`` enforces. Versions this ccg-env can no longer build are in :data:`REPLACED`.

Model files, arena results, run records and replays record :func:`env_record`: the version this ccg-env builds
and the spec hash computed from its packaged data. A model that is not bound to the packaged card set (its
observation names no card id, or it was trained on another card set) records instead the digest of
:func:`spec_data_without_cards`, everything but the card set, so a change to the packaged cards does not refuse it.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import re
from enum import Enum
from typing import Any, Mapping

from .observation_spec import json_digest

#: The version ``ccg_env.env()``, the Gymnasium ids without a version and every record name by default.
CURRENT_VERSION = "v1"
#: Names of the Gymnasium environments every version registers (``ccg_env/<name>-<version>``).
ENV_NAMES = ("Duel", "Draft")
#: Fields of card and hero definitions that are prose (shown to people, never read by the game).
_PROSE = frozenset({"name", "text"})
_VERSION_NAME = re.compile(r"v[0-9]{1,6}")


@dataclasses.dataclass(frozen=True)
class EnvVersion:
    """A released environment version: its name, its recorded spec hash and what it is, in a sentence."""

    name: str
    spec_hash: str
    summary: str

    @property
    def env_ids(self) -> tuple[str, ...]:
        """Its Gymnasium ids: ``ccg_env/Duel-v1``, ``ccg_env/Draft-v1``."""
        return tuple(f"ccg_env/{name}-{self.name}" for name in ENV_NAMES)


#: Every released version by name, with the spec hash recorded when it was released (never edited afterwards).
VERSIONS: Mapping[str, EnvVersion] = {
    "v1": EnvVersion("v1", "08cb6ee482fae05390ace66123bf98b8d4f0638919dade9045a155ce43788534",
                     "the first recorded spec: class decks and heroes with hero powers, the mulligan, summon "
                     "positions, default rules (30-card decks, 30 health, turn limit 80), 262 action ids (265 with "
                     "the draft)"),
}
#: Versions that can no longer be built, and the version that replaced each.
REPLACED: Mapping[str, str] = {"v0": "v1"}


def check_version(version: Any = None) -> EnvVersion:
    """The version ``version`` names (None: :data:`CURRENT_VERSION`); a ValueError names one that was replaced
    (and by which) or that this ccg-env does not know."""
    name = CURRENT_VERSION if version is None else version
    if name in REPLACED:
        raise ValueError(f"version: environment version {name!r} can no longer be built: it was replaced by "
                         f"{REPLACED[name]!r} (CHANGELOG.md says what changed)")
    if name != CURRENT_VERSION:
        known = ", ".join(repr(v) for v in VERSIONS)
        raise ValueError(f"version: unknown environment version {str(name)[:40]!r}; this ccg-env builds "
                         f"{CURRENT_VERSION!r} (released versions: {known})")
    return VERSIONS[name]


def is_version_name(value: Any) -> bool:
    """Whether ``value`` is written like a version name (``v`` and a number), as files record it."""
    return isinstance(value, str) and _VERSION_NAME.fullmatch(value) is not None


# --- the spec ----------------------------------------------------------------------------------------------


def spec_data(rules: Any = None, cards: Any = None, heroes: Any = None) -> dict[str, Any]:
    """Everything that changes what an agent sees or can do, as JSON data: the packaged data by default.

    Args:
        rules, cards: as the env's options (a ``Rules`` or YAML path; a ``CardSet``, a YAML path or a list).
        heroes: a ``HeroSet`` (default: the packaged heroes).
    """
    from ..engine.game_setup import packaged_deck_pool
    from ..engine.heroes import default_heroes
    from .core import EnvCore

    duel, draft = EnvCore(rules, cards), EnvCore(rules, cards, mode="draft")
    hero_set = default_heroes() if heroes is None else heroes
    assert duel.decks is not None and draft.draft_encoder is not None
    return {
        "rules": canonical(duel.rules),
        "cards": [_definition(duel.cards[card_id]) for card_id in sorted(duel.cards)],
        "heroes": [_definition(hero) for hero in sorted(hero_set.values(), key=lambda hero: hero.id)],
        "decks": {"default_pair": [deck.name for deck in duel.decks],
                  "pool": [_deck(deck) for deck in packaged_deck_pool(duel.cards, duel.rules)]},
        "observation": {"duel": duel.encoder.spec.to_dict(), "draft": draft.draft_encoder.spec.to_dict(),
                        "duel_high": canonical(duel.encoder.high), "draft_high": canonical(draft.draft_encoder.high)},
        "actions": {"duel": canonical(duel.codec.layout), "draft": canonical(draft.codec.layout)},
        "rewards": _rewards(duel),
        "defaults": _front_end_defaults(),
    }


def spec_hash(rules: Any = None, cards: Any = None, heroes: Any = None) -> str:
    """SHA-256 (hex) of the canonical JSON of :func:`spec_data` (:func:`~ccg_env.env.observation_spec.json_digest`)."""
    return json_digest(spec_data(rules, cards, heroes))


@functools.lru_cache(maxsize=1)
def current_spec_hash() -> str:
    """The spec hash of this ccg-env's packaged data (computed once per process)."""
    return spec_hash()


#: The parts of :func:`spec_data` that the card set makes: its definitions, its decks and the observation layouts
#: that name card ids.
CARD_SET_PARTS = ("cards", "decks", "observation")


def spec_data_without_cards(rules: Any = None, heroes: Any = None) -> dict[str, Any]:
    """:func:`spec_data` without :data:`CARD_SET_PARTS`, with the observation layout that names no card instead
    (card features without card ids: its spec and bounds, the same for every card set): what a model that is not
    bound to the packaged card set is checked by (:func:`ccg_env.model_file.check_env_spec`)."""
    from .core import EnvCore

    data = {key: value for key, value in spec_data(rules, None, heroes).items() if key not in CARD_SET_PARTS}
    encoder = EnvCore(rules, card_features=True, card_ids=False).encoder
    data["observation"] = {"duel_without_card_ids": encoder.spec.to_dict(), "duel_high": canonical(encoder.high)}
    return data


@functools.lru_cache(maxsize=1)
def current_spec_hash_without_cards() -> str:
    """The digest of :func:`spec_data_without_cards` of this ccg-env's packaged data (computed once per process)."""
    return json_digest(spec_data_without_cards())


def env_record() -> dict[str, str]:
    """What model files, results, run records and replays record: ``{"env_version": ..., "spec_hash": ...}``."""
    return {"env_version": CURRENT_VERSION, "spec_hash": current_spec_hash()}


def spec_mismatch(env_version: Any, spec_hash_value: Any) -> str | None:
    """None when a recorded version and spec hash are this ccg-env's, else a sentence naming both sides."""
    current = current_spec_hash()
    if env_version == CURRENT_VERSION and spec_hash_value == current:
        return None
    return (f"it was made for environment {str(env_version)[:20]} (spec hash {str(spec_hash_value)[:16]}) but this "
            f"ccg-env builds {CURRENT_VERSION} (spec hash {current[:16]})")


def canonical(value: Any) -> Any:
    """``value`` as plain JSON data: dataclasses as objects of their constructor fields, enums as their values, sets
    sorted, arrays as lists; a TypeError for anything else."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (str, int, float)) or value is None:  # bool is an int
        return value
    if isinstance(value, Mapping):
        return {str(canonical(key)): canonical(item) for key, item in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted((canonical(item) for item in value), key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if hasattr(value, "dtype") and hasattr(value, "tolist"):  # a NumPy array (NumPy is not imported here)
        return canonical(value.tolist())
    raise TypeError(f"spec data: cannot write a {type(value).__name__} as JSON data")


def _definition(definition: Any) -> dict[str, Any]:
    """A card or hero definition without its prose; nested definitions (a hero's card and power) likewise."""
    return {f.name: (_definition(getattr(definition, f.name)) if dataclasses.is_dataclass(getattr(definition, f.name))
                     and f.name in ("card", "power") else canonical(getattr(definition, f.name)))
            for f in dataclasses.fields(definition) if f.init and f.name not in _PROSE}


def _deck(deck: Any) -> dict[str, Any]:
    """A packaged deck: its name, hero class and cards in file order (the order the game shuffles from)."""
    return {"name": deck.name, "hero": canonical(deck.hero), "cards": list(deck.cards)}


def _rewards(core: Any) -> dict[str, Any]:
    """The rewards the core pays (read from its functions on an ended game), and the illegal-action defaults."""
    from ..engine.state import Result
    from .core import forfeit_rewards, seat_rewards
    from .reward_shaping import SHAPING_SCALE

    game = core.new_game(0)
    paid = {}
    for result, winner in ((Result.WIN, 0), (Result.WIN, 1), (Result.DRAW, None), (Result.TURN_LIMIT, None),
                           (Result.LOOP, None)):
        game.state.result, game.state.winner = result, winner
        paid[f"{result.value}:{winner}"] = list(seat_rewards(game))
    return {"ended": paid, "forfeit": [list(forfeit_rewards(0)), list(forfeit_rewards(1))],
            "illegal_action": core.illegal_action, "illegal_reward": core.illegal_reward,
            "shaping_scale": SHAPING_SCALE}


def _front_end_defaults() -> dict[str, Any]:
    """The defaults of the Gymnasium and AEC envs' options that change the game an agent plays."""
    from .aec import CcgAECEnv
    from .draft_env import CcgDraftEnv
    from .gym_env import CcgDuelEnv

    wanted = ("opponent", "opponent_draft", "seat", "illegal_action", "illegal_reward", "normalize_observations",
              "decks", "mode")
    found = {}
    for name, env in (("aec", CcgAECEnv), ("duel", CcgDuelEnv), ("draft", CcgDraftEnv)):
        parameters = inspect.signature(env.__init__).parameters
        found[name] = {key: canonical(p.default) for key, p in parameters.items() if key in wanted}
    return found


__all__ = ["CARD_SET_PARTS", "CURRENT_VERSION", "ENV_NAMES", "REPLACED", "VERSIONS", "EnvVersion", "canonical",
           "check_version", "current_spec_hash", "current_spec_hash_without_cards", "env_record", "is_version_name",
           "spec_data", "spec_data_without_cards", "spec_hash", "spec_mismatch"]
