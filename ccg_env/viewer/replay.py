"""Saved games: read and check a replay file, and replay it through the engine into one frame per step.

A replay file (written by ``ccg-env play --save``) is JSON: ``{"format": "ccg-env-replay/1", "seed": int,
"seats": [name, name], "choices": [[kind, source, target], ...], "result": str | null, "winner": 0 | 1 | null}``,
``"mulligan": bool`` (whether the game was played with the mulligan; files without it were saved before the
mulligan existed and replay without it), ``"data"`` naming the card, deck and rules files when they were not
the packaged ones, and ``"env_version"`` and ``"spec_hash"``: the environment version the game was played under
(:mod:`ccg_env.env.versions`; absent from files saved before versions were recorded). Recorded decks that
are all packaged deck names (as the arena's sample games record them) are replayed as they are unless other decks
are given; recorded files are information only (a replay never makes the reader open a file it names).
Files are hostile: every field is checked, and each choice is applied through :meth:`Game.apply`, so a choice
that is not legal in the replayed game is reported with its number instead of being acted out.
A frame is plain JSON-ready data read from the engine's player view (:class:`~ccg_env.engine.view.GameView`) and
the log in words (:class:`~ccg_env.env.log_words.LogWords`); no rule is evaluated here.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..engine import Choice, ChoiceKind, Game, Result
from ..engine.cards import keyword_names
from ..engine.decks import default_deck_paths
from ..engine.errors import IllegalActionError, shown
from ..engine.serialize import MAX_STATE_CHARS
from ..engine.game_setup import resolve_rules
from ..engine.log_words import LogWords, player_turn
from ..engine.view import CardView, GameView, SideView

REPLAY_FORMAT = "ccg-env-replay/1"
#: The name a person playing in the terminal gets in a replay's seats (ccg_env.agents.human.HumanAgent's default).
HUMAN_NAME = "you"
_KINDS = {kind.value: kind for kind in ChoiceKind}
_RESULTS = {result.value for result in Result}
_SOURCE_KINDS = ("cards", "decks", "rules")
#: Bounds of a replay file, like a saved game's (``ccg_env.engine.serialize.MAX_STATE_CHARS``).
MAX_REPLAY_BYTES = MAX_STATE_CHARS
MAX_NAME_CHARS = 100
MAX_PATH_CHARS = 1000
MAX_SOURCE_FILES = 64

if TYPE_CHECKING:
    from ..cli_data_options import GameData


@dataclass(frozen=True)
class Replay:
    """A checked replay file: the game seed, both seats' names, the choices made, and the saved outcome."""

    path: str
    seed: int
    seats: tuple[str, str]
    choices: tuple[Choice, ...]
    result: str | None
    winner: int | None
    #: the --cards / --decks / --rules paths the game was played with, as recorded (files are never opened
    #: because a replay names them: pass them to the viewer yourself; packaged deck names are used as they are)
    sources: dict[str, Any] | None = None
    #: whether the game was played with the mulligan (False for files saved before the mulligan existed)
    mulligan: bool = False
    #: the environment version and spec hash it was played under (None in files saved before they were recorded)
    env_version: str | None = None
    spec_hash: str | None = None

    def default_seat(self) -> int | None:
        """The seat a person played (the one seat named "you"), or None for a spectator's view of both hands."""
        human = [seat for seat, name in enumerate(self.seats) if name == HUMAN_NAME]
        return human[0] if len(human) == 1 else None


