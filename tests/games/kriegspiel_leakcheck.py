"""A mechanical check that Kriegspiel projections reveal nothing a viewer may not know.

:class:`LeakChecker` follows a game event by event against the true board and fails (with
``AssertionError``) when a projection to a seat or a spectator:

- has a key or a text value outside the documented vocabulary (so nothing new can slip in
  unchecked), or
- names a square that is not one of the viewer's own pieces (before or after the event),
  the viewer's own attempt, or the capture square the umpire announced, or
- gives a spectator anything that one of the players does not hear.

:func:`check_opponent_blind` checks the stronger property at one position: for every
legal move (and every refused attempt) of the side to move, the opponent's and the
spectator's projections are a function of the announcements alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import chess

from server.games.base import Event
from server.games.kriegspiel import KriegspielConfig, KriegspielGame, new_game
from server.games.kriegspiel_rules import own_board

_SQUARE = re.compile(r"^[a-h][1-8]$")
_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])[qrbn]?$")

#: Keys a projection may have.
KEYS = frozenset(
    {
        "type",
        "color",
        "seat",
        "ranks",
        "winners",
        "rules",
        "to_move",
        "board",
        "capture",
        "captured",
        "check",
        "move",
        "answer",
        "count",
        "any",
        "pawns",
        "squares",
        "promotion",
        "en_passant_at",
        "reason",
        "result",
        "winner",
        "by",
    }
)

#: Text values a projection may hold that are not squares or moves.
WORDS = frozenset(
    {
        "game_started",
        "pawn_tries",
        "illegal",
        "move",
        "any",
        "draw_offered",
        "draw_declined",
        "game_over",
        "white",
        "black",
        "wild16",
        "cincinnati",
        "rand",
        "english",
        "pawn",
        "piece",
        "impossible",
        "rank",
        "file",
        "long_diagonal",
        "short_diagonal",
        "knight",
        "checkmate",
        "stalemate",
        "insufficient_material",
        "fifty_moves",
        "seventyfive_moves",
        "threefold_repetition",
        "fivefold_repetition",
        "resignation",
        "agreed_draw",
        "timeout",
        "abandoned",
        "1-0",
        "0-1",
        "1/2-1/2",
    }
)

#: The keys the opponent (and a spectator) may hear, per event type.
HEARD_KEYS = {
    "illegal": {"type", "color", "seat", "answer"},
    "move": {"type", "color", "seat", "capture", "captured", "check", "promotion", "en_passant_at"},
    "pawn_tries": {"type", "color", "seat", "count", "any", "pawns"},
    "any": {"type", "color", "seat", "answer"},
    "draw_offered": {"type", "color", "seat"},
    "draw_declined": {"type", "color", "seat"},
    "game_over": {"type", "reason", "result", "winner", "by", "seat", "ranks", "winners"},
    "game_started": {"type", "rules", "to_move"},
}

_SEAT_OF = {"white": 0, "black": 1}


def check_seats_named(projection: dict[str, Any]) -> None:
    """Events that name a player carry ``seat`` beside ``color`` (white is seat 0)."""
    kind = projection["type"]
    named = projection.get("by") if kind == "game_over" else projection.get("color")
    if named is None:
        assert "seat" not in projection, projection
        return
    assert projection.get("seat") == _SEAT_OF[named], f"seat and colour differ: {projection}"
    if kind == "game_over":
        winner = projection["winner"]
        winners = [0, 1] if winner is None else [_SEAT_OF[winner]]
        assert projection["winners"] == winners, projection


def squares_named(projection: dict[str, Any]) -> set[str]:
    """Every square a projection names (``board`` excepted); fails on unknown keys or text."""
    found: set[str] = set()

    def walk(value: Any, key: str) -> None:
        if isinstance(value, dict):
            for inner_key, inner in value.items():
                assert inner_key in KEYS, f"unknown key {inner_key!r} in {projection}"
                if inner_key != "board":
                    walk(inner, inner_key)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str):
            if _SQUARE.match(value):
                found.add(value)
            elif (match := _UCI.match(value)) is not None:
                assert key == "move", f"a move outside 'move' in {projection}"
                found.update(match.groups())
            else:
                assert value in WORDS, f"unknown text {value!r} in {projection}"
        else:
            assert value is None or isinstance(value, bool | int), f"{value!r} in {projection}"

    walk(projection, "")
    return found


def _own_squares(board: chess.Board, color: chess.Color) -> set[str]:
    return {chess.square_name(square) for square in chess.SquareSet(board.occupied_co[color])}


class LeakChecker:
    """Checks each event of one game against the true board, and the views after it."""

    def __init__(
        self, game: KriegspielGame, opening: Iterable[Event], views_every: int = 1
    ) -> None:
        self.game = game
        self.heard: tuple[list[dict[str, Any]], ...] = ([], [], [])
        self.before = game.board
        self.views_every = views_every
        self.steps = 0
        #: Every event the game produced after its opening events, in order.
        self.played: list[Event] = []
        self._check(list(opening), None)

    def apply(self, seat: int, action: str) -> list[Event]:
        """Apply ``action`` for ``seat`` and check its events; refusals propagate."""
        events = self.game.apply(seat, action)
        self._check(events, (seat, action))
        self.played.extend(events)
        return events

    def forfeit(self, seat: int, reason: str) -> list[Event]:
        """Forfeit ``seat`` and check the events."""
        events = self.game.forfeit(seat, reason)
        self._check(events, None)
        self.played.extend(events)
        return events

    def _check(self, events: Iterable[Event], action: tuple[int, str] | None) -> None:
        after = self.game.board
        for event in events:
            self.check_event(event, action, after)
        self.before = after
        self.steps += 1
        if self.steps % self.views_every == 0 or self.game.is_over:
            self.check_views()

    def check_event(self, event: Event, action: tuple[int, str] | None, after: chess.Board) -> None:
        """Every projection of ``event`` names only squares its viewer may know."""
        truth = event.truth
        announced = {truth["capture"]} if truth.get("capture") else set()
        if truth.get("en_passant_at"):  # English rules announce an en passant's landing square
            announced.add(truth["en_passant_at"])
        for seat in (0, 1):
            projection = event.seats[seat]
            if projection is None:
                continue
            assert projection["type"] == truth["type"]
            color = seat == 0
            allowed = _own_squares(self.before, color) | _own_squares(after, color) | announced
            if action is not None and action[0] == seat:
                match = _UCI.match(action[1])
                if match is not None:
                    allowed.update(match.groups())
            check_seats_named(projection)
            leaked = squares_named(projection) - allowed
            assert not leaked, f"seat {seat} learns {leaked} from {projection}; truth {truth}"
            if "board" in projection:
                assert projection["board"] == own_board(after, color).board_fen()
            self.heard[seat].append(projection)
            kind = truth["type"]
            mover_seat = truth.get("seat")
            own_news = seat == mover_seat and kind in ("illegal", "move", "pawn_tries")
            if not own_news and kind != "game_started":
                extra = set(projection) - HEARD_KEYS[kind]
                assert not extra, f"seat {seat} hears {extra} of {truth}"
        spectator = event.spectator
        if spectator is None:
            return
        self.heard[2].append(spectator)
        assert squares_named(spectator) <= announced, f"spectator learns from {spectator}"
        assert set(spectator) <= HEARD_KEYS[truth["type"]], spectator
        for seat_projection in event.seats:
            assert seat_projection is not None, f"a spectator hears what a seat does not: {truth}"
            for key, value in spectator.items():
                assert seat_projection.get(key) == value, f"{key} of {spectator} vs {event.seats}"

    def check_views(self) -> None:
        """Each view repeats what its viewer heard and shows only its own pieces."""
        board = self.game.board
        over = self.game.is_over
        for index, viewer in enumerate((0, 1, None)):
            view = self.game.view(viewer)
            assert view["announcements"] == self.heard[index]
            assert ("revealed" in view) == over
            if viewer is None:
                assert "board" not in view and "refused" not in view
                continue
            color = viewer == 0
            assert view["board"] == own_board(board, color).board_fen()
            refused = view["refused"]
            if refused:
                assert self.game.to_move == viewer
            for uci in refused:
                assert _UCI.match(uci), uci
            for name in ("to_move", "draw_offer", "color"):
                assert view[name] in (None, "white", "black")


def announcement_key(events: list[Event], rules: str) -> tuple[Any, ...]:
    """What the umpire announces in ``events``, from the truths alone (a superset under
    some rule sets: a finer key only makes the check weaker, never wrong)."""
    key: list[Any] = []
    for event in events:
        truth = event.truth
        kind = truth["type"]
        if kind == "move":
            key.append(
                (
                    kind,
                    truth["capture"],
                    truth["captured_unit"],
                    tuple(truth["check"]),
                    truth["promotion_piece"] is not None,
                    # English rules announce an en passant as such (docs/kriegspiel.md)
                    rules == "english" and truth["en_passant"],
                )
            )
        elif kind == "pawn_tries":
            pawns = sorted({move[:2] for move in truth["moves"]})
            # rand tells the side to move which of its own pawns can capture
            squares = tuple(pawns) if rules == "rand" else len(pawns)
            key.append((kind, len(truth["moves"]), bool(truth["moves"]), squares))
        elif kind == "illegal":
            key.append((kind, truth["answer"]))
        elif kind == "game_over":
            key.append((kind, truth["reason"], truth["winner"]))
        else:
            key.append((kind, repr(sorted(truth.items()))))
    return tuple(key)


def check_opponent_blind(config: KriegspielConfig, fen: str, extra: Iterable[str] = ()) -> int:
    """Play each attempt of the side to move at ``fen`` in a fresh game (every one possible
    on its own board, and the ``extra`` ones); the opponent and a spectator must hear alike
    any two attempts the umpire announces alike. Returns how many attempts were compared."""
    config = KriegspielConfig(config.rules, config.auto_fifty_moves, config.auto_threefold, fen)
    game, _ = new_game(config, b"blind")
    mover = game.to_move
    assert mover is not None
    opponent = 1 - mover
    groups: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    compared = 0
    texts = [str(action) for action in game.legal_actions(mover)]
    for text in [*texts, *extra]:
        if not _UCI.match(text):
            continue
        fresh, _ = new_game(config, b"blind")
        events = fresh.apply(mover, text)
        heard = tuple((event.seats[opponent], event.spectator) for event in events)
        key = announcement_key(events, config.rules)
        previous = groups.setdefault(key, heard)
        assert previous == heard, f"{text!r} tells the opponent apart: {heard} vs {previous}"
        compared += 1
    return compared
