"""Issue 29: a mistyped command gets one line that names the bad value, never a Python
message (``invalid literal for int()``, ``'z9' is not in list``, a raw msgspec error)."""

from __future__ import annotations

import pytest

from client_cli.commands import parse
from client_cli.games.kriegspiel.model import KriegBoard
from client_cli.state import ClientState


def in_a_room() -> ClientState:
    state = ClientState()
    room = state.room("r1")
    room.game = "perudo"
    state.current = "r1"
    return state


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("bot perudo-simple two", "a seat is a whole number, not 'two'"),
        ("bot perudo-simple 1 2", "bot [NAME] [SEAT]"),
        ("hint bluff=2", "bluff is a number from 0 to 1, not '2'"),
        ("hint reliability=x", "reliability is a number from 0 to 1, not 'x'"),
        ("hint bluff=nan", "bluff is a number from 0 to 1, not 'nan'"),
    ],
)
def test_a_bad_value_is_named_in_one_line(line: str, said: str) -> None:
    command = parse(line, in_a_room())
    assert command.message is None
    assert command.error == said


@pytest.mark.parametrize("line", ["join r1 two", "invite abc x"])
def test_a_bad_seat_in_the_lobby_is_named(line: str) -> None:
    command = parse(line, ClientState())
    assert command.message is None
    assert command.error == f"a seat is a whole number, not {line.split()[-1]!r}"


def test_a_good_bot_line_still_goes() -> None:
    command = parse("bot perudo-simple 2", in_a_room())
    assert command.message == {"type": "add_bot", "room": "r1", "bot": "perudo-simple", "seat": 2}
    assert parse("hint bluff=0.5", in_a_room()).message == {
        "type": "hint",
        "room": "r1",
        "bluff": 0.5,
    }


def test_mark_on_no_square_names_the_square() -> None:
    with pytest.raises(ValueError, match="'z9' is not a square"):
        KriegBoard(color="white").mark("z9", "q")
