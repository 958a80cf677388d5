"""``ccg-env serve``: play a game in the browser against an agent, on a small local web server (127.0.0.1 by default).

The page draws the board from the person's seat with the viewer's code and asks the server for the legal
moves, the env core's legal ids (:meth:`~ccg_env.env.core.EnvCore.legal_ids`, what every agent's mask holds), so the
browser offers exactly what an agent may choose. A click sends an action id; the server plays it through the core's
step (:meth:`~ccg_env.env.core.EnvCore.step`, which refuses an id the mask forbids), lets the opponent move through
:meth:`~ccg_env.env.core.EnvCore.play_until` until it is the person's turn again, and saves the game as a replay
file when it ends, viewable at ``/games/<name>``. The opponent is passed in as a
function (the command builds it from an agent spec), so this module needs no agent code.

Flask is the framework and waitress the server (a fixed pool of threads, bounded request sizes). A local server is
still reachable from any page the person's browser opens, so every request passes
:func:`~ccg_env.viewer.request_guard.refused_request` first (Host, Origin, size, JSON body and the page's session
token).
Each action names the state version it was chosen on, and one chosen on an older state (a double click, a second
tab) is refused instead of being applied to a board the person did not see.
"""

from __future__ import annotations

import html
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..engine import Choice, Game
from ..engine.choices import describe_choice
from ..env.codec import ActionCodec
from ..env.core import EnvCore, Match
from ..engine.view import GameView
from .html import error_html, render_html
from .replay import load_replay, save_replay, frame
from .request_guard import LOOPBACK_HOSTS, MAX_REQUEST_BYTES, TOKEN_HEADER, refused_request
from .template import BOARD_SCRIPT, STYLE, fill
from ..engine.errors import shown

if TYPE_CHECKING:
    from flask import Flask

    from ..cli_data_options import GameData

#: The opponent: given the game and its seat (on turn), its legal choice, which the core applies (the command wraps an
#: agent in ccg_env.agents.match.MatchRunner.decide, which checks it against the mask).
Opponent = Callable[[Game, int], Choice]
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,100}\.json$")
#: The server's worker threads (waitress), and the most connections it keeps open at once.
THREADS = 4
CONNECTION_LIMIT = 32


class StaleActionError(ValueError):
    """An action chosen on an older state than the game's current one (a double click, a second tab)."""


