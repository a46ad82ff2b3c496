"""The stalemate fear reads the presence map (the stalemates of seed 1, games 189 and 398):
the pawns' sets stayed wide while the presence map held the pawns on blocked squares, and a
pawn may be blocked by its own king."""

from __future__ import annotations

import random

import chess

from bots.kriegspiel.meta import Metaposition
from bots.kriegspiel.meta.evaluate import PIECE_STUCK, stuck_chance
from bots.kriegspiel.meta.presence import Presence
from bots.kriegspiel.meta.search import Searcher
from tests.bots.kriegspiel_squares import bb

#: Game 189 (seed 1, nodes=1000), our 63rd move as black: the white king on e1, its pawns
#: on f5, h5 and g2 all blocked by our pieces. a5a4 left the king no flight: stalemate.
GAME_189 = "qq5r/rn6/5p1k/p4P1P/2b2b2/6p1/q3p1P1/4K3 b - - 1 63"
#: The sets and the presence map of the pawns at that decision, as the bot had them.
PAWNS_189 = {
    "g2": 0.975,
    "f5": 0.877,
    "h5": 0.688,
    "h4": 0.184,
    "d6": 0.074,
    "d7": 0.046,
    "e4": 0.004,
    "e5": 0.001,
    "e6": 0.0005,
    "e7": 0.0005,
}
KING_189 = "c1 e1 g1 c2 d2 g2 f5 e6 d7 e7 f7 e8 f8"


def _game_189(weights: dict[str, float]) -> Metaposition:
    meta = Metaposition.from_start(chess.BLACK, "wild16", GAME_189)
    meta.may[chess.PAWN] = bb(*PAWNS_189)
    meta.may[chess.KING] = bb(*KING_189.split())
    meta.blockers = bb("e1", "g2")
    meta.check_known = True
    presence = Presence.start(chess.WHITE, meta.may, {chess.PAWN: 3})
    for name, weight in weights.items():
        presence.weights[chess.PAWN][chess.parse_square(name)] = weight
    presence.mass[chess.PAWN] = sum(weights.values())
    meta.presence = presence
    return meta


def test_the_presence_map_makes_the_stalemating_move_of_game_189_feared() -> None:
    searcher = Searcher(random.Random(1))
    stalemate, safe = chess.Move.from_uci("a5a4"), chess.Move.from_uci("g3g2")
    located = _game_189(PAWNS_189)
    feared = searcher.score(located, stalemate) - searcher.score(located, safe)
    assert feared < -1000
    # With the pawns' weight spread evenly the fear is a fraction of it: the map decides
    # (the units stuck together, STUCK_CORRELATION, fear even the spread pawns some).
    even = _game_189({name: 0.3 for name in PAWNS_189})
    assert abs(searcher.score(even, stalemate) - searcher.score(even, safe)) < -feared / 4


def test_the_pawns_weight_on_blocked_squares_sets_the_stuck_chance() -> None:
    located = _game_189(PAWNS_189)
    even = _game_189({name: 0.3 for name in PAWNS_189})
    board = located.own
    # The floor (the pawns not located: 0.5 each), the units stuck together.
    assert 0.5**3 < stuck_chance(even, board, 3) < 0.5
    assert stuck_chance(located, board, 3) > 0.6  # 89% of their weight blocked


def test_a_pawn_in_front_of_its_own_king_is_stuck_there() -> None:
    meta = Metaposition.from_start(
        chess.WHITE, "wild16", "8/8/8/p7/8/8/8/K6R w - - 0 1", know_start=True
    )
    assert stuck_chance(meta, meta.own, 1) == 0.0  # a5-a4 is free
    assert stuck_chance(meta, meta.own, 1, bb("a4")) == 1.0  # not with its king on a4
    assert stuck_chance(meta, meta.own, 1, bb("b4")) == 0.0


def test_a_unit_pinned_to_the_kings_square_is_stuck_there() -> None:
    # Game 337: the knight on d1 was pinned by our queen on a1 to its king on e1.
    knight = Metaposition.from_start(
        chess.WHITE, "wild16", "8/8/8/8/8/8/8/Q2nk2K w - - 0 1", know_start=True
    )
    assert stuck_chance(knight, knight.own, 1) == PIECE_STUCK
    assert stuck_chance(knight, knight.own, 1, bb("e1")) == 1.0
    assert stuck_chance(knight, knight.own, 1, bb("e2")) == PIECE_STUCK
    # Game 239: the pawn on b4 was pinned by our bishop on d2 to its king on a5.
    pawn = Metaposition.from_start(
        chess.WHITE, "wild16", "8/8/8/k7/1p6/8/3B4/7K w - - 0 1", know_start=True
    )
    assert stuck_chance(pawn, pawn.own, 1) == 0.0
    assert stuck_chance(pawn, pawn.own, 1, bb("a5")) == 1.0
    # Along its file a pinned pawn may still step.
    file = Metaposition.from_start(
        chess.WHITE, "wild16", "1k6/8/8/8/1p6/8/8/1R5K w - - 0 1", know_start=True
    )
    assert stuck_chance(file, file.own, 1, bb("b8")) == 0.0


def test_a_capture_from_a_thin_square_leaves_no_negative_weight() -> None:
    # Game 198: a white pawn took on d5 from e4, where the map had 0.32 of a pawn; the
    # square was left at -0.68, which the stuck chance read as a blocked pawn's weight.
    may = [0] * 7
    may[chess.PAWN] = bb("e4", "a2", "b2", "c2", "g2", "h2")
    presence = Presence.start(chess.WHITE, may, {chess.PAWN: 1})
    presence.capture(chess.D5, may, bb("d5"), 0)
    assert min(presence.weights[chess.PAWN]) >= 0.0
    assert presence.weights[chess.PAWN][chess.D5] == 1.0
    assert presence.weights[chess.PAWN][chess.E4] == 0.0
