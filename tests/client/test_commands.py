"""The command language: what a line becomes before anything is sent. ``create`` takes
its games, options and their limits from the server's catalogue."""

from __future__ import annotations

import pytest

from client_cli.catalogue import Catalogue
from client_cli.commands import create_message, parse
from client_cli.state import ClientState


def error(line: str, catalogue: Catalogue | None) -> str | None:
    """The reason ``line`` is not sent."""
    command = parse(line, ClientState(catalogue=catalogue))
    assert command.message is None
    return command.error


def test_kriegspiel_with_other_than_two_seats_is_refused_before_sending(
    catalogue: Catalogue,
) -> None:
    said = error("create kriegspiel seats=3", catalogue)
    assert said == "Kriegspiel is for 2 players, not seats=3"
    assert parse("create kriegspiel seats=2", ClientState(catalogue=catalogue)).message == {
        "type": "create_room",
        "game": "kriegspiel",
        "options": {},
    }


def test_create_reads_each_value_as_the_catalogue_types_it(catalogue: Catalogue) -> None:
    words = "seats=3 dice=2 calza=true preset=classic clock=300+5 turn_time=30 private"
    assert create_message("perudo", words.split(), catalogue) == {
        "type": "create_room",
        "game": "perudo",
        "options": {"seats": 3, "dice_per_player": 2, "calza": True, "preset": "classic"},
        "clock": {"base": 300.0, "increment": 5.0},
        "turn_time": 30.0,
        "public": False,
    }
    rules = create_message("kriegspiel", ["rules=english", "noautostart"], catalogue)
    assert rules["options"] == {"rules": "english"} and rules["autostart"] is False


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("create perudo seats=9", "seats is at most 8, not 9"),
        ("create perudo calza=maybe", "calza is true or false, not 'maybe'"),
        ("create perudo preset=fancy", "preset is one of piatnik, classic, not 'fancy'"),
        ("create perudo spectators=all", "spectators is one of live, after, none, not 'all'"),
        ("create kriegspiel turn_time=30", "Kriegspiel has no option 'turn_time'"),
        ("create chess", "the games are perudo, kriegspiel"),
        ("create perudo clock=1+2+3", "clock is BASE+INCREMENT, not '1+2+3'"),
    ],
)
def test_a_value_the_game_does_not_take_never_leaves(
    catalogue: Catalogue, line: str, reason: str
) -> None:
    said = error(line, catalogue)
    assert said is not None and reason in said


def test_without_the_catalogue_create_waits_for_it() -> None:
    assert error("create perudo", None) == "the server's list of games has not come yet"
