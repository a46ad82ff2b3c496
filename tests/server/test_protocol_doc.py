"""docs/protocol.md stays true: it documents exactly the messages and fields of
``server.wire.protocol`` (inbound) and ``server.wire.frames`` (outbound), every JSON example in it
is a valid message or frame, every error code is documented, and its sample bot plays a
whole game against a house bot."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from server.net.app import UmpireServer
from server.wire.frames import FRAME_TYPES, ErrorCode, Frame, json_schema
from server.wire.protocol import ERROR_CODES, MESSAGE_TYPES, Message
from tests.server.conftest import PROTOCOL_DOC
from tests.server.wsclient import check_frame

DOC = PROTOCOL_DOC
#: ``ref`` is documented once for every message (Transport) and every reply
SHARED = {"type", "ref"}

Direction = str  # "inbound" or "outbound"


def chapters(text: str) -> dict[str, str]:
    """The doc's ``## `` chapters by title."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2], strict=True)}


def sections(chapter: str) -> Iterator[tuple[list[str], str]]:
    """The ``### `` sections of a chapter: (the names in backticks in the heading, body)."""
    parts = re.split(r"^### (.+)$", chapter, flags=re.M)
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        names = re.findall(r"`([a-z_]+)`", heading.split("—")[0])
        yield names, body


def json_examples(text: str) -> Iterator[Any]:
    """Every JSON value in the ```json blocks, and every complete JSON line of the
    example sessions (``name > {...}`` / ``name < {...}``)."""
    decoder = json.JSONDecoder()
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        index = 0
        while index < len(block):
            if block[index].isspace():
                index += 1
                continue
            value, index = decoder.raw_decode(block, index)
            yield value
    for block in re.findall(r"```text\n(.*?)```", text, re.S):
        for line in block.splitlines():
            match = re.match(r"\w+ [<>] (\{.*\})$", line)
            if match:
                try:
                    yield json.loads(match.group(1))
                except json.JSONDecodeError:
                    continue  # an example shortened with ...


_inbound = msgspec.json.Decoder(Message)
_outbound = msgspec.json.Decoder(Frame)


def classify(example: dict[str, Any]) -> tuple[Direction, Any]:
    """Decode an example strictly as a client message or a server frame."""
    raw = json.dumps(example)
    errors = []
    if example.get("type") in MESSAGE_TYPES:
        try:
            return "inbound", _inbound.decode(raw)
        except msgspec.ValidationError as exc:
            errors.append(f"as a message: {exc}")
    if example.get("type") in FRAME_TYPES:
        try:
            return "outbound", _outbound.decode(raw)
        except msgspec.ValidationError as exc:
            errors.append(f"as a frame: {exc}")
    raise AssertionError(f"the doc's example {raw} is invalid: {'; '.join(errors) or 'type'}")


def struct_fields(root: Any) -> dict[str, set[str]]:
    """Every struct reachable from ``root`` (a type): struct name -> field names."""
    found: dict[str, set[str]] = {}

    def walk(info: Any) -> None:
        if isinstance(info, msgspec.inspect.StructType):
            name = info.cls.__name__
            if name in found:
                return
            found[name] = {f.encode_name for f in info.fields} - SHARED
            for field in info.fields:
                walk(field.type)
        elif isinstance(info, msgspec.inspect.UnionType):
            for member in info.types:
                walk(member)
        elif isinstance(info, msgspec.inspect.ListType | msgspec.inspect.DictType):
            walk(getattr(info, "item_type", None) or getattr(info, "value_type", None))
        elif isinstance(info, msgspec.inspect.Metadata):
            walk(info.type)

    walk(msgspec.inspect.type_info(root))
    return found


def shown_fields(value: Any, info: Any, seen: dict[str, set[str]]) -> None:
    """Record which fields of which structs the raw example ``value`` shows."""
    if isinstance(info, msgspec.inspect.Metadata):
        shown_fields(value, info.type, seen)
    elif isinstance(info, msgspec.inspect.UnionType):
        for member in info.types:
            if isinstance(member, msgspec.inspect.StructType) and isinstance(value, dict):
                if member.tag is None or value.get(member.tag_field) == member.tag:
                    shown_fields(value, member, seen)
            elif isinstance(member, msgspec.inspect.ListType) and isinstance(value, list):
                shown_fields(value, member, seen)
    elif isinstance(info, msgspec.inspect.ListType) and isinstance(value, list):
        for item in value:
            shown_fields(item, info.item_type, seen)
    elif isinstance(info, msgspec.inspect.StructType) and isinstance(value, dict):
        seen[info.cls.__name__].update(set(value) - SHARED)
        for field in info.fields:
            if field.encode_name in value:
                shown_fields(value[field.encode_name], field.type, seen)


