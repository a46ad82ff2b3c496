"""The connection's write path (server/rooms/connection.py): the server frames its messages
itself and writes each connection's frames of one room job in one go."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from server.net.app import Limits, UmpireServer
from server.rooms.connection import Client, text_frames
from tests.server.conftest import ServerFactory
from tests.server.wsclient import RawSocket, WsClient


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_text_frames_parse_as_websockets_parses_them(size: int) -> None:
    texts = ["x" * size, "é" * 3, "{}"]
    reader = StreamReader()
    reader.feed_data(text_frames(texts))
    reader.feed_eof()
    parsed = []
    for _ in texts:
        parser = Frame.parse(reader.read_exact, mask=False)
        try:
            next(parser)
            raise AssertionError("the frame is incomplete")
        except StopIteration as done:
            frame = done.value
        assert frame.opcode is Opcode.TEXT and frame.fin
        parsed.append(frame.data.decode())
    assert parsed == texts
    assert reader.at_eof()


async def test_several_frames_go_out_in_order(server: UmpireServer) -> None:
    client = await WsClient.open(server.port)
    try:
        await client.hello("ana")  # the server side is surely open by now
        assert server._server is not None
        (ws,) = server._server.connections
        texts = [f'{{"type":"pong","ref":"{"r" * n}"}}' for n in (0, 1, 64)]
        texts.append('{"type":"pong","ref":2}')
        Client(ws, "test", 1 << 20).send_many(texts)
        assert [(await client.next()).get("ref") for _ in texts] == [
            json.loads(t)["ref"] for t in texts
        ]
        await client.send(type="ping", ref=7)  # the server's own frames still follow
        assert (await client.expect("pong"))["ref"] == 7
    finally:
        await client.close()


async def test_a_reader_too_slow_is_disconnected(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A client that never reads does not make the server hold its frames without bound:
    once more than ``max_backlog`` bytes wait for it, it is closed; others are served."""
    server = await make_server(
        Limits(rate=1e6, burst=1e6, max_backlog=32 * 1024, close_timeout=0.5)
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    slow = await _handshake(sock, server.port)
    try:
        slow.send_text(json.dumps({"type": "hello", "v": 1, "name": "slow"}))
        ping = json.dumps({"type": "ping", "ref": "r" * 64}).encode()
        # Pings whose pongs nobody reads, until the server drops the connection (the
        # kernel's buffers take a few MB first; 200,000 pongs are about 19 MB).
        for _ in range(200):
            for _ in range(1000):
                slow.send_frame(0x1, ping)
            try:
                await slow.writer.drain()
            except ConnectionError:
                break
            if any("reads too slowly" in r.getMessage() for r in caplog.records):
                break
        assert await slow.closed_within(10)
        assert any("reads too slowly" in r.getMessage() for r in caplog.records)
        other = await WsClient.open(server.port)
        try:
            await other.hello("ana")
        finally:
            await other.close()
    finally:
        slow.close()


async def _handshake(sock: socket.socket, port: int) -> RawSocket:
    """A :class:`RawSocket` over ``sock`` (already connected) after the opening handshake."""
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    status = await reader.readuntil(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 101"), status
    return RawSocket(reader, writer)
