"""The pure pairing formats: Berger tables, Swiss, arena (hypothesis properties)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from server.tournaments import formats
from server.tournaments.core import FINISHED, RUNNING, Spec, TournamentCore


@given(st.integers(min_value=2, max_value=24))
def test_round_robin_every_pair_once(count: int) -> None:
    players = [f"p{i}" for i in range(count)]
    rounds = formats.round_robin(players)
    assert len(rounds) == count - 1 + count % 2
    seen = [frozenset(p) for r in rounds for p in r]
    assert len(seen) == len(set(seen)) == count * (count - 1) // 2
    for r in rounds:
        flat = [p for pair in r for p in pair]
        assert len(flat) == len(set(flat))  # nobody twice in a round
        assert len(flat) == count - count % 2  # one bye at most
    if count % 2 == 1:  # each player has exactly one bye
        for p in players:
            assert sum(p not in {x for pair in r for x in pair} for r in rounds) == 1


@given(st.integers(min_value=2, max_value=24))
def test_round_robin_colours_balanced(count: int) -> None:
    players = [f"p{i}" for i in range(count)]
    whites = dict.fromkeys(players, 0)
    blacks = dict.fromkeys(players, 0)
    for r in formats.round_robin(players):
        for a, b in r:
            whites[a] += 1
            blacks[b] += 1
    assert all(abs(whites[p] - blacks[p]) <= 1 for p in players)


def test_berger_first_rounds_are_bergers_table() -> None:
    r = [[(a + 1, b + 1) for a, b in rnd] for rnd in formats.berger_rounds(8)]
    assert r[0] == [(1, 8), (2, 7), (3, 6), (4, 5)]
    assert set(r[1]) == {(8, 5), (6, 4), (7, 3), (1, 2)}
    assert set(r[2]) == {(2, 8), (3, 1), (4, 7), (5, 6)}


def _repeat_free_exists(players: list[str], met: dict[str, set[str]]) -> bool:
    if not players:
        return True
    top, rest = players[0], players[1:]
    return any(
        o not in met[top] and _repeat_free_exists([p for p in rest if p != o], met) for o in rest
    )


@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=2, max_value=9),
    st.integers(min_value=1, max_value=8),
    st.randoms(use_true_random=False),
)
def test_swiss_no_avoidable_repeats_and_fair_byes(
    count: int, rounds: int, rnd: random.Random
) -> None:
    core = TournamentCore.create("t", Spec(game="g", format="swiss", rounds=rounds), 0.0)
    for i in range(count):
        core.join(f"p{i}", f"P{i}", 1500.0, float(i))
    core.start(0.0)
    players = [e.player for e in core.state.entrants]
    while core.state.status == RUNNING:
        # before each round is paired, check the one just paired
        rnd_no = core.state.round
        games = [g for g in core.state.games if g.round == rnd_no]
        earlier = [g for g in core.state.games if g.round < rnd_no and not g.bye]
        met: dict[str, set[str]] = {p: set() for p in players}
        for g in earlier:
            a, b = g.players
            met[a].add(b)
            met[b].add(a)
        byes_before = {p: 0 for p in players}
        for g in core.state.games:
            if g.bye and g.round < rnd_no:
                byes_before[g.players[0]] += 1
        bye = next((g.players[0] for g in games if g.bye), None)
        if bye is not None:  # the bye goes to one with the fewest byes
            assert byes_before[bye] == min(byes_before.values())
        repeats = [g for g in games if not g.bye and g.players[1] in met[g.players[0]]]
        if repeats:  # only when no bye choice allowed a repeat-free round
            fewest = min(byes_before.values())
            choices = [p for p in players if byes_before[p] == fewest] if count % 2 else [None]
            assert not any(
                _repeat_free_exists([p for p in players if p != c], met) for c in choices
            )
        for g in core.to_open():
            core.opened(g, f"r{g.round}.{g.board}", 1.0)
        for g in core.playing():
            core.result(g.room or "", rnd.choice([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]), False, 2.0)
    assert core.state.status == FINISHED
    byes = [sum(g.bye and g.players[0] == p for g in core.state.games) for p in players]
    assert max(byes) - min(byes) <= 1
    for r in range(1, core.state.round + 1):
        flat = [p for g in core.state.games if g.round == r for p in g.players]
        assert sorted(flat) == sorted(players)


def test_swiss_first_round_is_top_half_against_bottom_half() -> None:
    ranked = [f"p{i}" for i in range(8)]
    pairs, bye = formats.swiss_round(ranked, {}, {}, {}, {}, {})
    assert bye is None
    assert [frozenset(p) for p in pairs] == [
        frozenset(("p0", "p4")),
        frozenset(("p1", "p5")),
        frozenset(("p2", "p6")),
        frozenset(("p3", "p7")),
    ]


@given(st.lists(st.sampled_from("abcdefgh"), unique=True, min_size=0, max_size=8))
def test_arena_pairs_each_waiting_player_at_most_once(waiting: list[str]) -> None:
    last = {a: b for a, b in itertools.pairwise(waiting)}
    pairs = formats.arena_pairs(waiting, last)
    flat = [p for pair in pairs for p in pair]
    assert len(flat) == len(set(flat)) == len(waiting) - len(waiting) % 2
    if len(waiting) >= 4:
        assert sum(last.get(a) == b or last.get(b) == a for a, b in pairs) <= 1
