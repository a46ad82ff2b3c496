"""The journal's pure builders: the rows of a game's start, actions and end."""

from __future__ import annotations

import pytest

from server.games.base import Event, Outcome, Record
from server.store import journal
from server.store.contract import ActionRow, EventRow
from tests.server.store_contract import game_row, play_random_game


async def test_a_whole_game_becomes_start_steps_and_finish() -> None:
    row, events, causes, history, outcome = await play_random_game("j1", b"journal")
    stats = {"p1": {"games": 1}}
    entries = journal.finished_game(row, events, causes, history, outcome, stats)
    start, *steps, finish = entries
    assert isinstance(start, journal.Start) and isinstance(finish, journal.Finish)
    assert start.row.status == "playing" and not start.row.seed_revealed
    assert start.row.result is None and start.row.finished is None
    assert [e.action_n for e in start.events] == [None] * causes.count(None)
    assert all(isinstance(s, journal.Step) for s in steps)
    actions = [s.action for s in steps if isinstance(s, journal.Step)]
    assert [(a.n, a.seat, a.action) for a in actions if a] == [
        (n, r.seat, r.action) for n, r in enumerate(history, 1)
    ]
    logged = [*start.events, *(e for s in steps if isinstance(s, journal.Step) for e in s.events)]
    assert [e.seq for e in logged] == list(range(1, len(events) + 1))
    assert [e.truth for e in logged] == [e.truth for e in events]
    for s in steps:
        assert isinstance(s, journal.Step) and s.action is not None
        assert all(e.action_n == s.action.n for e in s.events)
    assert finish.row.status == "finished" and finish.row.seed_revealed
    assert finish.row.result == outcome.to_json() and finish.row.reason == outcome.reason
    assert finish.stats == stats and finish.events == ()


def test_events_caused_by_unknown_actions_are_refused() -> None:
    outcome = Outcome((1, 2), "test")
    with pytest.raises(ValueError, match=r"\[2\]"):
        events = [Event.public(2, {"type": "a"}), Event.public(2, {"type": "b"})]
        journal.finished_game(game_row("x"), events, [1, 2], [Record(0, "a")], outcome, {})
    assert journal.event_rows([], []) == []


def test_seat_stats_sum_per_player_and_skip_empty_seats() -> None:
    totals = journal.seat_stats(
        ["bot-a", None, "bot-a", "p2"],
        [{"games": 1, "bids": 3}, {"games": 1}, {"games": 1, "bids": 2}, {"games": 1}],
    )
    assert totals == {"bot-a": {"games": 2, "bids": 5}, "p2": {"games": 1}}


def test_step_and_finished_build_their_rows() -> None:
    step = journal.step("g", 4, Record(1, "dudo"), 9.5, [EventRow(7, "game", {}, 4)], [1.0])
    assert step == journal.Step(
        "g", (EventRow(7, "game", {}, 4),), ActionRow(4, 1, "dudo", 9.5, [1.0])
    )
    row = game_row("g")
    end = journal.finished(row, Outcome((2, 1), "won"), 12.0, {})
    assert (end.row.status, end.row.seed_revealed, end.row.finished) == ("finished", True, 12.0)
    assert end.row.result == {"ranks": [2, 1], "winners": [1], "reason": "won"}
    assert end.row.reason == "won"
    assert row.status == "playing"  # the builders never change what they are given


def test_an_aborted_game_reveals_its_seed_and_counts_nothing() -> None:
    event = EventRow(9, "room", {"type": "aborted", "reason": "engine_error"})
    end = journal.aborted(game_row("g"), "engine_error", 3.0, [event])
    assert (end.row.status, end.row.reason, end.row.seed_revealed) == (
        "aborted",
        "engine_error",
        True,
    )
    assert end.row.finished == 3.0 and end.events == (event,) and end.stats == {}
