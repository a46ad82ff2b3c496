"""Each update rule of the metaposition, on hand-built positions."""

from __future__ import annotations

import chess

from bots.kriegspiel.meta import Metaposition, observe
from tests.bots.kriegspiel_squares import bb, quiet, squares

W, B = chess.WHITE, chess.BLACK


def test_the_usual_start_knows_every_enemy_piece() -> None:
    meta = Metaposition.from_start(W, "wild16")
    assert squares(meta.may[chess.KING]) == {"e8"}
    assert squares(meta.may[chess.KNIGHT]) == {"b8", "g8"}
    assert meta.units == 15


def test_a_custom_start_knows_only_the_material() -> None:
    meta = Metaposition.from_start(W, "wild16", "7k/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert meta.units == 0
    assert all(meta.may[k] == 0 for k in range(1, 6))
    king = meta.may[chess.KING]
    assert not king & bb("a2", "a8", "b1", "d2", "e2", "f1")  # attacked or next to our king
    assert king & bb("h8", "b2")


def test_our_move_clears_its_path_and_target() -> None:
    meta = Metaposition.from_start(W, "wild16", "7k/8/8/8/8/8/8/R3K3 w - - 0 1")
    meta.may[chess.KING] |= bb("a4")  # pretend it could stand there
    observe(meta, quiet("white", move="a1a7"))
    assert not meta.may[chess.KING] & bb("a2", "a3", "a4", "a5", "a6", "a7")


def test_no_check_after_our_move_removes_the_squares_we_attack() -> None:
    meta = Metaposition.from_start(W, "wild16", "7k/8/8/8/8/8/8/R3K3 w - - 0 1")
    observe(meta, quiet("white", move="a1a7"))
    assert not meta.may[chess.KING] & chess.BB_RANK_7


def test_a_check_says_which_line_the_king_is_on() -> None:
    meta = Metaposition.from_start(W, "wild16", "7k/8/8/8/8/8/8/R3K3 w - - 0 1")
    observe(meta, {**quiet("white", move="a1a7"), "check": ["rank"]})
    assert meta.may[chess.KING] and not meta.may[chess.KING] & ~chess.BB_RANK_7


def test_a_lone_king_must_move() -> None:
    meta = Metaposition.from_start(W, "wild16", "7k/8/8/8/8/8/8/R3K3 w - - 0 1", know_start=True)
    assert squares(meta.may[chess.KING]) == {"h8"}
    observe(meta, quiet("white", move="a1a6"))
    observe(meta, quiet("black"))
    assert squares(meta.may[chess.KING]) == {"g8", "h7", "g7"}


def test_our_capture_counts_the_unit_and_its_kind() -> None:
    meta = Metaposition.from_start(W, "wild16")
    observe(meta, quiet("white", move="e2e4"))
    observe(meta, quiet("black"))
    observe(meta, {**quiet("white", move="e4d5"), "capture": "d5", "captured": "pawn"})
    assert meta.units == 14 and meta.pawn_captures == 1
    assert not meta.maybe_any() & bb("d5")


def test_the_opponent_widens_each_kind_by_its_moves() -> None:
    meta = Metaposition.from_start(W, "wild16")
    observe(meta, quiet("white", move="e2e4"))
    observe(meta, quiet("black"))
    assert squares(meta.may[chess.KNIGHT]) == {"b8", "g8", "a6", "c6", "f6", "h6"}
    assert meta.may[chess.PAWN] & bb("e5", "e6", "a6")
    # its pawns surely still stand (eight pawns on eight squares) and block the others
    assert meta.may[chess.BISHOP] == bb("c8", "f8")
    # (castling is kept possible: its path may be clear for all we know)
    assert squares(meta.may[chess.KING]) == {"e8", "d8", "f8", "c8", "g8"}


def test_their_capture_means_only_one_piece_moved() -> None:
    meta = Metaposition.from_start(W, "wild16", "4k3/8/8/8/3n4/8/2P5/7K b - - 0 1", know_start=True)
    observe(meta, {**quiet("black"), "capture": "c2", "captured": "pawn"})
    assert squares(meta.may[chess.KNIGHT]) == {"d4", "c2"}
    assert squares(meta.may[chess.KING]) == {"e8"}  # the king did not move
    assert meta.known == bb("c2")
    assert meta.own.piece_at(chess.C2) is None


def pawn_and_knight() -> Metaposition:
    """White: Ke1, Pd2; black: Ke8 and one knight somewhere; white to move, not in check
    (a custom start leaves the check status unknown until a move is heard)."""
    meta = Metaposition.from_start(W, "wild16", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1")
    meta.check_known = True
    return meta


def test_no_pawn_tries_clears_the_squares_our_pawns_could_take() -> None:
    meta = pawn_and_knight()
    meta.may[chess.KNIGHT] = bb("c3", "e3", "a5")
    meta.start_counts = {**meta.start_counts, chess.KNIGHT: 1}
    meta.units = 1
    observe(meta, {"type": "pawn_tries", "color": "white", "count": 0})
    assert squares(meta.may[chess.KNIGHT]) == {"a5"}


def test_exactly_as_many_tries_as_candidates_marks_them_occupied() -> None:
    meta = pawn_and_knight()
    meta.start_counts = {**meta.start_counts, chess.KNIGHT: 1}
    meta.units = 1
    meta.may[chess.KNIGHT] = bb("c3", "a5")
    observe(meta, {"type": "pawn_tries", "color": "white", "count": 1})
    assert meta.known == bb("c3")


def test_a_refused_pawn_capture_means_nothing_stands_there() -> None:
    meta = pawn_and_knight()
    meta.start_counts = {**meta.start_counts, chess.KNIGHT: 1}
    meta.units = 1
    meta.may[chess.KNIGHT] = bb("c3", "e3")
    observe(meta, {"type": "illegal", "color": "white", "move": "d2e3", "answer": "illegal"})
    assert squares(meta.may[chess.KNIGHT]) == {"c3"}


def test_directions_not_announced_rule_out_checkers() -> None:
    meta = Metaposition.from_start(W, "wild16", "4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    meta.start_counts = {**meta.start_counts, chess.ROOK: 1, chess.KNIGHT: 1}
    meta.units = 2
    meta.may[chess.ROOK] = bb("e4", "a1", "h4")
    meta.may[chess.KNIGHT] = bb("d3", "f3", "a8")
    meta.may[chess.KING] = bb("e8")
    meta.restrict_checks_on_us(["knight"])
    # a rook on e4 or a1 would have checked along the file or rank: not announced
    assert squares(meta.may[chess.ROOK]) == {"h4"}
    assert meta.check_zone == bb("d3", "f3")
    assert meta.checks_on_us == ("knight",)


def test_a_check_on_us_after_their_move_is_folded_in() -> None:
    meta = Metaposition.from_start(W, "wild16", "4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    meta.start_counts = {**meta.start_counts, chess.KNIGHT: 1}
    meta.units = 1
    meta.may[chess.KNIGHT] = bb("b4", "a8")
    observe(meta, {**quiet("black"), "check": ["knight"]})
    assert meta.checks_on_us == ("knight",)
    assert meta.check_zone == bb("d3", "c2")


def test_rand_promotion_false_means_no_new_piece() -> None:
    meta = Metaposition.from_start(W, "rand", "4k3/1p6/8/8/8/8/8/4K3 b - - 0 1", know_start=True)
    meta.may[chess.PAWN] = bb("b2")
    observe(meta, quiet("black", promotion=False))
    assert not meta.may[chess.QUEEN]
    observe(meta, quiet("white", move="e1e2", promotion=False))
    observe(meta, quiet("black", promotion=True))
    assert meta.may[chess.QUEEN] == bb("b1")


def test_a_refused_king_step_puts_a_lone_king_next_to_its_target() -> None:
    meta = Metaposition.from_start(W, "wild16", "8/8/8/8/8/2k5/8/R3K3 w - - 0 1")
    before = meta.may[chess.KING]
    observe(meta, {"type": "illegal", "color": "white", "move": "e1d2", "answer": "illegal"})
    assert meta.may[chess.KING] == before & chess.BB_KING_ATTACKS[chess.D2]
    assert meta.may[chess.KING] & bb("c3")  # the truth stays inside
    # with other enemy units about, anything of theirs may guard the square: no deduction
    other = Metaposition.from_start(W, "wild16", "8/8/8/8/8/2k5/8/R3K2n w - - 0 1")
    kept = other.may[chess.KING]
    observe(other, {"type": "illegal", "color": "white", "move": "e1d2", "answer": "illegal"})
    assert other.may[chess.KING] == kept


def test_a_king_castles_only_towards_a_corner_where_a_rook_may_stand() -> None:
    # A lone king on e8 cannot castle: its region widens by its steps only (before the
    # fix it also took c8 and g8, squares two files away).
    meta = Metaposition.from_start(W, "wild16", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    meta.may[chess.KING] = bb("e8")
    observe(meta, quiet("white", move="a1a2"))
    observe(meta, quiet("black"))
    assert squares(meta.may[chess.KING]) == {"d8", "f8", "d7", "e7", "f7"}
    # With a rook that may stand on h8, castling short is possible, long is not.
    meta = Metaposition.from_start(W, "wild16", "4k2r/8/8/8/8/8/8/R3K3 w - - 0 1")
    meta.may[chess.KING] = bb("e8")
    meta.may[chess.ROOK] = bb("h8")
    observe(meta, quiet("white", move="a1a2"))
    observe(meta, quiet("black"))
    assert meta.may[chess.KING] & bb("g8") and not meta.may[chess.KING] & bb("c8")
