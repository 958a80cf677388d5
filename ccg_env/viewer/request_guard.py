"""The checks every request to ``ccg-env serve`` passes before it reaches the game: a local server is reachable from
any page the person's browser opens (a rebinding domain, a cross-site ``fetch`` or form), so the Host must name this
server, an Origin must be its own, bodies are bounded, and a state-changing request needs a JSON body (which a
cross-site form cannot send) and the page's per-session token."""

from __future__ import annotations

import hmac
from typing import Any

from ..engine.errors import shown

#: The names a loopback server answers to; a server bound to another address also answers to that address.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: The largest request body accepted (an action is a few dozen bytes).
MAX_REQUEST_BYTES = 4096
#: The header carrying the page's per-session token on state-changing requests.
TOKEN_HEADER = "X-CCG-Token"


def refused_request(request: Any, hosts: tuple[str, ...], token: str) -> tuple[str, int] | None:
    """Why a request is refused (message, HTTP status), or None if it may go on."""
    host = _host_name(request.host)
    if host not in hosts:
        return f"this server answers to {', '.join(hosts)}, not to the host {shown(request.host)}", 403
    origin = request.headers.get("Origin")
    if origin is not None and _origin_host(origin) not in hosts:
        return f"requests from {shown(origin)} are refused: only this server's own page may call it", 403
    if (request.content_length or 0) > MAX_REQUEST_BYTES:
        return f"a request body of at most {MAX_REQUEST_BYTES:,} bytes is accepted", 413
    if request.method not in ("GET", "HEAD"):
        if request.mimetype != "application/json":
            return "a state-changing request must send a JSON body (Content-Type: application/json)", 415
        if not hmac.compare_digest(request.headers.get(TOKEN_HEADER, "").encode(), token.encode()):
            return f"a state-changing request must carry this session's token ({TOKEN_HEADER})", 403
    return None


def _host_name(host: str) -> str:
    """The name in a Host header, without the port (``[::1]:8765`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _origin_host(origin: str) -> str | None:
    """The host name of an Origin header (``http://localhost:8765`` -> ``localhost``), None for another scheme."""
    scheme, sep, rest = origin.strip().lower().partition("://")
    if not sep or scheme != "http":
        return None
    return _host_name(rest.split("/", 1)[0])
