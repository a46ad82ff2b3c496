"""Scores and tie-breaks of a tournament, from its games alone.

A game is a :class:`Game`: its players (one for a bye) and, once over, each seat's score
(1, 0.5 or 0). The standings are a pure function of the entrants (in seed order) and the
games, so anyone holding the logged results computes the same table
(docs/tournaments.md, "Standings").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

ROUND_ROBIN = "round_robin"
SWISS = "swiss"
ARENA = "arena"
FORMATS = (ROUND_ROBIN, SWISS, ARENA)

#: Points of a bye in round robin and Swiss.
BYE_POINTS = 1.0


class Game(msgspec.Struct, kw_only=True):
    """One pairing of a tournament: a game to play, being played or over, or a bye."""

    round: int
    board: int
    players: list[str]
    room: str | None = None
    #: each seat's score (1 win, 0.5 draw, 0 loss) once the game is over
    scores: list[float] | None = None
    #: the game was decided by a forfeit (a no-show, a withdrawal), not played out
    forfeit: bool = False
    started: float | None = None
    ended: float | None = None

    @property
    def bye(self) -> bool:
        """Whether this is a bye (one player, no game)."""
        return len(self.players) == 1

    @property
    def void(self) -> bool:
        """Whether this game was never played by either side: a double forfeit (nobody
        came, or no room could be opened), 0 to both. It is no meeting: it counts for
        neither Buchholz nor Sonneborn-Berger, and the two may still be paired."""
        return (
            self.forfeit
            and len(self.players) > 1
            and self.scores is not None
            and not any(self.scores)
        )

    @property
    def over(self) -> bool:
        """Whether the game has a result (a bye always has)."""
        return self.scores is not None


class Row(msgspec.Struct, kw_only=True):
    """One line of the standings."""

    rank: int
    player: str
    name: str
    points: float
    buchholz: float
    sonneborn_berger: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool = False


def arena_points(scores: Sequence[float]) -> list[float]:
    """Arena points of one player's results in order: a win 2, a draw 1, a loss 0; after
    two wins in a row the player is "on fire" and each further win scores 4 and a draw 2,
    until a game is not won."""
    points: list[float] = []
    streak = 0
    for score in scores:
        fire = streak >= 2
        if score == 1.0:
            points.append(4.0 if fire else 2.0)
            streak += 1
        else:
            points.append((2.0 if fire else 1.0) if score == 0.5 else 0.0)
            streak = 0
    return points


def standings(
    fmt: str,
    entrants: Sequence[tuple[str, str]],
    games: Iterable[Game],
    withdrawn: Iterable[str] = (),
) -> list[Row]:
    """The table: ``entrants`` are (player, name) in seed order; ``games`` every pairing.

    Points: round robin and Swiss score 1 a win, 0.5 a draw, 1 a bye; the arena scores
    :func:`arena_points`. Buchholz is the sum of the points of every opponent met (a
    forfeited game counts, a bye or a double forfeit (:attr:`Game.void`) does not);
    Sonneborn-Berger the sum, over games, of the player's score times that opponent's
    points. Order: points, Buchholz,
    Sonneborn-Berger (all descending), then seed.
    """
    order = [p for p, _ in entrants]
    names = dict(entrants)
    gone = set(withdrawn)
    finished = sorted(
        (g for g in games if g.over), key=lambda g: (g.ended or 0.0, g.round, g.board)
    )
    points = {p: 0.0 for p in order}
    results: dict[str, list[float]] = {p: [] for p in order}
    meetings: dict[str, list[tuple[str, float]]] = {p: [] for p in order}
    byes = {p: 0 for p in order}
    for g in finished:
        assert g.scores is not None
        if g.bye:
            byes[g.players[0]] += 1
            if fmt != ARENA:  # (BYE_POINTS; nothing for a withdrawn entrant's bye)
                points[g.players[0]] += g.scores[0]
            continue
        for seat, player in enumerate(g.players):
            score = g.scores[seat]
            results[player].append(score)
            if not g.void:
                meetings[player].append((g.players[1 - seat], score))
    for p in order:
        points[p] += sum(arena_points(results[p])) if fmt == ARENA else sum(results[p])
    rows = []
    for p in order:
        bh = sum(points[o] for o, _ in meetings[p])
        sb = sum(points[o] * s for o, s in meetings[p])
        rs = results[p]
        rows.append(
            Row(
                rank=0,
                player=p,
                name=names[p],
                points=points[p],
                buchholz=bh,
                sonneborn_berger=sb,
                games=len(rs),
                wins=rs.count(1.0),
                draws=rs.count(0.5),
                losses=rs.count(0.0),
                byes=byes[p],
                withdrawn=p in gone,
            )
        )
    seed = {p: i for i, p in enumerate(order)}
    rows.sort(key=lambda r: (-r.points, -r.buchholz, -r.sonneborn_berger, seed[r.player]))
    for i, row in enumerate(rows):
        row.rank = i + 1
    return rows
