"""Every frame the server sends is built from the types of ``server.wire.frames``.

The scan reads every module of ``server/`` (an AST, not a grep) and fails on a dict with a
``"type"`` key, a ``dict(type=...)`` call, or an f-string that writes a ``"type"`` field:
the ways a frame used to be built by hand. The engines (``server/games``) are left out:
their events are plain JSON objects by the engine contract, and the frames carry them as
they are. ``server/wire/frames.py`` is left out as the one place frames are made.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import msgspec

from server.wire import frames

SERVER = Path(__file__).resolve().parents[2] / "server"
EXEMPT = [SERVER / "games", SERVER / "wire" / "frames.py"]


def hand_made_frames(source: str) -> Iterator[int]:
    """The line numbers where ``source`` builds something shaped like a frame by hand."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            if any(isinstance(k, ast.Constant) and k.value == "type" for k in node.keys):
                yield node.lineno
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "dict" and any(k.arg == "type" for k in node.keywords):
                yield node.lineno
        elif isinstance(node, ast.JoinedStr):
            parts = [v.value for v in node.values if isinstance(v, ast.Constant)]
            if any('"type"' in str(part) for part in parts):
                yield node.lineno


def test_the_scan_finds_each_way_of_building_a_frame_by_hand() -> None:
    source = (
        'a = {"type": "pong"}\n'
        'b = dict(type="pong")\n'
        'c = f\'{{"type":"event","seq":{seq}}}\'\n'
        'd = {"kind": "not a frame", **a}\n'
    )
    assert list(hand_made_frames(source)) == [1, 2, 3]


def test_no_module_of_the_server_builds_a_frame_by_hand() -> None:
    modules = [
        path
        for path in sorted(SERVER.rglob("*.py"))
        if not any(path == e or e in path.parents for e in EXEMPT)
    ]
    assert len(modules) > 40  # (the scan sees the server)
    found = [
        f"{path.relative_to(SERVER.parent)}:{line}"
        for path in modules
        for line in hand_made_frames(path.read_text())
    ]
    assert not found, f"frames built as dicts, not from server.wire.frames: {found}"


def test_a_frame_encodes_as_the_protocol_spells_it() -> None:
    ack = frames.AckFrame(ref=7, room="r1", seq=3, first=2, action="dudo")
    assert frames.encode(ack) == (
        b'{"type":"ack","room":"r1","seq":3,"first":2,"action":"dudo","ref":7}'
    )
    assert frames.encode(frames.with_ref(frames.PongFrame(), None)) == b'{"type":"pong"}'
    error = frames.error("not_host", "only the room's host may do that", ref="x")
    assert msgspec.json.decode(frames.encode(error)) == {
        "type": "error",
        "ref": "x",
        "code": "not_host",
        "message": "only the room's host may do that",
    }
    assert isinstance(frames.check(frames.encode(error)), frames.ErrorFrame)
