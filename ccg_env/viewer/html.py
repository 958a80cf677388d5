"""The self-contained HTML viewer of a saved game, and the error page shown for a game file that cannot be shown."""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .replay import Replay, build_frames, load_replay

if TYPE_CHECKING:
    from ..cli_data_options import GameData
from .template import ERROR_PAGE, SCRIPT, STYLE, VIEWER_PAGE, fill

#: The ``seat`` argument's spectator value: both hands shown.
SPECTATOR = None
_AUTO = "auto"


def render_html(replay: Replay, seat: int | None | str = _AUTO, title: str | None = None,
                data: GameData | None = None) -> str:
    """The viewer page of ``replay``: every step's frame, embedded as JSON, drawn by inline JavaScript.

    Args:
        replay: a checked replay (see :func:`~ccg_env.viewer.replay.load_replay`).
        seat: whose view to show, 0 or 1 (own hand, enemy hand as a count), None for a spectator (both hands),
            or "auto": the seat a person played in the file, else a spectator.
        title: the page title (default: the seats' names and the file name).
        data: the rules, cards and decks the game was played with (default: the packaged ones).
    """
    chosen = replay.default_seat() if seat == _AUTO else seat
    if chosen not in (0, 1, None):
        raise ValueError(f"seat must be 0, 1, None (spectator) or 'auto', got {seat!r}")
    frames = build_frames(replay, chosen, data)
    heading = title or f"{replay.seats[0]} vs {replay.seats[1]}: {Path(replay.path).name} (seed {replay.seed})"
    return fill(VIEWER_PAGE, STYLE=STYLE, SCRIPT=SCRIPT, TITLE=html.escape(heading),
                SEAT="" if chosen is None else str(chosen), GAME_DATA=_script_json(frames))


def error_html(message: str, hint: str = "Save games with 'ccg-env play --save game.json'.") -> str:
    """A page that says why a game cannot be shown (the message is escaped, never interpreted)."""
    return fill(ERROR_PAGE, STYLE=STYLE, HINT=html.escape(hint), MESSAGE=html.escape(message))


def write_html(game_file: str | Path, out: str | Path, seat: int | None | str = _AUTO,
               data: GameData | None = None) -> Path:
    """Check and replay ``game_file`` and write its viewer page to ``out``; return the path written.

    Nothing is written when the game file is malformed (``ValueError`` says what and where) or the output
    folder is missing; an existing ``out`` is replaced only by a complete page (written aside, then renamed).
    """
    target = Path(out)
    if target.is_dir():
        raise ValueError(f"output {str(out)!r} is a folder; give a file name such as game.html")
    if not target.resolve().parent.is_dir():
        raise ValueError(f"output {str(out)!r}: no folder {str(target.parent)!r} to write it in")
    if target.exists() and target.resolve() == Path(game_file).resolve():
        raise ValueError(f"output {str(out)!r} is the game file itself; give another name such as game.html")
    page = render_html(load_replay(game_file), seat, data=data)
    temporary = target.resolve().parent / f".{target.name}.{os.getpid()}.partial"
    try:
        with open(temporary, "w", encoding="utf-8") as stream:
            stream.write(page)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element: '<', '>' and '&' escaped, so no text can end the element."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
