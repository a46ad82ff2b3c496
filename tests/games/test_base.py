"""The shared engine interface: fair draws, events, outcomes, errors, the registry."""

from __future__ import annotations

import ast
import hashlib
import pathlib
from collections import Counter

import pytest

from server.games import engine, engine_names
from server.games.base import (
    ConfigError,
    Event,
    IllegalAction,
    Outcome,
    Record,
    draw,
    seed_commitment,
)

GAMES_DIR = pathlib.Path(__file__).resolve().parents[2] / "server" / "games"


def test_draw_is_a_function_of_seed_and_label() -> None:
    assert draw(b"s", "a", 6) == draw(b"s", "a", 6)
    values = {draw(b"s", f"label/{i}", 1000) for i in range(50)}
    assert len(values) > 40  # different labels give independent draws
    assert [draw(b"s", f"x{i}", 6) for i in range(20)] != [
        draw(b"t", f"x{i}", 6) for i in range(20)
    ]


def test_draw_is_in_range_and_roughly_uniform() -> None:
    counts = Counter(draw(b"seed", f"die/{i}", 6) for i in range(6000))
    assert set(counts) == set(range(6))
    for value in range(6):
        assert 850 < counts[value] < 1150  # about 1000 each; 5 sigma is ~145


def test_draw_rejects_an_empty_range() -> None:
    with pytest.raises(ValueError):
        draw(b"s", "x", 0)
    assert draw(b"s", "x", 1) == 0


def test_seed_commitment_is_sha256() -> None:
    assert seed_commitment(b"abc") == hashlib.sha256(b"abc").hexdigest()


def test_public_event_is_the_same_for_everyone() -> None:
    event = Event.public(3, {"type": "bid", "bid": "2x3"})
    assert event.type == "bid"
    assert [event.view(s) for s in range(3)] == [event.truth] * 3
    assert event.view(None) == event.truth


def test_outcome_winners_and_draws() -> None:
    win = Outcome((2, 1, 3), "last_player_standing")
    assert win.winners == (1,)
    assert not win.is_draw
    assert win.to_json() == {"ranks": [2, 1, 3], "winners": [1], "reason": "last_player_standing"}
    assert Outcome((1, 1), "agreed_draw").is_draw


def test_illegal_action_codes_are_checked() -> None:
    error = IllegalAction("not your turn", "not_your_turn")
    assert error.code == "not_your_turn"
    assert str(error) == "not your turn"
    assert IllegalAction("x").code == "illegal"
    with pytest.raises(ValueError):
        IllegalAction("x", "no_such_code")


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


def test_registry_names_and_errors() -> None:
    assert "perudo" in engine_names()
    assert engine("perudo").name == "perudo"
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        engine("chess")


def test_record_is_a_pair() -> None:
    assert Record(1, "5x4") == (1, "5x4")


@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*.py")), ids=lambda p: p.name)
def test_engines_do_no_io(path: pathlib.Path) -> None:
    """DESIGN.md idea 1: no asyncio, json, sqlite3, time or global random in engines."""
    forbidden = {"asyncio", "json", "sqlite3", "time", "random", "secrets", "os", "socket"}
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [(node.module or "").split(".")[0]]
        else:
            continue
        assert not forbidden.intersection(names), f"{path.name} imports {names}"
