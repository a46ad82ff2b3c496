"""Keeping a metaposition current from the projections one seat receives.

:func:`observe` takes each projection (``docs/kriegspiel.md``) in order. Every rule here
only removes a square from an enemy kind's set when no position consistent with what was
heard puts a piece of that kind there, and widens each kind by every move it may have made
when the opponent moves unseen; so the real position stays inside the metaposition.

- our accepted move: the squares it passed and landed on held no enemy unit; our king is
  not attacked after it; the enemy king is checked from exactly the announced directions;
- our illegal attempt: a pawn capture refused (not in check, pawn not pinnable) means no
  enemy unit on that square; a refused single pawn step names a blocker; a refused king
  step against a lone king puts that king next to the target, with units left a
  unit attacking the target (``refusals``);
- a capture we made: the unit on that square is gone (pawn or piece where announced);
- pawn tries: none means no unit where our (unpinnable) pawns could take; as many as the
  candidates means every candidate square is occupied; ``rand`` names the pawns;
- the opponent's move: each kind widens by its moves; a capture of ours means exactly one
  piece moved, onto that square; checks on us say where the checker may be and, by the
  directions not announced, where no piece stands.
"""

from __future__ import annotations

from typing import Any

import chess

from bots.kriegspiel.meta.geometry import (
    PIECE_KINDS,
    attacks,
    first_rank,
    forward,
    last_rank,
    pawn_pushes,
    start_rank,
)
from bots.kriegspiel.meta.legality import tries_posterior
from bots.kriegspiel.meta.metaposition import Metaposition
from bots.kriegspiel.meta.refusals import lift_attackers

__all__ = ["observe"]

_PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def _color(name: str) -> chess.Color:
    return name == "white"


def observe(meta: Metaposition, event: dict[str, Any]) -> None:
    """Update ``meta`` in place with one projection addressed to its seat."""
    kind = event.get("type")
    color = event.get("color")
    ours = color is not None and _color(color) == meta.color
    if kind == "move":
        if ours:
            _our_move(meta, event)
        else:
            _their_move(meta, event)
    elif kind == "pawn_tries":
        if ours:
            _our_tries(meta, event)
        else:
            _their_tries(meta, event)
    elif kind == "illegal":
        if ours and "move" in event:
            _our_illegal(meta, chess.Move.from_uci(event["move"]))
    elif kind == "any" and event.get("answer") is False:
        if ours:
            meta.tries = 0
            _our_no_captures(meta, chess.SquareSet(meta.own.pawns & meta.own.occupied))
        else:
            _their_no_captures(meta)
    if meta.presence is not None:
        meta.presence.project(meta.may, meta.caps(), meta.units)


# -- our moves -------------------------------------------------------------------------


def _our_move(meta: Metaposition, event: dict[str, Any]) -> None:
    move = chess.Move.from_uci(event["move"])
    own = meta.own
    kind = own.piece_type_at(move.from_square)
    clear = chess.BB_SQUARES[move.to_square] | chess.between(move.from_square, move.to_square)
    if kind == chess.KING and chess.square_distance(move.from_square, move.to_square) == 2:
        rank = chess.square_rank(move.from_square)
        kingside = move.to_square > move.from_square
        rook_from = chess.square(7 if kingside else 0, rank)
        clear |= chess.between(move.from_square, rook_from)
    capture = event.get("capture")
    meta.quiet_moves = 0 if kind == chess.PAWN or capture is not None else meta.quiet_moves + 1
    presence = meta.presence
    if presence is not None and meta.tries:
        # The turn ends: what the tries count said of the capture squares is kept.
        presence.condition(tries_posterior(meta), meta.may)
    if capture is not None:
        if presence is not None:
            presence.remove(chess.parse_square(capture), event.get("captured"))
        clear |= chess.BB_SQUARES[chess.parse_square(capture)]
        meta.units -= 1
        captured = event.get("captured")
        if captured == "pawn":
            meta.pawn_captures += 1
        elif captured == "piece":
            meta.piece_captures += 1
    for piece in PIECE_KINDS:
        meta.may[piece] &= ~clear
    meta.known &= ~clear
    meta.blockers &= ~clear
    meta.doubtful &= ~clear
    own.push(move)
    own.turn = meta.color
    own.ep_square = None
    meta.our_ep = None
    if kind == chess.PAWN and abs(move.to_square - move.from_square) == 16:
        meta.our_ep = (move.from_square + move.to_square) // 2
    meta.their_ep = 0
    meta.tries = None
    meta.check_known = True
    meta.checks_on_us = ()
    meta.check_zone = 0
    meta.attacked = 0
    meta.tighten()
    meta.restrict_checks_on_us(())  # a legal move never leaves our king attacked
    checks = tuple(event.get("check") or ())
    meta.checks_given = checks
    meta.restrict_enemy_king(checks)
    meta.tighten()
    meta.history.append(own.board_fen())