def test_every_error_code_is_documented_and_typed() -> None:
    text = DOC.read_text()
    for code in ERROR_CODES:
        assert f"| `{code}` |" in text, code
    assert set(ErrorCode.__args__) == set(ERROR_CODES)  # type: ignore[attr-defined]


def test_the_doc_documents_exactly_the_messages_and_frames() -> None:
    text = DOC.read_text()
    parts = chapters(text)
    client = {name for names, _ in sections(parts["Client messages"]) for name in names}
    server = {name for names, _ in sections(parts["Server frames"]) for name in names}
    assert client == set(MESSAGE_TYPES)
    assert server == set(FRAME_TYPES)


def test_every_field_is_documented_and_every_example_is_valid() -> None:
    text = DOC.read_text()
    parts = chapters(text)
    seen: dict[str, set[str]] = defaultdict(set)
    for example in json_examples(text):
        if not isinstance(example, dict) or "type" not in example:
            continue
        direction, _ = classify(example)
        root = Message if direction == "inbound" else Frame
        shown_fields(example, msgspec.inspect.type_info(root), seen)
    # a client message's optional field may also be documented in its section's table or
    # text (`field`)
    for names, body in sections(parts["Client messages"]):
        for name in names:
            cls = MESSAGE_TYPES[name]
            mentioned = set(re.findall(r"`(\w+)`", body)) & set(cls.__struct_fields__)
            tabled = set(re.findall(r"^\| `(\w+)` \|", body, re.M))  # all must exist
            seen[cls.__name__].update(mentioned | tabled)
    expected = {**struct_fields(Message), **struct_fields(Frame)}
    missing = {name: sorted(fields - seen[name]) for name, fields in expected.items()}
    missing = {k: v for k, v in missing.items() if v}
    assert not missing, f"fields the doc never shows: {missing}"
    extra = {name: sorted(seen[name] - fields) for name, fields in expected.items()}
    extra = {k: v for k, v in extra.items() if v}
    assert not extra, f"fields the doc shows that do not exist: {extra}"


def test_the_schema_covers_both_directions() -> None:
    schema = json_schema()
    inbound = {d["$ref"].rsplit("/", 1)[1] for d in schema["inbound"]["anyOf"]}
    outbound = {d["$ref"].rsplit("/", 1)[1] for d in schema["outbound"]["anyOf"]}
    assert inbound == {cls.__name__ for cls in MESSAGE_TYPES.values()}
    assert outbound == {cls.__name__ for cls in FRAME_TYPES.values()}
    assert set(schema["outbound"]["discriminator"]["mapping"]) == set(FRAME_TYPES)


def test_umpire_schema_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    from server.cli import main

    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(json_schema()))
    assert {"inbound", "outbound", "$defs"} <= set(printed)


def test_the_test_client_refuses_undocumented_frames() -> None:
    check_frame('{"type":"pong","ref":3}')
    for bad in (
        '{"type":"pong","extra":1}',
        '{"type":"joined","room":"r"}',
        '{"type":"teleported"}',
        '{"type":"error","code":"oops","message":"m"}',
    ):
        with pytest.raises(AssertionError, match="undocumented"):
            check_frame(bad)


async def test_the_sample_bot_plays_a_whole_game(
    server: UmpireServer, connect: Any, sample_bot: Path
) -> None:
    host = await connect("host")
    room_id = (
        await host.request("create_room", "created", game="perudo", options={"seats": 2}, sit=False)
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id)
    watcher = await connect("wes")
    await watcher.request("watch", "watching", room=room_id)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(sample_bot),
        f"ws://127.0.0.1:{server.port}",
        room_id,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0
    finished = await watcher.expect("room", room=room_id, state="finished", timeout=30)
    assert finished["outcome"]["winners"]
    acted = [
        f["event"]
        for f in watcher.events(room_id)
        if f["event"].get("seat") == 1 and f["event"]["type"] in ("bid", "challenge")
    ]
    assert acted, "the sample bot (seat 1) never played"
    assert "game over" in out.decode()
