"""/healthz and /metrics over plain HTTP on the server's port, and structured logs."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from server.net.app import UmpireServer
from server.ops import logs
from tests.eventually import eventually, eventually_sync
from tests.ops.conftest import Broker, Subscriber, bot_room, test_bus
from tests.server.conftest import wait_state

ROOT = Path(__file__).resolve().parents[2]


def http_get(port: int, path: str) -> tuple[int, str, str]:
    """(status, content type, body) of a GET on loopback."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers["Content-Type"], exc.read().decode()


def sample(text: str, name: str) -> float:
    """The value of the metric line that starts with ``name`` (labels included)."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no sample {name} in:\n{text}")


async def test_healthz_and_metrics(make_feed_server: Any, connect: Any) -> None:
    server: UmpireServer = await make_feed_server()
    status, kind, body = await asyncio.to_thread(http_get, server.port, "/healthz")
    assert status == 200 and kind == "application/json"
    health = json.loads(body)
    assert health["status"] == "ok" and health["mqtt"] is None

    room_id, host = await bot_room(connect, server, seats=2)
    await wait_state(server, room_id, "finished")
    watcher = await connect(server, "watcher")
    await watcher.request("ping", "pong")
    # a player's own action goes through the app: accepted and refused
    await host.send(type="act", room=room_id, action="dudo")
    await host.error("not_seated")

    status, kind, text = await asyncio.to_thread(http_get, server.port, "/metrics")
    assert status == 200 and kind.startswith("text/plain")
    assert sample(text, "umpire_connections") == 2
    assert sample(text, "umpire_rooms") == 1
    assert sample(text, 'umpire_games{state="finished"}') == 1
    assert sample(text, 'umpire_games{state="playing"}') == 0
    assert sample(text, 'umpire_actions_total{result="refused"}') == 1
    assert sample(text, "umpire_action_latency_seconds_count") == 1
    assert sample(text, "umpire_store_write_seconds_count") > 10
    assert sample(text, "umpire_mqtt_messages_sent_total") == 0
    assert sample(text, "umpire_mqtt_messages_dropped_total") == 0
    assert "umpire_actions_per_second" in text

    # anything that is not a client file is still a websocket endpoint
    status, _, _ = await asyncio.to_thread(http_get, server.port, "/no-such-page")
    assert status == 426  # Upgrade Required


async def test_metrics_count_mqtt_messages(
    broker: Broker, subscriber: Subscriber, make_feed_server: Any, connect: Any
) -> None:
    server: UmpireServer = await make_feed_server(test_bus(broker.url))
    room_id, _ = await bot_room(connect, server, seats=2)
    await wait_state(server, room_id, "finished")
    await subscriber.wait_for(lambda: subscriber.on(f"results/{room_id}"))
    events = server.lobby.rooms[room_id].viewer_seq(None)
    await subscriber.wait_for(lambda: server.bus.sent > events, what="the acknowledgements")
    _, _, body = await asyncio.to_thread(http_get, server.port, "/healthz")
    assert json.loads(body)["mqtt"] is True
    _, _, text = await asyncio.to_thread(http_get, server.port, "/metrics")
    assert sample(text, "umpire_mqtt_messages_sent_total") > events
    assert sample(text, "umpire_mqtt_connected") == 1


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.addFilter(logs.ContextFilter())
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        # websockets' records hold their connection by a weak reference, gone once the
        # connection is collected: keep its request's path as it is now
        try:
            request = getattr(getattr(record, "websocket", None), "request", None)
        except ReferenceError:  # (already collected: a record of no request)
            request = None
        record.request_path = None if request is None else request.path
        self.records.append(record)


async def test_every_record_carries_conn_and_room(make_feed_server: Any, connect: Any) -> None:
    handler = _Records()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        server: UmpireServer = await make_feed_server()
        host = await connect(server, "host")
        created = await host.request(
            "create_room", "created", game="perudo", options={"seats": 2}, turn_time=0.1
        )
        room_id = created["room"]
        await host.request("add_bot", "bot_added", room=room_id, bot="autopilot")
        # the host never moves: the room's task logs the timeouts
        await eventually(
            lambda: any("timed out" in r.getMessage() for r in handler.records),
            what="a logged timeout",
        )
        await host.send(type="leave", room=room_id)  # stop its frames piling up unread
        await host.drain()

        async def in_a_connection() -> None:
            logs.bind(conn="c0ffee01")
            logging.getLogger("server.net.app").info("hello from a connection")

        await asyncio.create_task(in_a_connection())
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    timed_out = [r for r in handler.records if "timed out" in r.getMessage()]
    assert timed_out and all(r.room == room_id for r in timed_out)  # type: ignore[attr-defined]
    mine = [r for r in handler.records if r.getMessage() == "hello from a connection"]
    assert mine[0].conn == "c0ffee01"  # type: ignore[attr-defined]
    assert all(hasattr(r, "conn") and hasattr(r, "room") for r in handler.records)
    line = json.loads(logs.JsonFormatter().format(timed_out[0]))
    assert line["room"] == room_id and line["conn"] == "-" and line["level"] == "INFO"


def test_cli_serve_json_logs_and_mqtt(broker: Broker, tmp_path: Path) -> None:
    """``umpire serve --mqtt ... --log-format json`` starts, logs JSON lines, publishes."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--port",
            "0",
            "--db",
            str(tmp_path / "cli.db"),
            "--mqtt",
            broker.url,
            "--log-format",
            "json",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline().decode()
        assert "listening on" in line, line
        port = int(line.rsplit(":", 1)[1])

        def mqtt_connected() -> bool:  # the feed connects in the background
            status, _, body = http_get(port, "/healthz")
            assert status == 200
            connected: bool = json.loads(body)["mqtt"]
            return connected

        eventually_sync(mqtt_connected, interval=0.05, what="the MQTT feed's connection")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=15)
    assert proc.returncode == 0
    records = [json.loads(text) for text in err.decode().splitlines() if text.startswith("{")]
    assert records and all({"ts", "level", "conn", "room", "msg"} <= set(r) for r in records)
    assert any("mqtt feed: connected" in r["msg"] for r in records), records