def _our_illegal(meta: Metaposition, move: chess.Move) -> None:
    own = meta.own
    kind = own.piece_type_at(move.from_square)
    if kind == chess.KING and meta.units == 0:
        # A lone king is the only thing that can make a king step illegal: it stands
        # next to the target (castling may also be refused for the squares it crosses).
        if chess.square_distance(move.from_square, move.to_square) == 1:
            meta.may[chess.KING] &= chess.BB_KING_ATTACKS[move.to_square]
        return
    if kind == chess.KING:
        # With units left the step was refused by a unit attacking the square (or the
        # king next to it): the presence map holds one there (``refusals``).
        if chess.square_distance(move.from_square, move.to_square) == 1:
            meta.attacked |= chess.BB_SQUARES[move.to_square]
            lift_attackers(meta, move)
        return
    if kind != chess.PAWN or meta.checks_on_us or not meta.check_known:
        return
    if meta.could_be_pinned(move.from_square):
        return
    target = chess.BB_SQUARES[move.to_square]
    if chess.square_file(move.from_square) != chess.square_file(move.to_square):
        # An unpinned pawn out of check may take whatever enemy unit stands there.
        for piece in PIECE_KINDS:
            meta.may[piece] &= ~target
        meta.their_ep &= ~target
        meta.known &= ~target
    elif abs(move.to_square - move.from_square) == 8:
        if not target & meta.may[chess.KING]:
            meta.known |= target & meta.maybe_units()
            meta.doubtful &= ~target  # a unit: a wall from now on
        elif not target & meta.blockers:
            meta.doubtful |= target & meta.maybe_units()  # perhaps the king, in passing
        meta.blockers |= target & meta.maybe_units()


# -- pawn tries ------------------------------------------------------------------------


def _our_no_captures(meta: Metaposition, pawns: chess.SquareSet | list[chess.Square]) -> None:
    """None of ``pawns`` has a legal capture: where they could take, no enemy unit."""
    if meta.checks_on_us or not meta.check_known:
        return
    for square in pawns:
        if meta.could_be_pinned(square):
            continue
        targets = chess.BB_PAWN_ATTACKS[meta.color][square]
        for piece in PIECE_KINDS:
            meta.may[piece] &= ~targets
        meta.their_ep &= ~targets
        meta.known &= ~targets


def _mark_candidates(meta: Metaposition, pawns: list[chess.Square], needed: int) -> None:
    """``needed`` legal pawn captures exist among ``pawns``: if there are exactly that
    many candidate captures, every candidate square holds an enemy unit (or is en
    passant)."""
    maybe = meta.maybe_units() | meta.their_ep
    pairs = [
        target
        for square in pawns
        for target in chess.SquareSet(chess.BB_PAWN_ATTACKS[meta.color][square] & maybe)
    ]
    if pairs and len(pairs) == needed:
        for target in pairs:
            meta.known |= chess.BB_SQUARES[target] & meta.maybe_units() & ~meta.their_ep


