"""The server side of the browser client: static files, CSP, the Origin check, chat."""

from __future__ import annotations

import asyncio
import re
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus

from server.net.app import Limits, UmpireServer
from server.net.web import WebClient, static_file
from tests.server.conftest import ServerFactory
from tests.server.wsclient import WsClient


def _get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as reply:
            return reply.status, dict(reply.headers), reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


async def test_index_is_served_with_a_strict_csp(make_server: ServerFactory) -> None:
    server = await make_server()
    status, headers, body = await asyncio.to_thread(_get, server.port, "/")
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert f"ws://127.0.0.1:{server.port}" in policy
    assert b'<script type="module" src="/js/main.js"></script>' in body
    status, headers, body = await asyncio.to_thread(_get, server.port, "/js/state.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert b"export function" in body


def test_paths_outside_the_client_are_not_served() -> None:
    assert static_file("/../app.py") is None
    assert static_file("/js/../../app.py") is None
    assert static_file("/.hidden.js") is None
    assert static_file("/web.py") is None  # not a client file type
    assert static_file("/nope.js") is None
    assert static_file("/index.html?x=1") is not None


async def test_health_still_answers(make_server: ServerFactory) -> None:
    server = await make_server()
    status, _, _ = await asyncio.to_thread(_get, server.port, "/healthz")
    assert status == 200


def test_origin_rules() -> None:
    web = WebClient(["https://friends.example"])
    assert web.origin_allowed(None, "127.0.0.1:8765")  # bots send no Origin
    assert web.origin_allowed("http://127.0.0.1:8765", "127.0.0.1:8765")
    assert web.origin_allowed("https://friends.example/", "127.0.0.1:8765")
    assert not web.origin_allowed("https://evil.example", "127.0.0.1:8765")
    assert not web.origin_allowed("http://127.0.0.1:9999", "127.0.0.1:8765")
    assert WebClient(["*"]).origin_allowed("https://evil.example", "x")


async def test_websocket_from_a_foreign_origin_is_refused(make_server: ServerFactory) -> None:
    server = await make_server()
    with pytest.raises(InvalidStatus) as caught:
        await WsClient.open(server.port, origin="https://evil.example")
    assert caught.value.response.status_code == 403
    own = await WsClient.open(server.port, origin=f"http://127.0.0.1:{server.port}")
    await own.hello("ana")
    bot = await WsClient.open(server.port)  # no Origin header at all
    await bot.hello("bot", bot=True)
    await own.close()
    await bot.close()


async def _room_with_two_players_and_a_spectator(
    server: UmpireServer, **create: object
) -> tuple[str, WsClient, WsClient, WsClient]:
    ana, bob, eve = [await WsClient.open(server.port) for _ in range(3)]
    for client, name in ((ana, "ana"), (bob, "bob"), (eve, "eve")):
        await client.hello(name)
    created = await ana.request(
        "create_room", "created", game="perudo", options={"seats": 3}, **create
    )
    room = created["room"]
    await bob.request("join", "joined", room=room)
    await eve.request("watch", "watching", room=room)
    return room, ana, bob, eve


async def test_chat_channels_and_text(make_server: ServerFactory) -> None:
    server = await make_server(limits=Limits(rate=1000, burst=1000))
    room, ana, bob, eve = await _room_with_two_players_and_a_spectator(server)
    markup = "<b>hi</b> & <script>alert(1)</script>"
    await ana.send(type="say", room=room, text=f"  {markup}  ")
    heard = await bob.expect("chat")
    assert heard == {
        "type": "chat",
        "room": room,
        "n": 1,
        "channel": "players",
        "seat": 0,
        "player": ana.player["id"],
        "name": "ana",
        "text": markup,
    }
    assert (await ana.expect("chat"))["text"] == markup
    await eve.send(type="say", room=room, text="spectators only")
    assert (await eve.expect("chat"))["channel"] == "spectators"
    # the players never hear the spectators, nor the spectator the players
    await ana.send(type="ping", ref=1)
    await ana.expect("pong")
    await eve.send(type="ping", ref=2)
    await eve.expect("pong")
    assert [f["text"] for f in ana.frames if f["type"] == "chat"] == [markup]
    assert [f["text"] for f in eve.frames if f["type"] == "chat"] == ["spectators only"]
    await ana.send(type="say", room=room, text="x" * 301)
    await ana.error("bad_message")
    await ana.send(type="say", room=room, text="bell\x07")
    await ana.error("bad_message")
    for client in (ana, bob, eve):
        await client.close()


async def test_chat_can_be_switched_off_and_is_rate_limited(make_server: ServerFactory) -> None:
    server = await make_server()
    room, ana, bob, eve = await _room_with_two_players_and_a_spectator(server, chat=False)
    frame = await ana.request("watch", "watching", room=room)
    assert frame["seat"] == 0
    await ana.send(type="say", room=room, text="hello")
    await ana.error("unsupported")
    other, *_ = await _room_with_two_players_and_a_spectator(server)
    await ana.request("join", "joined", room=other)
    for _ in range(5):
        await ana.send(type="say", room=other, text="spam")
    await ana.send(type="say", room=other, text="spam")
    await ana.error("rate_limited")
    for client in (ana, bob, eve):
        await client.close()


def test_every_client_file_ships_in_the_package() -> None:
    """pyproject's package-data globs cover every file of server/web (a non-editable
    install serves the same client)."""
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["server"]
    web = root / "server" / "web"
    files = [p.relative_to(root / "server").as_posix() for p in web.rglob("*") if p.is_file()]
    assert files
    for name in files:
        assert any(fnmatch(name, pattern) for pattern in globs), name
        assert static_file("/" + name.removeprefix("web/")) is not None, name


def test_allow_origin_is_a_repeatable_serve_flag() -> None:
    from server.cli import build_parser

    args = build_parser().parse_args(
        ["serve", "--allow-origin", "https://a.example", "--allow-origin", "https://b.example"]
    )
    assert args.allow_origin == ["https://a.example", "https://b.example"]
    assert build_parser().parse_args(["serve"]).allow_origin == []


def test_chat_text_rules() -> None:
    from server.errors import ClientError
    from server.roomcore.chat import clean_text

    assert clean_text("  two\nlines 👨‍👩‍👧 ") == "two\nlines 👨‍👩‍👧"
    for bad in ("", "   ", "x" * 301, "bell\x07", "evil\u202etxt.exe"):
        try:
            clean_text(bad)
        except ClientError as exc:
            assert exc.code == "bad_message"
        else:
            raise AssertionError(f"{bad!r} was accepted")


def test_the_idle_tab_icon_is_the_favicons_picture() -> None:
    """``attention.js`` draws the tab's icons as data: addresses (switching them never asks
    the server); the idle one must stay ``favicon.svg``'s picture, which the page loads
    first, or the tab's icon would change the first time a turn comes and goes."""
    served_script, served_icon = static_file("/js/attention.js"), static_file("/favicon.svg")
    assert served_script is not None and served_icon is not None
    script = served_script[0].decode()
    dots = "".join(re.findall(r"'([^']*)'", script.split("const DOTS =", 1)[1].split(";", 1)[0]))
    frame = re.search(r"`(<svg [^`$]*)\$\{inside\}(</svg>)`", script)
    assert frame is not None and dots
    assert frame.group(1) + dots + frame.group(2) == served_icon[0].decode().strip()
