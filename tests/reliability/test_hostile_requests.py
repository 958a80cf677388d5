"""Hostile requests to ``ccg-env serve``: the real command (waitress) in a child process, reached as other sites can.

A local server is reachable from any page the person's browser opens: a rebinding domain (another Host), a
cross-site ``fetch`` (another Origin), or a plain HTML form (no custom header, a form content type). Each is refused
with a one-line JSON error and leaves the game as it was; bodies are bounded, a repeated action applies once, and
the server's threads stay a fixed pool however many connections are opened.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("flask", reason="ccg-env serve needs Flask")
pytest.importorskip("waitress", reason="ccg-env serve needs waitress")
pytestmark = pytest.mark.subprocess_bounds  # child processes timed and measured

from ccg_env.viewer.request_guard import MAX_REQUEST_BYTES, TOKEN_HEADER  # noqa: E402
from ccg_env.viewer.server import CONNECTION_LIMIT, THREADS  # noqa: E402


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Served:
    """A ``ccg-env serve`` child process and requests to it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = _free_port()
        env = {**os.environ, "CCG_ENV_PURE_PYTHON": "1", "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ccg_env.cli", "serve", "--port", str(self.port), "--opponent", "random",
             "--seed", "3", "--save-dir", str(folder / "saved")], cwd=folder, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = self.process.stdout.readline()
        assert "playing at" in line, line + self.process.stdout.read(2000)
        page = self.request("GET", "/")[1]
        self.token = re.search(r'<meta name="ccg-token" content="([^"]+)">', page).group(1)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                ) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        finally:
            connection.close()

    def post(self, path: str, document: dict, **headers: str) -> tuple[int, dict]:
        base = {"Content-Type": "application/json", TOKEN_HEADER: self.token}
        status, text = self.request("POST", path, json.dumps(document).encode(), {**base, **headers})
        return status, json.loads(text)

    def state(self) -> dict:
        status, text = self.request("GET", "/api/state")
        assert status == 200, text
        return json.loads(text)

    def status_field(self, name: str) -> int:
        with open(f"/proc/{self.process.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith(name + ":"))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.process.stdout.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("served"))
    yield server
    server.stop()


def _one_line_error(text: str) -> str:
    error = json.loads(text)["error"]
    assert "\n" not in error and "Traceback" not in error and len(error) < 300
    return error


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "192.168.1.7:8765"])
def test_a_request_naming_another_host_is_refused_dns_rebinding(served, host):
    for path in ("/", "/api/state"):
        status, text = served.request("GET", path, headers={"Host": host})
        assert status == 403 and "this server answers to 127.0.0.1, localhost, ::1" in _one_line_error(text)


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:1234", "[::1]:80"])
def test_loopback_names_are_answered(served, host):
    status, _ = served.request("GET", "/api/state", headers={"Host": host})
    assert status == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "https://127.0.0.1", "null", "file://"])
def test_a_request_from_another_origin_is_refused_even_with_the_token(served, origin):
    before = served.state()["version"]
    status, answer = served.post("/api/new", {"version": before}, Origin=origin)
    assert status == 403 and "only this server's own page may call it" in answer["error"]
    assert served.state()["version"] == before


def test_a_cross_site_form_post_cannot_reset_the_game(served):
    before = served.state()
    status, text = served.request("POST", "/api/new", b"version=" + str(before["version"]).encode(),
                                  {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415 and "must send a JSON body" in _one_line_error(text)
    status, text = served.request("POST", "/api/new", b"", {"Content-Type": "text/plain"})
    assert status == 415
    assert served.state()["version"] == before["version"] and served.state()["seed"] == before["seed"]


def test_a_json_post_without_the_token_is_refused(served):
    before = served.state()["version"]
    for token in ("", "guess", served.token[:-1]):
        status, answer = served.post("/api/new", {"version": before}, **{TOKEN_HEADER: token})
        assert status == 403 and "this session's token" in answer["error"]
    assert served.state()["version"] == before


def test_an_oversized_body_is_refused_before_it_is_read(served):
    before = served.state()["version"]
    status, text = served.request("POST", "/api/act", b"{" + b" " * (64 * MAX_REQUEST_BYTES) + b"}",
                                  {"Content-Type": "application/json", TOKEN_HEADER: served.token})
    assert status == 413
    assert served.state()["version"] == before


def test_a_chunked_body_without_a_length_is_bounded_too(served):
    before = served.state()["version"]
    head = (f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"{TOKEN_HEADER}: {served.token}\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    chunk = b"1000\r\n" + b" " * 4096 + b"\r\n"  # 1 MB in 4 KB chunks, no Content-Length
    answer = b""
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as connection:
        try:
            connection.sendall(head + chunk * 256 + b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading at its limit and closed the connection
        try:
            answer = connection.recv(1024)
        except ConnectionResetError:
            pass
    assert answer == b"" or answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert served.state()["version"] == before


def test_an_action_posted_twice_is_applied_once(served):
    state = served.state()
    end_turn = next(move["id"] for move in state["moves"] if move["kind"] == "end_turn")
    status, first = served.post("/api/act", {"action": end_turn, "version": state["version"]})
    assert status == 200 and first["version"] > state["version"]
    status, second = served.post("/api/act", {"action": end_turn, "version": state["version"]})
    assert status == 409 and "the game has moved on" in second["error"]
    assert second["state"]["version"] == first["version"] == served.state()["version"]


@pytest.mark.parametrize("body, message", [({"action": 0}, "version"), ({"action": 0, "version": "1"}, "version"),
                                           ({"action": 0, "version": True}, "version"), ([1, 2], "send JSON")])
def test_an_action_without_a_state_version_is_refused(served, body, message):
    before = served.state()["version"]
    status, answer = served.post("/api/act", body)
    assert status == 400 and message in answer["error"]
    assert served.state()["version"] == before


def test_many_connections_use_a_fixed_pool_of_threads(served):
    sockets = []
    try:
        for _ in range(3 * CONNECTION_LIMIT):
            connection = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            connection.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
            sockets.append(connection)
        time.sleep(1.0)
        assert served.status_field("Threads") <= THREADS + 4  # the pool, the main loop, and a few of Python's
    finally:
        for connection in sockets:
            connection.close()
    assert served.state()["version"] >= 1  # still answering


def test_the_server_stays_small_and_writes_only_its_save_folder(served):
    assert served.status_field("VmHWM") < 400_000  # kB: the interpreter, torch-free agents, the engine
    assert sorted(path.name for path in served.folder.iterdir()) in ([], ["saved"])