def _our_tries(meta: Metaposition, event: dict[str, Any]) -> None:
    own = meta.own
    pawns = list(chess.SquareSet(own.pawns & own.occupied_co[meta.color]))
    if "squares" in event:
        able = {chess.parse_square(name) for name in event["squares"]}
        meta.tries = 0 if not able else None
        _our_no_captures(meta, [square for square in pawns if square not in able])
        for square in able:
            _mark_candidates(meta, [square], 1)
        return
    count = event.get("count")
    if count is None:
        any_ = event.get("any")
        if any_ is None:
            return
        count = 1 if any_ else 0
        meta.tries = None if any_ else 0
    else:
        meta.tries = int(count)
    if count == 0:
        _our_no_captures(meta, pawns)
    elif "count" in event:
        _mark_candidates(meta, pawns, count)
    meta.tighten()


def _enemy_pinnable(meta: Metaposition, square: chess.Square) -> bool:
    """Whether an enemy unit on ``square`` may be pinned to its king by one of our sliders."""
    own = meta.own
    occupied = own.occupied
    bit = chess.BB_SQUARES[square]
    king_set = meta.may[chess.KING]
    for slider in chess.SquareSet(
        own.occupied_co[meta.color] & (own.bishops | own.rooks | own.queens)
    ):
        kind = own.piece_type_at(slider)
        assert kind is not None
        if not attacks(kind, meta.color, slider, occupied) & bit:
            continue
        line = chess.BB_RAYS[slider][square]
        for beyond in chess.SquareSet(line & king_set):
            if bit & chess.between(slider, beyond) and not (
                chess.between(square, beyond) & occupied
            ):
                return True
    return False


def _their_no_captures(meta: Metaposition) -> None:
    """The enemy has no legal pawn capture: no unpinnable enemy pawn attacks our units."""
    if meta.checks_given:
        return
    own = meta.own
    targets = own.occupied_co[meta.color] & ~own.kings
    if meta.our_ep is not None:
        targets |= chess.BB_SQUARES[meta.our_ep]
    attackers = 0
    for target in chess.SquareSet(targets):
        attackers |= chess.BB_PAWN_ATTACKS[meta.color][target]
    for square in chess.SquareSet(attackers & meta.may[chess.PAWN]):
        if not _enemy_pinnable(meta, square):
            meta.may[chess.PAWN] &= ~chess.BB_SQUARES[square]


def _their_tries(meta: Metaposition, event: dict[str, Any]) -> None:
    if "count" in event:
        none = event["count"] == 0
    elif "any" in event:
        none = not event["any"]
    elif "pawns" in event:
        none = event["pawns"] == 0
    else:
        return
    if none:
        _their_no_captures(meta)
        meta.tighten()


# -- their moves -----------------------------------------------------------------------


def _their_move(meta: Metaposition, event: dict[str, Any]) -> None:
    own = meta.own
    enemy = meta.enemy
    promotion = event.get("promotion")  # only under rand: True, False
    # Squares our pawns could take en passant onto if an enemy pawn steps two squares now.
    middle = forward(meta.may[chess.PAWN] & start_rank(enemy), enemy) & ~own.occupied
    landing = forward(middle, enemy) & ~own.occupied
    double_free = forward(landing, meta.color)
    capture = event.get("capture")
    presence = meta.presence
    if capture is not None:
        meta.quiet_moves = 0
        square = chess.parse_square(capture)
        if presence is not None:
            presence.capture(square, meta.may, own.occupied, meta.may[chess.KING])
        _widen_capture(meta, square, promotion)
        if meta.units == 0:
            meta.may[chess.KING] = chess.BB_SQUARES[square]  # a lone king took it
        own.remove_piece_at(square)
        # The taker stands there, unless it was an en passant capture (then behind it).
        passed = meta.our_ep
        en_passant = passed is not None and square == forward_square(passed, meta.color)
        meta.known = 0 if en_passant else chess.BB_SQUARES[square]
    else:
        if presence is not None:
            presence.diffuse(own.occupied, meta.may[chess.KING])
        _widen_quiet(meta, promotion)
        meta.known = 0
    meta.our_ep = None
    meta.their_ep = double_free if capture is None and promotion is not True else 0
    meta.tries = None
    meta.check_known = True
    meta.checks_given = ()
    meta.tighten()
    meta.restrict_checks_on_us(tuple(event.get("check") or ()))
    if presence is not None and meta.check_zone:  # the checker stands on its line
        presence.hold(meta.check_zone, min(meta.units, len(meta.checks_on_us)), meta.checker_sets())
    # After their legal move the enemy king is not attacked by us.
    meta.may[chess.KING] &= ~meta.certain_attacks_by_us()
    meta.tighten()


