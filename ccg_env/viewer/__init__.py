"""Watch saved games: a self-contained HTML viewer built by replaying a game file through the engine.

``write_html("game.json", "game.html")`` writes one page (inline CSS and JavaScript, nothing fetched) that
steps through the game: heroes, mana, hands, minions, secret counts and each action's reaction tree.
"""

from .html import error_html, render_html, write_html
from .replay import REPLAY_FORMAT, Replay, build_frames, load_replay, parse_replay

__all__ = ["REPLAY_FORMAT", "Replay", "build_frames", "error_html", "load_replay", "parse_replay", "render_html",
           "write_html"]
