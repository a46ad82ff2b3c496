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

import inspect
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from functools import lru_cache
from http import HTTPStatus
from importlib import resources
from urllib.parse import parse_qs, unquote

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from server.errors import ClientError, StoreError
from server.players.throttle import Buckets, Rate
from server.ratings.board import MAX_LIMIT, BoardQuery
from server.wire import frames

log = logging.getLogger(__name__)

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

ProcessRequest = Callable[[ServerConnection, Request], Response | Awaitable[Response | None] | None]


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


def chain(
    *hooks: ProcessRequest,
) -> Callable[[ServerConnection, Request], Awaitable[Response | None]]:
    """One ``process_request`` hook that asks each of ``hooks`` (functions or coroutine
    functions) in turn."""

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        for hook in hooks:
            response = hook(connection, request)
            if inspect.isawaitable(response):
                response = await response
            if response is not None:
                return response
        return None

    return process_request


# -- the JSON API: GET /api/leaderboard and /api/player/NAME (docs/ratings.md) -------------

API_PREFIX = "/api/"
#: the parameters of ``GET /api/leaderboard``
BOARD_PARAMETERS = ("game", "rules", "pool", "limit")
#: HTTP statuses of the error codes the API answers with (anything else: 400)
API_STATUS = {
    "no_such_player": HTTPStatus.NOT_FOUND,
    "not_found": HTTPStatus.NOT_FOUND,
    "busy": HTTPStatus.SERVICE_UNAVAILABLE,
}


#: ``/api/*`` requests per address: a burst of 30, then 4 a second
API_RATE = Rate(burst=30, every=0.25)
#: at most this many addresses' buckets are kept (full ones are forgotten first)
API_MAX_ADDRESSES = 10_000


def _address(connection: ServerConnection) -> str:
    """The peer's IP address (its port left out)."""
    remote = connection.remote_address
    return str(remote[0]) if isinstance(remote, tuple) and remote else str(remote)


class Api:
    """``GET /api/leaderboard?game=G&rules=R&pool=human|bot&limit=N`` and
    ``GET /api/player/NAME``: the ``leaderboard`` and ``profile`` frames as JSON, read by
    the functions the server hands in. A bad parameter is answered 400, an unknown player
    or path 404, each with ``{"error": code, "message": text}``."""

    def __init__(
        self,
        leaderboard: Callable[[BoardQuery], Awaitable[frames.LeaderboardFrame]],
        profile: Callable[[str], Awaitable[frames.ProfileFrame]],
        keys: Callable[[], Awaitable[frames.SigningKeysFrame]] | None = None,
        rate: Rate = API_RATE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.leaderboard = leaderboard
        self.profile = profile
        self.keys = keys
        #: per-address token buckets: the API is unauthenticated and answered before the
        #: per-address connection limit, so it has its own small limit (429 when spent)
        self.buckets = Buckets(rate, API_MAX_ADDRESSES)
        self.clock = clock

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """Answer a ``GET`` under ``/api/``; let anything else through."""
        path, _, query = request.path.partition("?")
        if (
            not path.startswith(API_PREFIX)
            or "websocket" in request.headers.get("Upgrade", "").lower()
        ):
            return None
        address = _address(connection)
        now = self.clock()
        if self.buckets.level(address, now) < 1:
            body = {"error": "rate_limited", "message": "too many API requests: wait a second"}
            return _json(connection, HTTPStatus.TOO_MANY_REQUESTS, body)
        self.buckets.take(address, now)
        try:
            frame = await self._answer(path.removeprefix(API_PREFIX), query)
        except ClientError as exc:
            status = API_STATUS.get(exc.code, HTTPStatus.BAD_REQUEST)
            return _json(connection, status, {"error": exc.code, "message": exc.message})
        except StoreError:
            log.warning("the store failed answering %s", path, exc_info=True)
            body = {"error": "busy", "message": "the server cannot answer now: ask again"}
            return _json(connection, HTTPStatus.SERVICE_UNAVAILABLE, body)
        response = connection.respond(HTTPStatus.OK, "")
        response.body = frames.encode(frame) + b"\n"
        _api_headers(response, len(response.body))
        return response

    async def _answer(self, path: str, query: str) -> frames.Reply:
        if path == "leaderboard":
            return await self.leaderboard(board_query(query))
        if path == "signing-keys" and self.keys is not None:
            return await self.keys()
        if path.startswith("player/"):
            try:
                name = unquote(path.removeprefix("player/"), errors="strict")
            except (UnicodeDecodeError, ValueError):  # not UTF-8 (%ff, a lone surrogate)
                raise ClientError("bad_name", "a player's name is UTF-8 text") from None
            if query or not 0 < len(name) <= 64 or "/" in name or not name.isprintable():
                raise ClientError("bad_name", f"not a player's name: {name!r}")
            return await self.profile(name)
        raise ClientError("not_found", f"no such API: /api/{path}")


def board_query(query: str) -> BoardQuery:
    """A leaderboard query from its URL query string (ClientError when it is bad)."""
    try:
        params = parse_qs(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise ClientError("bad_options", f"not a query string: {query!r}") from None
    unknown = sorted(set(params) - set(BOARD_PARAMETERS))
    if unknown:
        raise ClientError(
            "bad_options",
            f"unknown parameter {unknown[0]!r}: the parameters are {', '.join(BOARD_PARAMETERS)}",
        )
    repeated = sorted(name for name, values in params.items() if len(values) > 1)
    if repeated:
        raise ClientError("bad_options", f"parameter {repeated[0]!r} given twice")
    one = {name: values[0] for name, values in params.items()}
    if not one.get("game"):
        raise ClientError("bad_options", "the parameter game is required")
    limit_text = one.get("limit", str(MAX_LIMIT))
    if not limit_text.isdigit() or len(limit_text) > 4:
        raise ClientError("bad_options", f"limit must be 1 to {MAX_LIMIT}, not {limit_text!r}")
    return BoardQuery.check(
        one["game"][:32], one.get("rules") or None, one.get("pool", "human"), int(limit_text)
    )


def _json(connection: ServerConnection, status: HTTPStatus, body: dict[str, str]) -> Response:
    response = connection.respond(status, "")
    response.body = json.dumps(body).encode() + b"\n"
    _api_headers(response, len(response.body))
    return response


def _api_headers(response: Response, length: int) -> None:
    for name, value in (
        ("Content-Type", "application/json"),
        ("Content-Length", str(length)),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-cache"),
        ("Access-Control-Allow-Origin", "*"),
    ):
        if name in response.headers:
            del response.headers[name]
        response.headers[name] = value