async def test_health_checks_are_quiet_at_info(make_feed_server: Any) -> None:
    """A probe every few seconds must not write two INFO lines each (issue 32): they are
    DEBUG records, shown only when the log level is DEBUG."""
    handler = _Records()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        server: UmpireServer = await make_feed_server()
        for path in ("/healthz", "/metrics", "/healthz?probe=1"):
            status, _, _ = await asyncio.to_thread(http_get, server.port, path)
            assert status == 200
        await asyncio.to_thread(http_get, server.port, "/")  # the web client: still logged
        await eventually(
            lambda: any("HTTP response" in r.getMessage() for r in handler.records),
            what="the web page's log line",
        )
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    answered = [r for r in handler.records if r.name == "websockets.server"]
    paths = [r.__dict__["request_path"] for r in answered]  # (set by _Records.emit)
    assert all(p is None or p == "/" for p in paths), [r.getMessage() for r in answered]
    assert len([r for r in answered if "HTTP response" in r.getMessage()]) == 1


def test_the_log_goes_to_the_stderr_of_the_moment(monkeypatch: Any) -> None:
    """``logs.configure`` writes to ``sys.stderr`` as it is when a record is written, not
    to the stream it was when configured: ``umpire serve`` run in-process by a test whose
    captured stderr is closed afterwards leaves no handler on a closed stream (the
    ``--- Logging error ---`` tracebacks that failed later tests)."""
    import io

    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    first, second = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    handler = logs.configure("INFO")
    try:
        first.close()
        monkeypatch.setattr(sys, "stderr", second)
        logging.getLogger("server.test").warning("after the first stream closed")
        assert "after the first stream closed" in second.getvalue()
        assert "Logging error" not in second.getvalue()
    finally:
        root.removeHandler(handler)
        for old in before:
            if old not in root.handlers:
                root.addHandler(old)
        root.setLevel(level)
