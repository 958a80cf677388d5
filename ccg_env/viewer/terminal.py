"""``ccg-env replay``: a saved game in the terminal, one decision at a time (Enter next, b back, q quit).

The whole file is checked and replayed through the engine before anything is shown, so a malformed or edited
file is reported at once; control characters in the file's names are shown as escapes; each page is the board after one decision, drawn by
:func:`~ccg_env.env.render.render_text` from the chosen seat, with that decision's reactions in words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from ..env.render import render_text
from ..terminal_text import TerminalSafeStream
from ..engine.view import GameView
from .replay import load_replay, replay_games

if TYPE_CHECKING:
    from ..cli_data_options import GameData

PROMPT = "[Enter] next, b back, q quit: "


def replay_pages(path: str, seat: int, data: GameData | None = None) -> list[str]:
    """One page of text per step of the replay at ``path``, seen from ``seat`` (step 0 is the opening deal)."""
    replay = load_replay(path)
    pages = []
    seen = 0
    total = len(replay.choices)
    for step, game in replay_games(replay, data):
        words = GameView(game, seat).log_words(replay.seats).lines(seen, len(game.log))
        headline = next((text for depth, text in words if depth == 0), "(no action)")
        title = "the start" if step == 0 else f"decision {step} of {total}"
        board = render_text(game, seat, names=replay.seats, since=seen)
        pages.append(f"--- {title}: {headline}\n{board}")
        seen = len(game.log)
    return pages


def replay_in_terminal(path: str, seat: int, *, step: bool, stdin: TextIO, stdout: TextIO,
                       data: GameData | None = None) -> int:
    """Show the replay: every page at once (``step`` False), or one page per Enter, b back, q (or end of input) quits."""
    pages = replay_pages(path, seat, data)
    stdout = TerminalSafeStream(stdout)  # names from the replay and card files are shown, never sent as controls
    if not step:
        stdout.write("\n".join(pages) + "\n")
        return 0
    index = 0
    show = True
    while True:
        if show:
            stdout.write(pages[index] + "\n")
            if index == len(pages) - 1:
                stdout.write("(the last decision: Enter or q ends the replay, b goes back)\n")
        stdout.write(PROMPT)
        stdout.flush()
        line = stdin.readline()
        if not line:
            stdout.write("\n")
            return 0
        if not _is_terminal(stdin):  # a terminal echoes the key; scripted input is echoed here instead
            stdout.write(line if line.endswith("\n") else line + "\n")
        key = line.strip().lower()
        show = True
        if key in ("q", "quit", "exit"):
            return 0
        if key in ("", "n", "next"):
            if index == len(pages) - 1:
                return 0
            index += 1
        elif key in ("b", "back"):
            if index == 0:
                stdout.write("(this is the start of the game)\n")
                show = False
            else:
                index -= 1
        else:
            stdout.write(f"{line.strip()!r}: press Enter for the next decision, b to go back, q to quit\n")
            show = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or file-like stream without isatty
        return False
