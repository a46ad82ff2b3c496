"""The tournament core with a fake clock: rounds, withdrawals, the arena's end, standings."""

from __future__ import annotations

import msgspec
import pytest

from server.tournaments.core import (
    CANCELLED,
    FINISHED,
    RUNNING,
    Spec,
    State,
    TournamentCore,
    TournamentError,
)
from server.tournaments.standings import Game, arena_points, standings


def dirty(core: TournamentCore) -> bool:
    """``core.dirty`` read anew: mypy keeps it narrowed from the last assignment or assert
    across the calls that change it."""
    return core.dirty


def _play(core: TournamentCore, now: float, first_wins: bool = True) -> None:
    for g in core.to_open():
        core.opened(g, f"room-{g.round}-{g.board}", now)
    for g in core.playing():
        core.result(g.room or "", [1.0, 0.0] if first_wins else [0.5, 0.5], False, now)


def test_round_robin_of_five_plays_five_rounds_with_one_bye_each() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="round_robin"), 0.0)
    for i in range(5):
        core.join(f"p{i}", f"P{i}", 1500.0, float(i))
    core.start(1.0)
    while core.state.status == RUNNING:
        _play(core, 2.0)
    assert core.state.round == 5
    assert [r.byes for r in core.table()] == [1] * 5
    assert sum(r.points for r in core.table()) == 10 + 5  # 10 games, 5 byes


def test_withdrawn_player_forfeits_the_games_not_yet_played() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="round_robin"), 0.0)
    for i in range(4):
        core.join(f"p{i}", f"P{i}", 1500.0, float(i))
    core.start(1.0)
    core.leave("p3", 1.5)  # before its round-1 room was opened
    g = next(g for g in core.state.games if "p3" in g.players)
    assert g.forfeit and g.scores == [0.0 if p == "p3" else 1.0 for p in g.players]
    while core.state.status == RUNNING:
        _play(core, 2.0)
    row = next(r for r in core.table() if r.player == "p3")
    assert row.withdrawn and row.points == 0 and row.losses == 3


def test_registration_closes_at_the_start_and_needs_two() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="swiss", rounds=2), 0.0)
    core.join("a", "A", 1500.0, 0.0)
    with pytest.raises(TournamentError):
        core.start(1.0)
    core.join("b", "B", 1500.0, 0.0)
    core.start(1.0)
    with pytest.raises(TournamentError):
        core.join("c", "C", 1500.0, 2.0)


def test_starts_at_starts_or_cancels() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="swiss", starts_at=10.0), 0.0)
    core.join("a", "A", 1500.0, 0.0)
    core.tick(9.0)
    assert core.state.status == "created"
    core.tick(10.0)
    assert core.state.status == CANCELLED


def test_arena_pairs_until_its_end_then_finishes_when_the_last_game_ends() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="arena", duration=100.0), 0.0)
    for i in range(4):
        core.join(f"p{i}", f"P{i}", 1500.0, 0.0)
    core.start(0.0)
    now = 0.0
    while now < 100.0:
        now += 30.0
        _play(core, now)
        core.tick(now)
    assert core.state.status == FINISHED
    assert len(core.state.games) == 8  # 2 games at 0, 30, 60, 90
    points = {r.player: r.points for r in core.table()}
    assert sum(points.values()) > 0


def test_arena_points_streaks() -> None:
    assert arena_points([1, 1, 1, 1, 0.5, 0.5, 1]) == [2, 2, 4, 4, 2, 1, 2]
    assert arena_points([0, 1, 0.5]) == [0, 2, 1]


def test_state_round_trips_through_json() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="swiss", rounds=3), 0.0)
    for i in range(6):
        core.join(f"p{i}", f"P{i}", 1500.0, 0.0)
    core.start(1.0)
    _play(core, 2.0)
    again = msgspec.json.decode(msgspec.json.encode(core.state), type=State)
    assert again == core.state


def test_tie_breaks_by_hand() -> None:
    # a beats b, c beats d, b beats c, a draws d: a 1.5, b 1, c 1, d 0.5
    games = [
        Game(round=1, board=1, players=["a", "b"], scores=[1.0, 0.0]),
        Game(round=1, board=2, players=["c", "d"], scores=[1.0, 0.0]),
        Game(round=2, board=1, players=["b", "c"], scores=[1.0, 0.0]),
        Game(round=2, board=2, players=["d", "a"], scores=[0.5, 0.5]),
    ]
    rows = standings("swiss", [(p, p.upper()) for p in "abcd"], games)
    by = {r.player: r for r in rows}
    assert by["a"].points == 1.5 and by["a"].buchholz == 1.0 + 0.5
    assert by["a"].sonneborn_berger == 1.0 * 1.0 + 0.5 * 0.5
    assert by["c"].buchholz == 0.5 + 1.0 and by["c"].sonneborn_berger == 0.5
    assert by["b"].buchholz == 1.5 + 1.0 and by["b"].sonneborn_berger == 1.0
    assert [r.player for r in rows] == ["a", "b", "c", "d"]


def test_a_withdrawn_entrants_bye_scores_nothing() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="round_robin"), 0.0)
    for i in range(3):
        core.join(f"p{i}", f"P{i}", 1500.0, float(i))
    core.start(1.0)
    core.leave("p1", 1.5)
    while core.state.status == RUNNING:
        _play(core, 2.0)
    row = next(r for r in core.table() if r.player == "p1")
    assert row.byes == 1 and row.points == 0 and row.losses == 2


