"""The browser client: static files and the websocket's ``Origin`` check.

:class:`WebClient` plugs into the ``process_request`` hook of ``websockets.serve`` (after
:meth:`server.ops.metrics.Metrics.process_request`). A plain HTTP ``GET`` of ``/`` or of a file
under ``server/web/`` is answered there with a strict Content-Security-Policy; a websocket
upgrade whose ``Origin`` header is not allowed is refused with 403 before the handshake.
Connections without an ``Origin`` header (bots, the terminal client) are never refused:
browsers always send one, so the check is what stops another site's page from driving a
player's session. Everything is read from the package (``importlib.resources``), so a
non-editable ``pip install`` serves the same files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from http import HTTPStatus
from importlib import resources

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

#: content types of the files the client is made of (anything else is not served)
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}

ProcessRequest = Callable[[ServerConnection, Request], Response | None]


def csp(host: str) -> str:
    """The Content-Security-Policy of every page: no inline script, no foreign origin.

    ``connect-src`` names the websocket of the page's own host explicitly (``'self'`` does
    not cover ``ws:`` in every browser)."""
    return "; ".join(
        [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            f"connect-src 'self' ws://{host} wss://{host}",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )


@lru_cache(maxsize=64)
def _read(name: str) -> bytes | None:
    node = resources.files("server").joinpath("web")
    for part in name.split("/"):
        node = node.joinpath(part)
    try:
        return node.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return None


def static_file(path: str) -> tuple[bytes, str] | None:
    """The body and content type of the client file at URL ``path``, or None."""
    name = path.split("?", 1)[0].split("#", 1)[0].lstrip("/") or "index.html"
    parts = name.split("/")
    if any(part in ("", ".", "..") or part.startswith(".") for part in parts):
        return None
    dot = name.rfind(".")
    kind = CONTENT_TYPES.get(name[dot:]) if dot > 0 else None
    if kind is None:
        return None
    body = _read(name)
    return None if body is None else (body, kind)


class WebClient:
    """Serves the browser client and checks the ``Origin`` of websocket upgrades.

    ``allow_origins``: extra origins allowed to open a websocket (``"*"``: any). The
    server's own origin (``http://`` or ``https://`` plus the request's ``Host``) is
    always allowed."""

    def __init__(self, allow_origins: Iterable[str] = ()) -> None:
        self.allow_origins = frozenset(o.rstrip("/").lower() for o in allow_origins)

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """Whether a websocket upgrade from ``origin`` to ``host`` may proceed."""
        if origin is None or "*" in self.allow_origins:
            return True
        origin = origin.rstrip("/").lower()
        if host and origin in (f"http://{host.lower()}", f"https://{host.lower()}"):
            return True
        return origin in self.allow_origins

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer a plain ``GET`` of a client file; refuse a websocket from a foreign origin."""
        headers = request.headers
        host = headers.get("Host")
        if "websocket" in headers.get("Upgrade", "").lower():
            if self.origin_allowed(headers.get("Origin"), host):
                return None
            return connection.respond(HTTPStatus.FORBIDDEN, "origin not allowed\n")
        found = static_file(request.path)
        if found is None:
            return None  # websockets answers 426 Upgrade Required
        body, kind = found
        response = connection.respond(HTTPStatus.OK, "")
        response.body = body
        for name, value in (
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Content-Security-Policy", csp(_safe_host(host))),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-cache"),
        ):
            if name in response.headers:
                del response.headers[name]
            response.headers[name] = value
        return response


def _safe_host(host: str | None) -> str:
    """``host`` if it is a plain host[:port] (it goes into a header), else ``localhost``."""
    if host and all(ch.isalnum() or ch in ".-:[]" for ch in host):
        return host
    return "localhost"


def chain(*hooks: ProcessRequest) -> ProcessRequest:
    """One ``process_request`` hook that asks each of ``hooks`` in turn."""

    def process_request(connection: ServerConnection, request: Request) -> Response | None:
        for hook in hooks:
            response = hook(connection, request)
            if response is not None:
                return response
        return None

    return process_request
