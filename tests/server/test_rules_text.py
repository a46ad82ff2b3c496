"""``umpire rules``: rule sets, presets, game and room options, in plain text."""

from __future__ import annotations

import dataclasses
import re

import pytest

from server.cli import main
from server.games import engine
from server.rules_text import ROOM_OPTION_HELP, describe, plain
from server.wire.protocol import CreateRoom, Inbound

MARKUP = re.compile(r"``|:[a-z]+:`|`[^`]+`|\*\*")


def test_every_option_of_every_game_and_room_is_described(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert not MARKUP.search(text), MARKUP.search(text)
    for name in ("perudo", "kriegspiel"):
        config_type = engine(name).config_type
        assert set(config_type.OPTION_HELP) == {f.name for f in dataclasses.fields(config_type)}
        for field in dataclasses.fields(config_type):
            assert f"\n  {field.name} (default " in text
    room = set(CreateRoom.__struct_fields__) - {"game", "options", *Inbound.__struct_fields__}
    assert set(ROOM_OPTION_HELP) == room  # a new room option cannot go undescribed
    for option in ("clock", "turn_time", "spectators", "public", "autostart", "chat"):
        assert f"\n  {option} (default " in text
    # the options issue 16 asked for, with their defaults
    for line in (
        "  palifico_aces (default ordinary)",
        "  auto_seventyfive_moves (default true)",
        "  auto_fivefold (default true)",
        "  spectators (default live)",
        "  clock (default none)",
        "  piatnik: calza false, reveal until_proven, show_dice_counts false, palifico true",
        "  classic: calza false, reveal all, show_dice_counts true, palifico true",
    ):
        assert line in text.splitlines()
    for rule_set in ("wild16", "cincinnati", "rand", "english"):
        assert re.search(rf"^      {rule_set}\b", text, re.M)
    assert "en passant is announced with the square" in text


def test_one_game_and_an_unknown_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "kriegspiel"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("kriegspiel: game options") and "perudo" not in text
    assert "room options (every game" in text
    assert main(["rules", "chess"]) == 2
    assert "unknown game 'chess': choose one of" in capsys.readouterr().err


def test_lines_fit_a_terminal_and_markup_is_removed() -> None:
    assert all(len(line) <= 96 for line in describe().splitlines())
    assert plain("see :meth:`from_options` and ``x`` or `y`") == "see from_options and x or y"
    assert plain(":class:`~server.games.base.Game`") == "server.games.base.Game"