def test_a_double_forfeit_is_no_meeting() -> None:
    """Two entrants whose game nobody played (no room, nobody came) may meet again in a
    Swiss, and the void game counts for neither Buchholz nor Sonneborn-Berger."""
    core = TournamentCore.create("t", Spec(game="g", format="swiss", rounds=2), 0.0)
    core.join("a", "A", 1600.0, 0.0)
    core.join("b", "B", 1500.0, 0.0)
    core.start(1.0)
    (g,) = core.to_open()
    core.void(g, 2.0)
    assert core.state.round == 2
    (again,) = core.to_open()
    assert sorted(again.players) == ["a", "b"]
    core.opened(again, "r2", 3.0)
    core.result("r2", [1.0, 0.0], False, 4.0)
    rows = {r.player: r for r in core.table()}
    winner, loser = again.players
    assert rows[winner].points == 1.0 and rows[loser].points == 0.0
    assert rows[loser].buchholz == 1.0  # the played game only, once
    assert rows[winner].buchholz == 0.0 and rows[winner].games == 2


def test_a_void_game_counts_for_no_tie_break() -> None:
    games = [
        Game(round=1, board=1, players=["a", "b"], scores=[0.0, 0.0], forfeit=True, ended=1),
        Game(round=1, board=2, players=["c", "d"], scores=[1.0, 0.0], ended=1),
        Game(round=2, board=1, players=["a", "c"], scores=[0.0, 1.0], ended=2),
        Game(round=2, board=2, players=["b", "d"], scores=[1.0, 0.0], ended=2),
    ]
    rows = {r.player: r for r in standings("swiss", [(p, p) for p in "abcd"], games)}
    assert rows["a"].buchholz == 2.0  # c only, not b
    assert rows["b"].buchholz == 0.0  # d only


def test_a_rated_tournament_takes_one_bot_per_owner() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="swiss", rated=True), 0.0)
    core.join("bot-a", "BotA", 1500.0, 0.0, owner="kim")
    with pytest.raises(TournamentError, match="one bot per owner") as refused:
        core.join("bot-b", "BotB", 1500.0, 1.0, owner="kim")
    assert refused.value.code == "same_owner"
    with pytest.raises(TournamentError, match="its own bot"):
        core.join("kim", "Kim", 1500.0, 1.0)
    core.join("lea", "Lea", 1500.0, 1.0)
    with pytest.raises(TournamentError, match="with its owner"):
        core.join("bot-c", "LeaBot", 1500.0, 2.0, owner="lea")
    assert [e.player for e in core.state.entrants] == ["bot-a", "lea"]
    casual = TournamentCore.create("c", Spec(game="g", format="swiss"), 0.0)
    casual.join("bot-a", "BotA", 1500.0, 0.0, owner="kim")
    casual.join("bot-b", "BotB", 1500.0, 0.0, owner="kim")
    casual.join("kim", "Kim", 1500.0, 0.0)
    assert len(casual.state.entrants) == 3


def test_caps_and_expiry() -> None:
    from server.tournaments.core import EXPIRE_AFTER, MAX_ENTRANTS

    core = TournamentCore.create("t", Spec(game="g", format="swiss"), 0.0)
    for i in range(MAX_ENTRANTS):
        core.join(f"p{i}", f"P{i}", 1500.0, 0.0)
    with pytest.raises(TournamentError, match="full"):
        core.join("late", "Late", 1500.0, 0.0)
    core.tick(EXPIRE_AFTER - 1)
    assert core.state.status == "created"
    core.tick(EXPIRE_AFTER)
    assert core.state.status == CANCELLED
    spec = Spec(game="g", format="swiss", starts_at=2 * EXPIRE_AFTER)
    timed = TournamentCore.create("u", spec, 0.0)
    timed.tick(EXPIRE_AFTER)
    assert timed.state.status == "created"  # (it starts, or is cancelled, at its time)


def test_the_dirty_flag_tracks_changes() -> None:
    core = TournamentCore.create("t", Spec(game="g", format="round_robin"), 0.0)
    assert dirty(core)
    core.dirty = False
    core.tick(1.0)
    assert not dirty(core)
    core.join("a", "A", 1500.0, 2.0)
    assert dirty(core)
    core.dirty = False
    core.join("a", "A", 1500.0, 2.0)  # (already in: nothing changes)
    core.leave("nobody", 3.0)
    assert not dirty(core)
    core.join("b", "B", 1500.0, 2.0)
    core.start(4.0)
    core.dirty = False
    (g,) = core.to_open()
    core.opened(g, "r1", 5.0)
    assert dirty(core)
    core.dirty = False
    core.tick(6.0)
    assert not dirty(core)
    core.result("r1", [1.0, 0.0], False, 7.0)
    assert dirty(core) and core.state.status == FINISHED


async def test_the_stored_state_keeps_only_the_games_not_over() -> None:
    """The ended prefix of the games goes to the append-only table once: the state row
    holds the open round only, and loading puts them back together."""
    from server.store.contract import TournamentRow
    from server.tournaments.director import load_state, stored_form

    core = TournamentCore.create("t", Spec(game="g", format="round_robin"), 0.0)
    for i in range(4):
        core.join(f"p{i}", f"P{i}", 1500.0, float(i))
    core.start(1.0)
    table: list[tuple[int, str]] = []
    for _ in range(2):
        _play(core, 2.0)
        text, rows, archived = stored_form(core.state)
        table.extend(rows)
        core.state.archived = archived
    stored = msgspec.json.decode(text, type=State)
    assert stored.archived == 4 and [g.round for g in stored.games] == [3, 3]
    assert [seq for seq, _ in table] == [0, 1, 2, 3]  # each ended game once

    class Games:
        async def tournament_games(self, tid: str) -> list[str]:
            return [game for _, game in table]

    row = TournamentRow("t", "running", text, 1, 0.0, 0.0)
    loaded = await load_state(Games(), row)  # type: ignore[arg-type]
    assert loaded.games == core.state.games
