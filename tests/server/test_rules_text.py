"""``umpire rules``: rule sets, presets, game and room options, in plain text."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from server.cli import main
from server.games import engine
from server.rules_text import describe, plain

MARKUP = re.compile(r"``|:[a-z]+:`|`[^`]+`|\*\*")


def test_every_option_of_every_game_and_room_is_described(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert not MARKUP.search(text), MARKUP.search(text)
    for name in ("perudo", "kriegspiel"):
        config_type: Any = engine(name).config_type
        for field in dataclasses.fields(config_type):
            assert f"\n  {field.name} (default " in text
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
    # the house bots and hints of the server's catalogue
    assert "  perudo-expert (levels: easy, normal, hard, auto)" in text.splitlines()
    assert "perudo: hints: yes" in text and "kriegspiel: hints: no" in text


def test_in_italian(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "it", "perudo"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("perudo: opzioni del gioco")
    assert "  palifico_aces (predefinito ordinary)" in text.splitlines()
    assert "true: il tavolo ha una chat" in text
    english = describe("perudo").splitlines()
    italian = text.rstrip("\n").splitlines()
    options = [line.split(" (")[0] for line in english if re.match(r"^  \w+ \(", line)]
    assert options == [line.split(" (")[0] for line in italian if re.match(r"^  \w+ \(", line)]


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