@dataclass
class PlaySession:
    """One game in progress between the person (``seat``) and the opponent, played through the env core (a core
    of ``data``'s rules, cards and decks that refuses a masked-out id); every call holds ``lock``."""

    seed: int
    seat: int
    names: tuple[str, str]
    opponent: Opponent
    save_dir: Path
    data: GameData | None = None
    core: EnvCore = field(init=False)
    match: Match = field(init=False)
    choices: list[Choice] = field(init=False)
    saved: str | None = field(init=False, default=None)
    version: int = field(init=False, default=0)
    lock: threading.Lock = field(init=False, default_factory=threading.Lock)
    _log_seen: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        data = self.data
        rules, cards, decks = (data.rules, data.cards, data.decks) if data is not None else (None, None, None)
        self.core = EnvCore(rules, cards, decks, illegal_action="raise", log=True)
        self.new_game(self.seed)

    @property
    def game(self) -> Game:
        """The engine game being played."""
        game = self.match.game
        assert game is not None  # a duel: the game exists from the start
        return game

    @property
    def codec(self) -> ActionCodec:
        """The core's action codec (what the ids stand for)."""
        return self.core.codec

    def new_game(self, seed: int) -> None:
        """Start a fresh game with ``seed`` (the opponent moves first if it has seat 0)."""
        self.seed = seed
        self.match = self.core.new_match(seed)
        self.choices = []
        self.saved = None
        self._log_seen = 0
        self.version += 1
        self._opponent_moves()

    def legal_ids(self) -> list[int]:
        """The person's legal action ids, the core's (empty when not on turn)."""
        match = self.match
        return sorted(self.core.legal_ids(match)) if match.current == self.seat else []

    def check_version(self, version: object) -> None:
        """Raise StaleActionError unless ``version`` is the state version now (what the page last drew)."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise ValueError(f"a request must name the state version it was chosen on, got {shown(version)}")
        if version != self.version:
            raise StaleActionError(f"this was chosen on state {version}, but the game has moved on to state "
                                   f"{self.version}: look at the board again")

    def act(self, action_id: object, version: object) -> None:
        """Play the person's action id, chosen on state ``version``, through the core's step; then let the
        opponent move.

        Raises:
            StaleActionError: ``version`` is not the current state version (nothing is applied).
            ValueError: not an integer id, the game is over, an id out of the action space or one the mask forbids
                (the core's refusal; nothing is applied).
        """
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise ValueError(f"an action must be an integer id, got {shown(action_id)}")
        self.check_version(version)
        match, core = self.match, self.core
        if match.is_over:
            raise ValueError("the game is over: start a new one")
        if match.current != self.seat:
            raise ValueError("it is not your turn")
        action_id = core.action_id(action_id)
        choice = core.legal_ids(match).get(action_id)
        core.step(match, action_id, "you")  # raises ValueError for an id the mask forbids
        assert choice is not None  # the step took it: a legal id
        self.choices.append(choice)
        self.version += 1
        self._opponent_moves()

    def _choose(self, game: Game, seat: int) -> Choice:
        """The opponent's choice, recorded for the replay (the core applies it)."""
        choice = self.opponent(game, seat)
        self.choices.append(choice)
        self.version += 1
        return choice

    def _opponent_moves(self) -> None:
        step = self.core.play_until(self.match, self.seat, self._choose)
        if step.result is not None and self.saved is None:
            self.saved = self._save()

    def _save(self) -> str:
        self.save_dir.mkdir(parents=True, exist_ok=True)
        name = f"game-{self.seed}-{time.strftime('%Y%m%d-%H%M%S')}-{self.version}.json"
        save_replay(self.save_dir / name, self.seed, self.names, self.choices, self.game,
                    self.data.sources if self.data is not None else None)
        return name

    def state(self, whole_log: bool = False) -> dict[str, Any]:
        """What the page draws: the board from the person's seat, the log since the page's last look (or the
        whole game's, for a page just opened), and the person's legal moves."""
        game = self.game
        log = GameView(game, self.seat).log_words(self.names).lines(0 if whole_log else self._log_seen)
        self._log_seen = len(game.log)
        legal = self.core.legal_ids(self.match)
        moves = []
        for action_id in self.legal_ids():
            choice = legal[action_id]
            moves.append({"id": action_id, "kind": choice.kind.value, "source": choice.source,
                          "target": choice.target, "text": describe_choice(game, choice)})
        return {"version": self.version, "frame": frame(game, self.seat, self.names, len(self.choices), log),
                "moves": moves, "saved": self.saved, "seed": self.seed}


def create_app(session: PlaySession, *, hosts: tuple[str, ...] = LOOPBACK_HOSTS, token: str | None = None) -> Flask:
    """The Flask app serving ``session``: the play page, its JSON API and the saved games' viewer pages.

    Args:
        session: the game in progress.
        hosts: the host names requests may address (the Host header) and come from (the Origin header).
        token: the per-session token state-changing requests must carry (default: a fresh random one).
    """
    from flask import Flask, Response, jsonify, request

    app = Flask("ccg_env.viewer.server")
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    secret = token or secrets.token_urlsafe(32)

    @app.before_request
    def guard() -> Any:
        """Refuse requests for other host names, from other origins, too large, or changing state without the
        token and a JSON body."""
        refused = refused_request(request, hosts, secret)
        if refused is not None:
            return jsonify({"error": refused[0]}), refused[1]
        return None

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    @app.get("/")
    def play_page() -> Response:
        page = fill(PLAY_PAGE, STYLE=STYLE, SCRIPT=BOARD_SCRIPT + PLAY_SCRIPT, SEAT=str(session.seat),
                    OPPONENT=html.escape(session.names[1 - session.seat]), TOKEN=html.escape(secret))
        return Response(page, mimetype="text/html")

    @app.get("/api/state")
    def state() -> Response:
        with session.lock:
            return jsonify(session.state(whole_log=request.args.get("log") == "all"))

    @app.post("/api/act")
    def act() -> Any:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or "action" not in body or "version" not in body:
            return jsonify({"error": "send JSON {\"action\": <action id>, \"version\": <state version>}"}), 400
        with session.lock:
            try:
                session.act(body["action"], body["version"])
            except StaleActionError as error:
                return jsonify({"error": str(error), "state": session.state()}), 409
            except ValueError as error:
                return jsonify({"error": str(error)}), 400
            return jsonify(session.state())

    @app.post("/api/new")
    def new_game() -> Any:
        body = request.get_json(silent=True)
        if not isinstance(body, dict) or "version" not in body:
            return jsonify({"error": "send JSON {\"version\": <state version>}"}), 400
        with session.lock:
            try:
                session.check_version(body["version"])
            except StaleActionError as error:
                return jsonify({"error": str(error), "state": session.state()}), 409
            except ValueError as error:
                return jsonify({"error": str(error)}), 400
            session.new_game(session.seed + 1)
            return jsonify(session.state())

    @app.get("/games/<name>")
    def view_game(name: str) -> Any:
        if not _SAFE_NAME.match(name):
            return _error(f"{name!r} is not a saved game's name (letters, digits, '.', '_', '-', ending in .json)",
                          404)
        path = session.save_dir / name
        if not path.is_file():
            return _error(f"no saved game {name!r} in {str(session.save_dir)!r}", 404)
        try:
            page = render_html(load_replay(path), session.seat, data=session.data)
        except ValueError as error:
            return _error(str(error), 422)
        return Response(page, mimetype="text/html")

    def _error(message: str, status: int) -> tuple[Response, int]:
        return Response(error_html(message), mimetype="text/html"), status

    return app


def serve(session: PlaySession, port: int = 8765, *, host: str = "127.0.0.1",
          ready: Callable[[str], None] | None = None) -> None:
    """Serve ``session`` on ``host``:``port`` (0 = any free port) with waitress until interrupted; ``ready`` gets the
    URL. A host other than a loopback one is answered too (the person chose to bind it)."""
    from waitress.server import create_server  # type: ignore[import-untyped]

    hosts = LOOPBACK_HOSTS if host in LOOPBACK_HOSTS else (*LOOPBACK_HOSTS, host.lower())
    server = create_server(create_app(session, hosts=hosts), host=host, port=port, threads=THREADS,
                           connection_limit=CONNECTION_LIMIT, max_request_body_size=MAX_REQUEST_BYTES,
                           channel_timeout=60, ident="ccg-env")
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{server.effective_port}/"
    if ready is not None:
        ready(url)
    try:
        server.run()
    finally:
        server.close()


PLAY_SCRIPT = """
let state = null;
let selected = null;  // the uid of the clicked card or minion whose targets are shown
const token = document.querySelector('meta[name="ccg-token"]').content;  // this session's, sent on every change

async function call(method, path, body) {
  const headers = {"Content-Type": "application/json"};
  if (method !== "GET") headers["X-CCG-Token"] = token;
  const response = await fetch(path, {method: method, headers: headers,
                                      body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.state = data.state;  // a stale request comes back with the state now
    throw error;
  }
  return data;
}

function refused(error) {
  if (error.state) show(error.state);
  report(error);
}

function show(data) {
  state = data;
  selected = null;
  draw();
  document.body.dataset.version = data.version;
}

function report(error) {
  document.getElementById("message").textContent = String(error.message || error);
}

function movesFrom(uid) { return state.moves.filter(m => m.source === uid); }

function draw() {
  const frame = state.frame;
  document.getElementById("status").textContent = statusText(frame);
  document.getElementById("board").replaceChildren(
    sideNode(frame.sides[1 - Number(document.body.dataset.seat)], frame, "top"),
    sideNode(frame.sides[Number(document.body.dataset.seat)], frame, "bottom"));
  const log = document.getElementById("log");
  for (const line of frame.log) {
    const item = el("li", "", line.text);
    item.dataset.depth = line.depth;
    item.style.paddingLeft = (line.depth * 14) + "px";
    log.append(item);
  }
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
  const endTurn = state.moves.find(m => m.kind === "end_turn");
  document.getElementById("end-turn").disabled = !endTurn;
  const saved = document.getElementById("saved");
  saved.replaceChildren();
  if (state.saved) {
    const link = el("a", "", "view the saved game (" + state.saved + ")");
    link.href = "/games/" + encodeURIComponent(state.saved);
    link.id = "saved-link";
    saved.append(link);
  }
  for (const node of document.querySelectorAll("#board [data-uid]")) {
    const uid = Number(node.dataset.uid);
    if (movesFrom(uid).length) node.classList.add("playable");
    node.addEventListener("click", () => clicked(uid));
  }
  document.getElementById("message").textContent = state.frame.over || !state.moves.length ? "" :
    state.frame.mulligan ? "Mulligan: click the cards to put back, then End turn to keep the rest." :
    "Click a glowing card or minion, then its target; or end your turn.";
}

function clicked(uid) {
  if (selected !== null) {
    const move = movesFrom(selected).find(m => m.target === uid);
    if (move) { act(move.id); return; }
  }
  const moves = movesFrom(uid);
  if (!moves.length) return;
  if (moves.length === 1 && moves[0].target === null) { act(moves[0].id); return; }
  selected = uid;
  for (const node of document.querySelectorAll(".targetable, .selected")) node.classList.remove("targetable", "selected");
  const targets = new Set(moves.map(m => m.target));
  for (const node of document.querySelectorAll("#board [data-uid]")) {
    const target = Number(node.dataset.uid);
    if (target === uid) node.classList.add("selected");
    else if (targets.has(target)) node.classList.add("targetable");
  }
  document.getElementById("message").textContent = "Now click a target (glowing red).";
}

async function act(id) {
  try { show(await call("POST", "/api/act", {action: id, version: state.version})); } catch (error) { refused(error); }
}

document.getElementById("end-turn").addEventListener("click", () => {
  const move = state.moves.find(m => m.kind === "end_turn");
  if (move) act(move.id);
});
document.getElementById("new-game").addEventListener("click", async () => {
  try {
    const data = await call("POST", "/api/new", {version: state.version});
    document.getElementById("log").replaceChildren();
    show(data);
  } catch (error) { refused(error); }
});
call("GET", "/api/state?log=all").then(show, report);
"""

PLAY_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'">
<meta name="ccg-token" content="__TOKEN__">
<title>ccg-env: play</title>
<style>__STYLE__
.playable { box-shadow: 0 0 0 3px #6fe36f; cursor: pointer; }
.selected { box-shadow: 0 0 0 3px #f2c14e; }
.targetable { box-shadow: 0 0 0 3px #ff5c5c !important; cursor: crosshair; }
.hero.targetable { border-radius: 6px; }
#message { color: #f2c14e; min-height: 1.3em; }
#saved a { color: #9fd4ff; }
</style>
</head>
<body data-seat="__SEAT__">
<header>
  <h1>ccg-env: you against __OPPONENT__</h1>
  <button id="end-turn" type="button">End turn</button>
  <button id="new-game" type="button">New game</button>
  <span id="saved"></span>
</header>
<main>
  <div>
    <div id="status"></div>
    <div id="message"></div>
    <div id="board"></div>
  </div>
  <aside id="log-panel"><h2>What happened</h2><ul id="log"></ul></aside>
</main>
<script>__SCRIPT__</script>
</body>
</html>
"""