def replay_document(seed: int, seats: tuple[str, str] | list[str], choices: list[Choice] | tuple[Choice, ...],
                    game: Game, sources: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON document of a game played from ``Game.new(seed)`` with ``choices`` (``game`` gives the result);
    ``sources`` records the card, deck and rules files it was played with, if not the packaged ones."""
    from ..env.versions import env_record

    document = {"format": REPLAY_FORMAT, "seed": seed, "seats": list(seats),
                "choices": [[c.kind.value, c.source, c.target] for c in choices],
                "result": game.result.value if game.result else None, "winner": game.winner,
                "mulligan": game.state.rules.mulligan, **env_record()}
    if sources:
        document["data"] = sources
    return document


def save_replay(path: str | Path, seed: int, seats: tuple[str, str] | list[str],
                choices: list[Choice] | tuple[Choice, ...], game: Game, sources: dict[str, Any] | None = None) -> Path:
    """Write a replay file (see the module docstring) and return its path."""
    target = Path(path)
    document = replay_document(seed, seats, choices, game, sources)
    target.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    return target


def load_replay(path: str | Path) -> Replay:
    """Read and check a replay file; a missing or malformed field raises ``ValueError`` naming the file and field.

    Files are bounded like saved games: at most ``MAX_REPLAY_BYTES``, seat names of at most ``MAX_NAME_CHARS``.
    """
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_REPLAY_BYTES + 1)
        if len(raw) > MAX_REPLAY_BYTES:
            raise ValueError(f"cannot read replay {str(path)!r}: larger than {MAX_REPLAY_BYTES:,} bytes")
        document = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError(f"cannot read replay {str(path)!r}: nested too deeply to be a replay") from None
    except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
        if str(error).startswith("cannot read replay"):
            raise
        raise ValueError(f"cannot read replay {str(path)!r}: {shown(str(error))}") from None
    return parse_replay(document, str(path))


def parse_replay(document: object, where: str = "<replay>") -> Replay:
    """Check an already-parsed replay document (``where`` names it in errors)."""
    if not isinstance(document, dict) or document.get("format") != REPLAY_FORMAT:
        raise ValueError(f"{where!r} is not a ccg-env replay (expected \"format\": \"{REPLAY_FORMAT}\")")
    seed, seats, choices = document.get("seed"), document.get("seats"), document.get("choices")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"replay {where!r}: \"seed\" must be an integer game seed, got {shown(seed)}")
    if not (isinstance(seats, list) and len(seats) == 2 and all(isinstance(name, str) and
                                                                0 < len(name) <= MAX_NAME_CHARS for name in seats)):
        raise ValueError(f"replay {where!r}: \"seats\" must be the two seats' names (1 to {MAX_NAME_CHARS} "
                         f"characters each), got {shown(seats)}")
    if not isinstance(choices, list):
        raise ValueError(f"replay {where!r}: \"choices\" must be a list of [kind, source, target], got {shown(choices)}")
    parsed = [_parse_choice(entry, number, where) for number, entry in enumerate(choices)]
    result, winner = document.get("result"), document.get("winner")
    if result is not None and (not isinstance(result, str) or result not in _RESULTS):
        raise ValueError(f"replay {where!r}: \"result\" must be one of {sorted(_RESULTS)} or null, got "
                         f"{shown(result)}")
    if winner not in (0, 1, None) or isinstance(winner, bool):
        raise ValueError(f"replay {where!r}: \"winner\" must be 0, 1 or null, got {shown(winner)}")
    sources = _parse_sources(document.get("data"), where)
    mulligan = document.get("mulligan", False)
    if not isinstance(mulligan, bool):
        raise ValueError(f"replay {where!r}: \"mulligan\" must be true or false, got {shown(mulligan)}")
    env_version, spec_hash = _parse_env(document, where)
    return Replay(where, seed, (seats[0], seats[1]), tuple(parsed), result, winner, sources, mulligan, env_version,
                  spec_hash)


def _parse_env(document: dict, where: str) -> tuple[str | None, str | None]:
    """The recorded environment version and spec hash: both or neither, a version name and 64 hex digits."""
    from ..env.versions import is_version_name

    version, digest = document.get("env_version"), document.get("spec_hash")
    if version is None and digest is None:
        return None, None
    if not is_version_name(version) or not (isinstance(digest, str) and len(digest) == 64
                                            and all(c in "0123456789abcdef" for c in digest)):
        raise ValueError(f"replay {where!r}: \"env_version\" and \"spec_hash\" must be an environment version such "
                         f"as 'v1' and 64 lowercase hex digits, got {shown(version)} and {shown(digest)}")
    return version, digest


def _parse_sources(sources: object, where: str) -> dict[str, Any] | None:
    """The recorded data files: ``{"cards": [path, ...], "decks": [spec, ...], "rules": path}``, entries optional."""
    if sources is None:
        return None
    if not isinstance(sources, dict):
        raise ValueError(f"replay {where!r}: \"data\" must map cards and decks to lists of paths and rules to a "
                         f"path, got {shown(sources)}")
    fits = set(sources) <= set(_SOURCE_KINDS) and all(
        value is None or (_is_path(value) if kind == "rules" else isinstance(value, list) and
                          1 <= len(value) <= MAX_SOURCE_FILES and all(_is_path(item) for item in value))
        for kind, value in sources.items())
    if not fits:
        raise ValueError(f"replay {where!r}: \"data\" must map cards and decks to lists of paths and rules to a "
                         f"path (each at most {MAX_PATH_CHARS} characters), got {shown(sources)}")
    return sources


def _is_path(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_PATH_CHARS


def _parse_choice(entry: object, number: int, where: str) -> Choice:
    if not (isinstance(entry, list) and len(entry) == 3):
        raise ValueError(f"replay {where!r}: choice {number} must be [kind, source, target], got {shown(entry)}")
    kind, source, target = entry
    if not isinstance(kind, str) or kind not in _KINDS:
        raise ValueError(f"replay {where!r}: choice {number} has kind {shown(kind)}; expected one of "
                         f"{sorted(_KINDS)}")
    for name, value in (("source", source), ("target", target)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"replay {where!r}: choice {number}'s {name} must be a card uid or null, got "
                             f"{shown(value)}")
    return Choice(_KINDS[kind], source, target)


def replay_games(replay: Replay, data: GameData | None = None) -> Iterator[tuple[int, Game]]:
    """Yield (step, game) for the game after 0, 1, ... len(choices) choices: one game, advanced in place.

    Raises:
        ValueError: a choice is illegal in the replayed game, or the end differs from the saved result (the
            file was saved with other cards or rules, or edited).
    """
    kwargs = data.game_kwargs() if data is not None else {}
    packaged = recorded_packaged_decks(replay)
    if packaged and kwargs.get("decks") is None:
        kwargs["decks"] = [packaged[0], packaged[-1]]
    kwargs["rules"] = dataclasses.replace(resolve_rules(kwargs.get("rules")), mulligan=replay.mulligan)
    game = Game.new(replay.seed, **kwargs)
    hint = _data_hint(replay, data)
    yield 0, game
    for number, choice in enumerate(replay.choices):
        try:
            game.apply(choice)
        except IllegalActionError as error:
            raise ValueError(f"replay {replay.path!r}: choice {number} ({list(choice)}) cannot be replayed: {error} "
                             f"({hint})") from None
        yield number + 1, game
    saved = (replay.result, replay.winner)
    replayed = (game.result.value if game.result else None, game.winner)
    if saved != replayed:
        raise ValueError(f"replay {replay.path!r}: the file says result {saved[0]!r}, winner {saved[1]!r}, but "
                         f"replaying its choices gives result {replayed[0]!r}, winner {replayed[1]!r} ({hint})")


def recorded_packaged_decks(replay: Replay) -> list[str] | None:
    """The replay's recorded decks (one for both seats, or seat 0's and seat 1's) if all are packaged deck names."""
    decks = (replay.sources or {}).get("decks")
    packaged = default_deck_paths()
    if isinstance(decks, list) and 1 <= len(decks) <= 2 and all(isinstance(d, str) and d in packaged for d in decks):
        return list(decks)
    return None


def _data_hint(replay: Replay, data: GameData | None) -> str:
    """What probably went wrong when a replay does not replay: other data files, or an edited file."""
    recorded = {k: v for k, v in (replay.sources or {}).items() if v}
    given = {k: v for k, v in ((data.sources or {}) if data is not None else {}).items() if v}
    if "decks" not in given and recorded_packaged_decks(replay):
        given["decks"] = recorded["decks"]  # used as recorded
    if recorded and recorded != given:
        files = "; ".join(f"{kind}: {shown(value)}" for kind, value in recorded.items())
        options = " ".join(f"--{kind}" for kind in recorded)
        return (f"the file records that it was played with other data ({files}); if you have those files and "
                f"trust them, give them with {options}")
    return "was it played with other cards, decks or rules, or edited?"


def build_frames(replay: Replay, seat: int | None = None, data: GameData | None = None) -> list[dict[str, Any]]:
    """One JSON-ready frame per step (the start, then after each choice), seen by ``seat`` or a spectator (None).

    A seat's frames show its own hand and secrets and the enemy's as counts; a spectator's show both hands.
    """
    if seat not in (0, 1, None):
        raise ValueError(f"seat must be 0, 1 or None (spectator), got {seat!r}")
    frames = []
    log_seen = 0
    for step, game in replay_games(replay, data):
        words = GameView(game, seat).log_words(replay.seats) if seat is not None else LogWords(
            game, None, replay.seats)
        log = words.lines(log_seen, len(game.log))
        log_seen = len(game.log)
        frames.append(frame(game, seat, replay.seats, step, log))
    return frames


def frame(game: Game, seat: int | None, names: tuple[str, str], step: int,
          log: list[tuple[int, str]]) -> dict[str, Any]:
    """The game now, as a seat (or a spectator) sees it, with the log lines of the last step."""
    if seat is None:
        sides = [GameView(game, index).own for index in (0, 1)]
    else:
        view = GameView(game, seat)
        sides = [view.own, view.enemy] if seat == 0 else [view.enemy, view.own]
    state = game.state
    current = state.current
    return {
        "step": step,
        "turn": state.turn,
        "player_turn": player_turn(state.turn, current),
        "current": current,
        "over": game.is_over,
        "mulligan": game.in_mulligan,
        "result": state.result.value if state.result else None,
        "winner": state.winner,
        "headline": next((text for depth, text in log if depth == 0), "(no action)"),
        "log": [{"depth": depth, "text": text} for depth, text in log],
        "sides": [_side(side, names[side.index], seat is None or side.index == seat) for side in sides],
    }


def _side(side: SideView, name: str, visible: bool) -> dict[str, Any]:
    hero = side.hero
    return {
        "seat": side.index,
        "name": name,
        "hero": {"uid": hero.uid, "name": hero.name, "health": max(hero.health, 0), "max_health": hero.max_health,
                 "armor": hero.armor, "attack": hero.attack, "frozen": hero.frozen, "defeated": hero.health <= 0,
                 "class": side.hero_class.value},
        "hero_power": _hero_power(side),
        "weapon": _card(side.weapon) if side.weapon else None,
        "mana": side.mana,
        "max_mana": side.max_mana,
        "deck_size": side.deck_size,
        "fatigue": side.fatigue,
        "hand_size": side.hand_size,
        "hand": [_card(card) for card in side.hand] if visible else None,
        "marked": list(side.marked) if visible else None,  # hand cards marked to put back in the mulligan
        "secret_count": side.secret_count,
        "secrets": [card.name for card in side.secrets] if visible else None,
        "battlefield": [_card(card) for card in side.battlefield],
    }


def _hero_power(side: SideView) -> dict[str, Any] | None:
    """The side's hero power (None for the plain hero): name, cost, text and uses this turn of its limit."""
    power = side.hero_power
    if power is None:
        return None
    return {"uid": power.uid, "name": power.name, "cost": power.cost, "text": power.definition.text,
            "uses": side.hero_power_uses, "uses_per_turn": power.definition.uses_per_turn}


def _card(card: CardView) -> dict[str, Any]:
    return {"uid": card.uid, "name": card.name, "type": card.card_type.value, "cost": card.cost,
            "attack": card.attack, "health": card.health, "max_health": card.max_health,
            "durability": card.durability, "keywords": keyword_names(card.keywords),
            "sleeping": card.sleeping, "frozen": card.frozen, "text": card.definition.text}
