"""The metaposition: everything one seat knows of a Kriegspiel game, as bitboards.

Own pieces are exact (a :class:`chess.Board` holding only them). For each enemy piece kind
there is one bitboard of the squares where a piece of that kind may stand (the union over
every position the seat cannot rule out), plus what the capture announcements tell of the
enemy's material. :mod:`bots.kriegspiel.meta.update` keeps it current from the seat's
projections; the invariant is that the real position is always inside it: every real
enemy piece of kind ``k`` stands on a square of ``may[k]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from bots.kriegspiel.meta.crowding import unit_scale
from bots.kriegspiel.meta.geometry import (
    PIECE_KINDS,
    VALUES,
    attacks,
    check_direction,
    first_rank,
    last_rank,
)
from bots.kriegspiel.meta.presence import Presence

__all__ = [
    "Metaposition",
    "certain_attacks",
    "outnumbered_lines",
    "possible_attacks",
    "surely_attacked",
]

_PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
_UNITS = (chess.PAWN, *_PIECES)  #: every kind but the king
#: The least weight a kind allowed on a known square counts for in :meth:`value_at` (the
#: presence map drops tiny weights; a kind the sets allow is never quite ruled out).
_VALUE_FLOOR = 1e-6
STANDARD_COUNTS = {
    chess.PAWN: 8,
    chess.KNIGHT: 2,
    chess.BISHOP: 2,
    chess.ROOK: 2,
    chess.QUEEN: 1,
    chess.KING: 1,
}


def possible_attacks(board: chess.Board, color: chess.Color, sure: int = 0) -> int:
    """Squares ``color``'s pieces on ``board`` may attack if unseen enemy pieces do not
    block (an over-approximation: rays stop only at pieces on ``board`` and at the
    squares ``sure`` to hold an enemy unit)."""
    occupied = board.occupied | sure
    result = 0
    for square in chess.SquareSet(board.occupied_co[color]):
        kind = board.piece_type_at(square)
        assert kind is not None
        result |= attacks(kind, color, square, occupied)
    return result


def certain_attacks(board: chess.Board, color: chess.Color, maybe: int) -> int:
    """Squares ``color``'s pieces attack whatever else stands where ``maybe`` says enemy
    units may be: rays stop at the first square that is occupied or may be."""
    occupied = board.occupied | maybe
    result = 0
    for square in chess.SquareSet(board.occupied_co[color]):
        kind = board.piece_type_at(square)
        assert kind is not None
        result |= attacks(kind, color, square, occupied)
    return result


def outnumbered_lines(board: chess.Board, color: chess.Color, units: int, squares: int) -> int:
    """The squares of ``squares`` that ``color``'s pieces on ``board`` attack along more
    open lines than there are enemy ``units`` to block them: each line needs a unit of
    its own between the piece and the square (two pieces attacking one square from the
    board's own occupancy do so from different directions, so their lines share no
    square), and a king never stands where one line stays open. With one unit left, a
    square that a queen and a rook both see through unknown squares is no square for
    the king, though neither line is sure alone (:func:`certain_attacks`)."""
    result = 0
    for square in chess.SquareSet(squares):
        if board.attackers_mask(color, square).bit_count() > units:
            result |= chess.BB_SQUARES[square]
    return result


def surely_attacked(
    board: chess.Board, color: chess.Color, maybe: int, units: int, possible: int | None = None
) -> int:
    """:func:`certain_attacks`, and the squares :func:`outnumbered_lines` makes sure
    (``possible``: :func:`possible_attacks` of ``board``, if already known)."""
    certain = certain_attacks(board, color, maybe)
    if not maybe:
        return certain
    if possible is None:
        possible = possible_attacks(board, color)
    doubtful = possible & ~certain
    return certain | outnumbered_lines(board, color, units, doubtful)


@dataclass(slots=True)
class Metaposition:
    """What one seat knows: its own board exactly, each enemy kind as a set of squares.

    ``may[kind]`` (indexed by python-chess piece type, 1..6) is the bitboard of squares
    where an enemy piece of that kind may stand. ``units`` is the exact number of enemy
    units besides the king (every capture is announced); ``pawns_max`` and
    ``pieces_max`` bound how many of them are pawns and pieces.
    """

    color: chess.Color
    rules: str
    own: chess.Board
    may: list[int]
    units: int
    start_counts: dict[int, int]
    pawn_captures: int = 0
    piece_captures: int = 0
    promotions: int = 0  #: enemy moves that may have been a promotion (an upper bound)
    checks_on_us: tuple[str, ...] = ()  #: the check directions on our king now
    checks_given: tuple[str, ...] = ()  #: the check directions our last move gave
    check_zone: int = 0  #: squares where the piece checking us may stand
    #: squares our king was refused this turn with enemy units left: an enemy unit
    #: attacks each (or the enemy king stands next to it) until our move
    attacked: int = 0
    known: int = 0  #: squares known to hold an enemy unit now
    #: squares where a step of one of our pawns was refused, kept while a unit may still
    #: stand there: a hint for planning (a blocking pawn stays), never a legality fact
    blockers: int = 0
    #: the blockers whose refusal the enemy king may have made (the square was in its
    #: region then): a king moves on, so these are no walls (:meth:`walls`) until a step
    #: there is refused again where the king cannot be. Game 61 of seed 9 (wild16,
    #: nodes=1000): f3-f2 refused by the king on f2, which left; the "wall" on f2 stood
    #: for the enemy's one unit, a plan counted the h-file empty, and the h-pawn on it
    #: stalemated its king.
    doubtful: int = 0
    our_ep: int | None = None  #: the square behind our pawn that just stepped two squares
    their_ep: int = 0  #: squares our pawns may capture onto en passant
    check_known: bool = True  #: False at a custom start until the first move is heard
    tries: int | None = None  #: our legal pawn captures this turn, as announced (or None)
    history: list[str] = field(default_factory=list)  #: own placements after our moves
    #: our moves since the last capture (by either side) or pawn move of ours: at least
    #: the 50-move rule's count (the enemy's pawn moves are unseen, and reset it too)
    quiet_moves: int = 0
    #: how likely each square of the sets is to hold a unit (a hint, updated by
    #: :mod:`~bots.kriegspiel.meta.update`; copies share it: the search never changes it)
    presence: Presence | None = None

    # -- construction ------------------------------------------------------------------

    @classmethod
    def from_start(
        cls, color: chess.Color, rules: str, fen: str | None = None, *, know_start: bool = False
    ) -> Metaposition:
        """The metaposition at the start of a game.

        From the usual start the enemy pieces are where every player knows they are.
        From a custom ``fen`` only the enemy's material is taken as known (the options are
        public) and its pieces may stand on any square the rules allow, unless
        ``know_start`` says the starting position itself was shown to the players.
        """
        board = chess.Board(fen) if fen is not None else chess.Board()
        enemy = not color
        may = [0] * 7
        counts = {kind: 0 for kind in PIECE_KINDS}
        for kind in PIECE_KINDS:
            mask = board.pieces_mask(kind, enemy)
            counts[kind] = mask.bit_count()
            if fen is None or know_start:
                may[kind] = mask
            elif counts[kind]:
                may[kind] = chess.BB_ALL & ~board.occupied_co[color]
        if fen is None:
            counts = dict(STANDARD_COUNTS)
        own = _own_board(board, color)
        units = sum(counts[k] for k in PIECE_KINDS if k != chess.KING)
        meta = cls(
            color=color,
            rules=rules,
            own=own,
            may=may,
            units=units,
            start_counts=counts,
            check_known=fen is None,
        )
        if fen is not None and not know_start and board.turn == color:
            # The side to move never gives check: the enemy king is not attacked by us.
            meta.may[chess.KING] &= ~meta.certain_attacks_by_us()
        meta.tighten()
        meta.presence = Presence.start(enemy, meta.may, counts)
        meta.presence.project(meta.may, meta.caps(), meta.units)
        meta.history.append(own.board_fen())
        return meta

    def copy(self) -> Metaposition:
        """An independent copy (the search branches on copies)."""
        return Metaposition(
            color=self.color,
            rules=self.rules,
            own=self.own.copy(stack=False),
            may=list(self.may),
            units=self.units,
            start_counts=self.start_counts,
            pawn_captures=self.pawn_captures,
            piece_captures=self.piece_captures,
            promotions=self.promotions,
            checks_on_us=self.checks_on_us,
            checks_given=self.checks_given,
            check_zone=self.check_zone,
            attacked=self.attacked,
            known=self.known,
            blockers=self.blockers,
            doubtful=self.doubtful,
            our_ep=self.our_ep,
            their_ep=self.their_ep,
            check_known=self.check_known,
            tries=self.tries,
            history=self.history,
            quiet_moves=self.quiet_moves,
            presence=self.presence,
        )

    # -- queries -----------------------------------------------------------------------

    @property
    def enemy(self) -> chess.Color:
        """The enemy's color."""
        return not self.color

    @property
    def pawns_max(self) -> int:
        """At most this many enemy pawns remain."""
        return max(0, min(self.units, self.start_counts[chess.PAWN] - self.pawn_captures))

    @property
    def pieces_max(self) -> int:
        """At most this many enemy pieces (not pawns, not the king) remain."""
        start = sum(self.start_counts[k] for k in _PIECES)
        return max(0, min(self.units, start - self.piece_captures + self.promoted_max))

    @property
    def promoted_max(self) -> int:
        """At most this many enemy pawns have promoted (each promotion uses up a pawn
        that was not captured as a pawn)."""
        return min(self.promotions, self.start_counts[chess.PAWN] - self.pawn_captures)

    def count_max(self, kind: chess.PieceType) -> int:
        """At most this many enemy pieces of ``kind`` remain."""
        if kind == chess.KING:
            return 1
        if kind == chess.PAWN:
            return self.pawns_max
        return min(self.pieces_max, self.start_counts[kind] + self.promoted_max)

    def caps(self) -> list[int]:
        """:meth:`count_max` of every kind, indexed by piece type (0 for index 0)."""
        return [0] + [self.count_max(kind) for kind in PIECE_KINDS]

    def certain_enemy(self) -> int:
        """Squares that surely hold an enemy unit: every pawn square when there must be
        as many pawns as squares (``units - pieces_max``), the king's when it has one."""
        mask = 0
        pawns = self.may[chess.PAWN]
        if pawns and pawns.bit_count() <= self.units - self.pieces_max:
            mask |= pawns
        king = self.may[chess.KING]
        if king.bit_count() == 1:
            mask |= king
        return mask | self.known

    def walls(self) -> int:
        """The blockers that no king step may have made (:attr:`doubtful`): a unit
        refused our pawn there, and a pawn held so stays."""
        return self.blockers & ~self.doubtful

    def held(self) -> int:
        """The blockers still likely held: the walls, and the doubtful ones where the
        king may still stand. A doubtful blocker the king cannot stand on now was empty
        if the king made it (game 274 of seed 9: g3-g2 once refused by the king, retried
        as 90% refused by the floor on blockers, went through and stalemated)."""
        return self.blockers & ~(self.doubtful & ~self.may[chess.KING])

    def maybe_units(self) -> int:
        """Squares where some enemy unit other than the king may stand."""
        may = self.may
        return (
            may[chess.PAWN]
            | may[chess.KNIGHT]
            | may[chess.BISHOP]
            | may[chess.ROOK]
            | may[chess.QUEEN]
        )

    def sure_units(self) -> int:
        """Squares surely holding an enemy unit now: the known ones, and every square
        where a unit may stand when there are no more of those than units."""
        maybe = self.maybe_units()
        return maybe if maybe.bit_count() <= self.units else self.known & maybe

    def maybe_any(self) -> int:
        """Squares where some enemy unit, the king included, may stand."""
        return self.maybe_units() | self.may[chess.KING]

    def own_king(self) -> chess.Square | None:
        """Our king's square (``None`` only in malformed test positions)."""
        return self.own.king(self.color)

    def certain_attacks_by_us(self, board: chess.Board | None = None) -> int:
        """Squares our pieces attack whatever the unseen enemy pieces are: our lines
        through squares where units may stand count when there are more of them than
        units (:func:`surely_attacked`)."""
        return surely_attacked(board or self.own, self.color, self.maybe_units(), self.units)

    def density(self, kind: chess.PieceType) -> float:
        """A rough chance that a given square of ``may[kind]`` holds such a piece."""
        size = self.may[kind].bit_count()
        if size == 0:
            return 0.0
        # Scaled so that the kinds' densities together expect the units there are.
        return min(1.0, self.count_max(kind) / size) * unit_scale(self)

    def occupancy(self, square: chess.Square) -> float:
        """A rough chance that an enemy unit (not the king) stands on ``square``."""
        if chess.BB_SQUARES[square] & self.known:
            return 1.0
        bit = chess.BB_SQUARES[square]
        chance = 0.0
        scale = None  # unit_scale, the same for every kind (as density() computes it)
        for kind in PIECE_KINDS[:-1]:
            may = self.may[kind]
            if may & bit:
                if scale is None:
                    scale = unit_scale(self)
                chance += min(1.0, self.count_max(kind) / may.bit_count()) * scale
        return min(1.0, chance)

    def cheapest_at(self, square: chess.Square) -> int:
        """The value of the cheapest enemy unit that may stand on ``square`` (0 if none)."""
        bit = chess.BB_SQUARES[square]
        values = [VALUES[k] for k in PIECE_KINDS[:-1] if self.may[k] & bit]
        return min(values) if values else 0

    def value_at(self, square: chess.Square) -> float:
        """What taking the enemy unit on ``square`` is expected to win.

        Where a unit is known to stand (it has just taken one of ours there) it is one
        unit, so its kinds are weighed against each other by the presence map: a queen
        that took a rook is worth a queen even if a pawn might have made the capture.
        Elsewhere (a unit only probable) the cheapest kind that may stand there, as the
        search has always priced a speculative capture (0 if none may)."""
        bit = chess.BB_SQUARES[square]
        presence = self.presence
        if presence is None or not bit & self.known:
            return float(self.cheapest_at(square))
        total = 0.0
        worth = 0.0
        for kind in PIECE_KINDS[:-1]:
            if self.may[kind] & bit:
                weight = max(presence.weights[kind][square], _VALUE_FLOOR)
                total += weight
                worth += weight * VALUES[kind]
        return worth / total if total else 0.0

    def enemy_material(self) -> int:
        """A rough value of the enemy's remaining material."""
        pawns = min(self.pawns_max, self.units)
        return pawns * VALUES[chess.PAWN] + max(0, self.units - pawns) * 400

    # -- consistency -------------------------------------------------------------------

    def tighten(self) -> None:
        """Apply the constraints that hold in every position: no enemy unit on our
        pieces, no pawn on a back rank, kings never adjacent, material bounds."""
        own = self.own.occupied
        may = self.may
        for kind in PIECE_KINDS:
            may[kind] &= ~own
        may[chess.PAWN] &= ~(first_rank(self.color) | last_rank(self.color))
        king = self.own_king()
        if king is not None:
            may[chess.KING] &= ~chess.BB_KING_ATTACKS[king]
        if self.pawns_max == 0:
            may[chess.PAWN] = 0
        if self.pieces_max == 0:
            for kind in _PIECES:
                may[kind] = 0
        for kind in _PIECES:
            if self.count_max(kind) == 0:
                may[kind] = 0
        self.known &= self.maybe_units()
        self.blockers &= self.maybe_units()
        self.doubtful &= self.blockers

    def restrict_enemy_king(self, directions: tuple[str, ...] | list[str]) -> None:
        """The enemy king is checked from exactly ``directions`` (none: not in check)."""
        own = self.own
        possible: dict[str, int] = {}
        certain: dict[str, int] = {}
        occupied = own.occupied
        blockers = occupied | self.maybe_units()
        king_set = self.may[chess.KING]
        for square in chess.SquareSet(own.occupied_co[self.color]):
            kind = own.piece_type_at(square)
            assert kind is not None
            if kind == chess.KING:
                continue
            reach = attacks(kind, self.color, square, occupied) & king_set
            sure = attacks(kind, self.color, square, blockers)
            for target in chess.SquareSet(reach):
                name = check_direction(target, square, kind == chess.KNIGHT)
                bit = chess.BB_SQUARES[target]
                possible[name] = possible.get(name, 0) | bit
                if sure & bit:
                    certain[name] = certain.get(name, 0) | bit
        for name in directions:
            king_set &= possible.get(name, 0)
        for name, mask in certain.items():
            if name not in directions:
                king_set &= ~mask
        self.may[chess.KING] = king_set

    def restrict_checks_on_us(self, directions: tuple[str, ...] | list[str]) -> None:
        """Our king is checked from exactly ``directions``: remove every enemy piece that
        would certainly check it from another direction; note where checkers may be."""
        king = self.own_king()
        if king is None:
            return
        may = self.may
        # A piece on the first square where any enemy unit (the king too) may stand
        # would surely check from there. The checker itself may stand further, beyond
        # squares that may as well be empty, up to our own piece or a unit we know of.
        blockers = self.own.occupied | self.maybe_any()
        walls = self.own.occupied | self.known
        zones = dict.fromkeys(_UNITS, 0)  # where each kind would give an announced check
        for line, kinds in (
            (chess.ROOK, (chess.ROOK, chess.QUEEN)),
            (chess.BISHOP, (chess.BISHOP, chess.QUEEN)),
        ):
            for square in chess.SquareSet(attacks(line, self.color, king, blockers)):
                if check_direction(king, square, False) not in directions:
                    for kind in kinds:
                        may[kind] &= ~chess.BB_SQUARES[square]
            sliders = may[kinds[0]] | may[kinds[1]]
            for square in chess.SquareSet(attacks(line, self.color, king, walls) & sliders):
                if check_direction(king, square, False) in directions:
                    for kind in kinds:
                        zones[kind] |= chess.BB_SQUARES[square]
        for square in chess.SquareSet(chess.BB_PAWN_ATTACKS[self.color][king]):
            if check_direction(king, square, False) in directions:
                zones[chess.PAWN] |= chess.BB_SQUARES[square]
            else:
                may[chess.PAWN] &= ~chess.BB_SQUARES[square]
        if "knight" in directions:
            zones[chess.KNIGHT] = chess.BB_KNIGHT_ATTACKS[king]
        else:
            may[chess.KNIGHT] &= ~chess.BB_KNIGHT_ATTACKS[king]
        zone = 0  # where the checker may stand
        for kind in _UNITS:
            zone |= zones[kind] & may[kind]
        if directions and self.units <= len(directions):
            # Every unit is a checker (a king gives no check): each stands where its
            # kind gives one of the announced checks. Game 191 of seed 9 (wild16,
            # nodes=1000): the last unit, a knight, checked our king from a3 while its
            # sets held 48 squares; by them a king on d8 could stand beside a knight
            # pinned on c8, a stalemate on every quiet move, and the bot took the
            # knight, stalemating the king on c6.
            for kind in _UNITS:
                may[kind] &= zones[kind]
        self.checks_on_us = tuple(directions)
        self.check_zone = zone if directions else 0

    def checker_sets(self) -> list[int]:
        """The sets (:attr:`may`, indexed by kind) as seen by a check on us: on the squares
        of a knight's check only the knights are left. No other kind checks from a
        knight's square, and by every kind's weight a knight's check on d5 lifted the
        pawns on f6 and e7 and left the pawn blocked on h5 at 0.006 (game 109 of seed 10
        against random: the bot took the knight and stalemated the king). A line's
        squares keep every kind: the line up to the checker holds that one unit, so a
        pawn's weight there is not independent of the check (round eighteen measured
        the kinds held apart on lines too, and it lost won positions against meta)."""
        king = self.own_king()
        if king is None or "knight" not in self.checks_on_us:
            return list(self.may)
        squares = chess.BB_KNIGHT_ATTACKS[king]
        return [
            sets if kind == chess.KNIGHT else sets & ~squares for kind, sets in enumerate(self.may)
        ]

    def could_be_pinned(self, square: chess.Square) -> bool:
        """Whether our piece on ``square`` may be pinned to our king by an unseen slider."""
        king = self.own_king()
        if king is None or king == square:
            return False
        line = chess.BB_RAYS[king][square]
        if not line:
            return False
        if chess.between(king, square) & self.own.occupied:
            return False
        diagonal = chess.square_file(king) != chess.square_file(square) and chess.square_rank(
            king
        ) != chess.square_rank(square)
        sliders = self.may[chess.QUEEN] | self.may[chess.BISHOP if diagonal else chess.ROOK]
        for beyond in chess.SquareSet(line & sliders):
            if chess.BB_SQUARES[square] & chess.between(king, beyond) and not (
                chess.between(square, beyond) & self.own.occupied
            ):
                return True
        return False

    def describe(self) -> str:
        """A text diagram: own pieces as letters, enemy kinds as counts of squares."""
        names = "PNBRQK"
        sizes = ", ".join(
            f"{names[k - 1]}:{self.may[k].bit_count()}" for k in PIECE_KINDS if self.may[k]
        )
        return f"{self.own.board_fen()} units={self.units} [{sizes}]"


def _own_board(board: chess.Board, color: chess.Color) -> chess.Board:
    own = board.occupied_co[color]
    mine = board.copy(stack=False)
    for square in chess.SquareSet(board.occupied & ~own):
        mine.remove_piece_at(square)
    mine.turn = color
    mine.ep_square = None
    mine.castling_rights &= first_rank(color)
    return mine
