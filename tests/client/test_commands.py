"""The command language: what a line becomes before anything is sent."""

from __future__ import annotations

from client_cli.commands import parse
from client_cli.state import ClientState


def test_kriegspiel_with_other_than_two_seats_is_refused_before_sending() -> None:
    command = parse("create kriegspiel seats=3", ClientState())
    assert command.message is None
    assert command.error == "Kriegspiel is for two players, not seats=3"
    assert parse("create kriegspiel seats=2", ClientState()).message == {
        "type": "create_room",
        "game": "kriegspiel",
        "options": {},
    }
