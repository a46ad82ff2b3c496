"""The journal's pure builders: the rows of a room's saves, a game's start, actions, chat
and end."""

from __future__ import annotations

import pytest

from server.games.base import Event, Outcome, Record, seed_commitment
from server.store import journal
from server.store.contract import ActionRow, ChatRow, EventRow
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
    assert journal.event_rows([], 1) == ()


def test_each_actions_events_follow_each_other() -> None:
    outcome = Outcome((1, 2), "test")
    events = [Event.public(2, {"type": t}) for t in "abc"]
    history = [Record(0, "a"), Record(1, "b")]
    with pytest.raises(ValueError, match="action 1 do not follow"):
        journal.finished_game(game_row("x"), events, [1, 2, 1], history, outcome, {})
    with pytest.raises(ValueError, match="opening events do not come first"):
        journal.finished_game(game_row("x"), events, [1, None, None], history, outcome, {})


def test_event_rows_number_the_events_and_name_their_cause_and_source() -> None:
    events = [Event.public(2, {"type": "a"}), Event.public(2, {"type": "b"})]
    assert journal.event_rows(events, 7, 3) == (
        EventRow(7, "game", {"type": "a"}, 3),
        EventRow(8, "game", {"type": "b"}, 3),
    )
    assert journal.event_rows(events[:1], 1, source="room") == (
        EventRow(1, "room", {"type": "a"}, None),
    )


def test_seat_stats_sum_per_player_and_skip_empty_seats() -> None:
    totals = journal.seat_stats(
        ["bot-a", None, "bot-a", "p2"],
        [{"games": 1, "bids": 3}, {"games": 1}, {"games": 1, "bids": 2}, {"games": 1}],
    )
    assert totals == {"bot-a": {"games": 2, "bids": 5}, "p2": {"games": 1}}


def test_step_and_finished_build_their_rows() -> None:
    event = Event.public(2, {"type": "challenge"})
    step = journal.step("g", 4, Record(1, "dudo"), 9.5, [event], 7, [1.0])
    assert step == journal.Step(
        "g", (EventRow(7, "game", {"type": "challenge"}, 4),), ActionRow(4, 1, "dudo", 9.5, [1.0])
    )
    row = game_row("g", house={"1": "ticket"})
    end = journal.finished(row, Outcome((2, 1), "won"), 12.0, {})
    assert (end.row.status, end.row.seed_revealed, end.row.finished) == ("finished", True, 12.0)
    assert end.row.result == {"ranks": [2, 1], "winners": [1], "reason": "won"}
    assert end.row.reason == "won" and end.row.house == {"1": "ticket"}
    assert row.status == "playing"  # the builders never change what they are given


def test_an_aborted_game_reveals_its_seed_and_counts_nothing() -> None:
    event = Event.public(2, {"type": "aborted", "reason": "engine_error"})
    end = journal.aborted(game_row("g", house={"0": "t"}), "engine_error", 3.0, [event], 9)
    assert (end.row.status, end.row.reason, end.row.seed_revealed) == (
        "aborted",
        "engine_error",
        True,
    )
    assert end.row.finished == 3.0 and end.row.house == {"0": "t"} and end.stats == {}
    assert end.events == (EventRow(9, "room", {"type": "aborted", "reason": "engine_error"}),)


def test_a_save_is_a_copy_the_room_may_go_on_changing() -> None:
    row = game_row("g", status="waiting", seats=["p1", None])
    save = journal.saved(row)
    row.seats[1] = "p2"
    row.options["seats"] = 3
    assert save == journal.Save(game_row("g", status="waiting", seats=["p1", None]))


def test_a_start_marks_the_row_playing_with_its_seed_committed() -> None:
    row = game_row("g", status="waiting", seed=b"", seed_sha256="")
    opening = [Event.public(2, {"type": "round_started"})]
    start = journal.started(row, b"new seed", 5.0, opening)
    assert (start.row.status, start.row.started, start.row.seed) == ("playing", 5.0, b"new seed")
    assert start.row.seed_sha256 == seed_commitment(b"new seed") and not start.row.seed_revealed
    assert start.events == (EventRow(1, "game", {"type": "round_started"}),)
    assert row.status == "waiting" and row.seed == b""


def test_a_chat_line_is_said_in_its_room() -> None:
    said = journal.said("g", 3, 4.5, "players", 1, "p-ana", "ana", "hello")
    assert said == journal.Said("g", ChatRow(3, 4.5, "players", 1, "p-ana", "ana", "hello"))