def _reach(meta: Metaposition, kind: chess.PieceType, squares: int, occupied: int) -> int:
    result = 0
    for square in chess.SquareSet(squares):
        result |= attacks(kind, meta.enemy, square, occupied)
    return result


def _widen_quiet(meta: Metaposition, promotion: bool | None) -> None:
    """The opponent moved without capturing: every kind may have moved one move."""
    # Our pieces, and enemy units that surely stand still while another moves, block.
    certain = meta.certain_enemy()
    own = meta.own.occupied
    blocked = own | certain
    enemy = meta.enemy
    old = list(meta.may)
    pushes = pawn_pushes(old[chess.PAWN], enemy, blocked)
    promoted = pushes & last_rank(enemy)
    if promotion is True:
        for piece in _PIECES:
            meta.may[piece] |= promoted
        meta.promotions += 1
        return
    for piece in _PIECES:
        meta.may[piece] |= _reach(meta, piece, old[piece], blocked) & ~blocked
    king_reach = _reach(meta, chess.KING, old[chess.KING], blocked) & ~blocked
    # A lone king is the only enemy unit, so it is the one that moved.
    meta.may[chess.KING] = king_reach if meta.units == 0 else old[chess.KING] | king_reach
    home = first_rank(enemy)
    king_home = chess.E1 if enemy == chess.WHITE else chess.E8
    if old[chess.KING] & chess.BB_SQUARES[king_home]:
        # Castling: only towards a corner where a rook of the enemy's may still stand (a
        # lone king has none; it used to "castle" to c8 or g8 and widen its region).
        castled = 0
        if old[chess.ROOK] & chess.BB_SQUARES[king_home + 3]:
            castled |= chess.BB_SQUARES[king_home + 2]
        if old[chess.ROOK] & chess.BB_SQUARES[king_home - 4]:
            castled |= chess.BB_SQUARES[king_home - 2]
        meta.may[chess.KING] |= castled & home & ~blocked
    meta.may[chess.PAWN] |= pushes & ~promoted
    if promoted and promotion is None and meta.pawns_max > 0:
        for piece in _PIECES:
            meta.may[piece] |= promoted
        meta.promotions += 1


def _widen_capture(meta: Metaposition, square: chess.Square, promotion: bool | None) -> None:
    """The opponent captured on ``square``: exactly one piece moved, and it went there."""
    own = meta.own.occupied | meta.certain_enemy()
    enemy = meta.enemy
    bit = chess.BB_SQUARES[square]
    old = list(meta.may)
    reached = False
    if promotion is not True:
        for piece in (*_PIECES, chess.KING):
            if _reach(meta, piece, old[piece], own) & bit:
                meta.may[piece] |= bit
                reached = True
    pawn_from = chess.BB_PAWN_ATTACKS[meta.color][square] & old[chess.PAWN]
    if pawn_from:
        if bit & last_rank(enemy):
            if promotion is not False:
                for piece in _PIECES:
                    meta.may[piece] |= bit
                meta.promotions += 1
                reached = True
        elif promotion is not True:
            meta.may[chess.PAWN] |= bit
            reached = True
    passed = meta.our_ep
    if (
        passed is not None
        and promotion is not True
        and square == forward_square(passed, meta.color)
        and chess.BB_PAWN_ATTACKS[meta.color][passed] & old[chess.PAWN]
    ):
        meta.may[chess.PAWN] |= chess.BB_SQUARES[passed]
        reached = True
    if not reached:
        # Nothing we thought possible explains it: stay sound by widening everything.
        _widen_quiet(meta, None)
        for piece in PIECE_KINDS:
            meta.may[piece] |= bit


def forward_square(square: chess.Square, color: chess.Color) -> chess.Square:
    """The square one step ahead of ``square`` for ``color``."""
    return square + 8 if color == chess.WHITE else square - 8
