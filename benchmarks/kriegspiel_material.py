"""Kriegspiel material on the real board, over a game: the figures and tables of
``benchmarks.kriegspiel_draws``.

Material is counted in points besides the kings (Q 9, R 5, B 3, N 3, P 1) and written as
letters (``QRRBNPPP``, ``-`` for a bare king). A game's *trail* is one side's material
and the other's after each move of that side (its own moves only, in order).

**A won position** (issue 33): the side was at least ``WON_MARGIN`` (5) points ahead
after each of ``WON_MOVES`` (20) consecutive moves of its own. It is *reached* at the
last move of the first such run: move ``n`` (1-based, counting that side's moves) is the
first move after which its last 20 moves all ended 5 or more points ahead. A game
*converts* it when that side then wins by checkmate; any other end (a draw, a loss, a
win by another reason) is a non-conversion, listed by its cause and by the material
when the won position was reached beside the material at the end.

**The material's flow** (issue 33, round fourteen): over a game, the points each side
lost to captures and gained by promotions (the promoted piece less its pawn), and its
moves by kind (pawn, king). Against ``kriegspiel-meta:nodes=20`` the stronger seat's
losses came from the other side's promotions, not from captures. And (round twenty-three)
how often it took back at once: of the other side's captures it could answer by a legal
capture on the taker's square, how many it did, and the points of the takers it left
standing (the real board's view: the seat itself only knows that a unit stands there).

**The bleed** (issue 33, round twenty): in a won position not converted, where the
hero's material went after the won position was reached. Each of its units taken from
then on is a :class:`Taken`: by what (the king, a pawn, a piece), whether the hero had
just moved it there (*stepped*) or it stood there from before (*stood*), whether one of
the hero's units attacked the square (*defended*) or none did (*hanging*), and whether
the hero took back on that square at its next move; beside them, how many times the
other side promoted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import astuple, dataclass

import chess

from bots.tools.arena import wilson_interval

#: Points ahead that make a position won, kept for ``WON_MOVES`` moves of one's own.
WON_MARGIN = 5
WON_MOVES = 20

_POINTS = {"Q": 9, "R": 5, "B": 3, "N": 3, "P": 1}


def material(board: chess.Board, color: chess.Color) -> str:
    """``color``'s pieces besides the king, as letters (``QRRBNPPP``; ``-``: none)."""
    letters = ""
    for kind in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
        count = board.pieces_mask(kind, color).bit_count()
        letters += chess.piece_symbol(kind).upper() * count
    return letters or "-"


def points(letters: str) -> int:
    """The material value of a side's letters from :func:`material` (``-`` is 0)."""
    return sum(_POINTS.get(letter, 0) for letter in letters)


def ahead(mine: str, theirs: str) -> int:
    """Points ahead (negative: behind) of ``mine`` over ``theirs``."""
    return points(mine) - points(theirs)


def material_bin(mine: str, theirs: str) -> str:
    """A material balance, binned: against a lone king the pieces by name (``K+Q vs K``,
    up to three pieces), otherwise by points ahead."""
    if theirs == "-":
        if mine == "-":
            return "K vs K"
        return f"K+{mine} vs K" if len(mine) <= 3 else "K+4 or more vs K"
    lead = ahead(mine, theirs)
    if lead >= 5:
        return ">=5 points ahead"
    if lead >= 1:
        return "1-4 points ahead"
    if lead == 0:
        return "level"
    return "behind"


def trail(board: chess.Board, color: chess.Color) -> list[tuple[str, str]]:
    """``color``'s material and the other side's after each of ``color``'s moves in
    ``board``'s move stack, replayed from its root (the game's starting position)."""
    replay = board.root()
    figures = []
    for move in board.move_stack:
        mover = replay.turn
        replay.push(move)
        if mover == color:
            figures.append((material(replay, color), material(replay, not color)))
    return figures


def won_at(leads: Sequence[int], margin: int = WON_MARGIN, moves: int = WON_MOVES) -> int | None:
    """The move (1-based, of one's own) at which a won position is first reached, given
    the points ahead after each of one's moves: the first ``n`` such that moves
    ``n - moves + 1`` to ``n`` all ended ``margin`` or more points ahead; None: never."""
    run = 0
    for number, lead in enumerate(leads, start=1):
        run = run + 1 if lead >= margin else 0
        if run >= moves:
            return number
    return None


@dataclass(frozen=True, slots=True)
class Ending:
    """One game, from one side (the *hero*, the bot measured): how it ended and its
    material over time."""

    index: int
    reason: str
    #: the hero's result: win, draw or loss
    result: str
    #: material after each of the hero's moves (the hero's, the other's): :func:`trail`
    trail: tuple[tuple[str, str], ...]
    #: the hero's material and the other's when the game ended
    mine: str
    theirs: str

    @property
    def won_at(self) -> int | None:
        """The hero's move at which it reached a won position (:func:`won_at`), if any."""
        return won_at([ahead(mine, theirs) for mine, theirs in self.trail])

    @property
    def converted(self) -> bool:
        """Whether the hero won by checkmate."""
        return self.result == "win" and self.reason == "checkmate"


def cause(reason: str, result: str) -> str:
    """An end's cause: the reason, prefixed with ``loss:`` for a loss and ``win:`` for a
    win (a draw's reason stands alone)."""
    return f"{result}: {reason}" if result in ("loss", "win") else reason


def conversion_summary(endings: Sequence[Ending]) -> str:
    """One line: how many games reached a won position, and how many of those the hero
    won by checkmate, with its 95% Wilson interval."""
    reached = [ending for ending in endings if ending.won_at is not None]
    mated = sum(1 for ending in reached if ending.converted)
    low, high = wilson_interval(mated, len(reached))
    share = 100 * mated / len(reached) if reached else 0.0
    return (
        f"won positions (>= {WON_MARGIN} points ahead after {WON_MOVES} consecutive moves of "
        f"its own): reached in {len(reached)} of {len(endings)} games; mated in {mated} "
        f"= {share:.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%)"
    )


def conversion_table(endings: Sequence[Ending]) -> list[str]:
    """Lines of a markdown table of the games that reached a won position and were not
    won by checkmate: one line per game, with its cause, the move at which the won
    position was reached and how many moves of its own the hero played after it, the
    material then and at the end (letters and bin)."""
    lines = [
        "| game | cause | reached at move | moves after | material then | material at the end |",
        "| ---: | --- | ---: | ---: | --- | --- |",
    ]
    for ending in sorted(endings, key=lambda ending: ending.index):
        number = ending.won_at
        if number is None or ending.converted:
            continue
        then_mine, then_theirs = ending.trail[number - 1]
        then = f"{then_mine} vs {then_theirs} ({material_bin(then_mine, then_theirs)})"
        end = f"{ending.mine} vs {ending.theirs} ({material_bin(ending.mine, ending.theirs)})"
        why = cause(ending.reason, ending.result)
        after = len(ending.trail) - number
        lines.append(f"| {ending.index} | {why} | {number} | {after} | {then} | {end} |")
    return lines


def cause_table(endings: Sequence[Ending]) -> list[str]:
    """Lines of a markdown table of the games that were not wins: one line per cause and
    material bin at the end, with the count and the game indices."""
    games: dict[tuple[str, str], list[int]] = {}
    for ending in endings:
        if ending.result == "win":
            continue
        key = (cause(ending.reason, ending.result), material_bin(ending.mine, ending.theirs))
        games.setdefault(key, []).append(ending.index)
    lines = ["| cause | material at the end | games | indices |", "| --- | --- | ---: | --- |"]
    for (why, where), indices in sorted(
        games.items(), key=lambda item: (item[0][0], -len(item[1]))
    ):
        listed = " ".join(str(index) for index in sorted(indices))
        lines.append(f"| {why} | {where} | {len(indices)} | {listed} |")
    return lines


def taken_square(board: chess.Board, move: chess.Move) -> chess.Square:
    """Where ``move`` (legal on ``board``) takes: its target, or the pawn passed en passant."""
    if board.is_en_passant(move):
        return chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
    return move.to_square


@dataclass(frozen=True, slots=True)
class Taken:
    """One of the hero's units taken: its points, the taker (``king``, ``pawn`` or
    ``piece``), whether the hero had moved it there at its last move, whether one of the
    hero's units attacked its square, whether the hero took back there next, and
    whether the move that brought it there took a unit (an exchange the hero began)."""

    points: int
    taker: str
    stepped: bool
    defended: bool
    retaken: bool
    took: bool = False

    @property
    def kind(self) -> str:
        """The capture's class, as the bleed table prints it."""
        arrived = "took there" if self.took else "stepped there" if self.stepped else "stood there"
        return (
            f"by {'the king' if self.taker == 'king' else 'a ' + self.taker}, "
            f"{arrived}, "
            f"{'defended' if self.defended else 'hanging'}, "
            f"{'taken back' if self.retaken else 'not taken back'}"
        )


@dataclass(frozen=True, slots=True)
class Bleed:
    """Where the hero's material went after a won position (:func:`bleed`)."""

    taken: tuple[Taken, ...] = ()
    #: the other side's promotions
    promotions: int = 0


def bleed(board: chess.Board, color: chess.Color, after: int) -> Bleed:
    """``color``'s units taken and the other side's promotions in ``board``'s move stack
    (replayed from its root) after ``color``'s move number ``after`` (1-based)."""
    replay = board.root()
    moves = board.move_stack
    played = 0
    arrived: dict[chess.Square, int] = {}  # our unit's square: the ply it moved there
    took = False  # whether our last move took a unit
    taken: list[Taken] = []
    promotions = 0
    for ply, move in enumerate(moves):
        mover = replay.turn
        if mover == color:
            played += 1
            arrived[move.to_square] = ply
            took = replay.is_capture(move)
        elif played >= after:
            promotions += move.promotion is not None
            square = taken_square(replay, move)
            victim = replay.piece_at(square)
            if victim is not None and victim.color == color:
                moved = replay.piece_type_at(move.from_square)
                following = moves[ply + 1] if ply + 1 < len(moves) else None
                taken.append(
                    Taken(
                        points(victim.symbol().upper()),
                        "king"
                        if moved == chess.KING
                        else "pawn"
                        if moved == chess.PAWN
                        else "piece",
                        arrived.get(square) == ply - 1,
                        replay.is_attacked_by(color, square),
                        following is not None and following.to_square == move.to_square,
                        arrived.get(square) == ply - 1 and took,
                    )
                )
        replay.push(move)
    return Bleed(tuple(taken), promotions)


def bleed_table(bleeds: Sequence[Bleed]) -> list[str]:
    """Lines: the other side's promotions over ``bleeds`` (one per won position not
    converted), then a markdown table of the hero's units taken, by class, with their
    count and points, most points first."""
    if not bleeds:
        return []
    promoted = sum(one.promotions for one in bleeds)
    games = sum(1 for one in bleeds if one.promotions)
    lines = [
        f"after the won positions not converted ({len(bleeds)}): the other side promoted "
        f"{promoted} times (in {games} of them); the hero's units taken:",
        "| taken | captures | points |",
        "| --- | ---: | ---: |",
    ]
    counts: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    for one in bleeds:
        for capture in one.taken:
            counts[capture.kind] += 1
            lost[capture.kind] += capture.points
    for kind in sorted(lost, key=lambda kind: (-lost[kind], kind)):
        lines.append(f"| {kind} | {counts[kind]} | {lost[kind]} |")
    return lines


@dataclass(frozen=True, slots=True)
class Flow:
    """One side's material over a game: points lost to captures, points gained by
    promotions, and its moves (all, pawn, king)."""

    lost: int = 0
    promoted: int = 0
    moves: int = 0
    pawn_moves: int = 0
    king_moves: int = 0
    #: the other side's captures this side could take back at once (a legal capture on
    #: the taker's square), how many it did take back, and the points of the takers left
    retakable: int = 0
    retaken: int = 0
    spared: int = 0

    def __add__(self, other: Flow) -> Flow:
        pairs = zip(astuple(self), astuple(other), strict=True)
        return Flow(*(mine + theirs for mine, theirs in pairs))


@dataclass(frozen=True, slots=True)
class Retake:
    """A capture that the other side could answer at once by a legal capture on the
    taker's square: who answers, where, the taker and the unit it took, the answers it
    had, its next move (None: the game ended) and the move's number."""

    color: chess.Color  #: the side that could take back
    square: chess.Square
    taker: chess.Piece
    victim: chess.Piece
    answers: tuple[str, ...]
    following: chess.Move | None
    number: int  #: the full move number of the answer

    @property
    def retaken(self) -> bool:
        """The next move took back on the square."""
        return self.following is not None and self.following.to_square == self.square


def retakes(board: chess.Board) -> list[Retake]:
    """Every capture in ``board``'s move stack (replayed from its root) that the other
    side could have answered at once on the taker's square."""
    found = []
    replay = board.root()
    moves = board.move_stack
    for ply, move in enumerate(moves):
        victim = replay.piece_at(taken_square(replay, move)) if replay.is_capture(move) else None
        replay.push(move)
        if victim is None:
            continue
        answers = tuple(a.uci() for a in replay.legal_moves if a.to_square == move.to_square)
        taker = replay.piece_at(move.to_square)
        if answers and taker is not None:
            following = moves[ply + 1] if ply + 1 < len(moves) else None
            found.append(
                Retake(
                    replay.turn,
                    move.to_square,
                    taker,
                    victim,
                    answers,
                    following,
                    replay.fullmove_number,
                )
            )
    return found


def flows(board: chess.Board) -> dict[chess.Color, Flow]:
    """Each colour's :class:`Flow` over ``board``'s move stack, replayed from its root."""
    counts = {color: Counter[str]() for color in chess.COLORS}
    replay = board.root()
    for move in board.move_stack:
        mover = replay.turn
        moved = replay.piece_type_at(move.from_square)
        if replay.is_capture(move):
            square = taken_square(replay, move)
            taken = replay.piece_type_at(square)
            if taken is not None:
                counts[not mover]["lost"] += points(chess.piece_symbol(taken).upper())
        if move.promotion:
            counts[mover]["promoted"] += points(chess.piece_symbol(move.promotion).upper()) - 1
        counts[mover]["moves"] += 1
        counts[mover]["pawn_moves"] += moved == chess.PAWN
        counts[mover]["king_moves"] += moved == chess.KING
        replay.push(move)
    for one in retakes(board):
        counts[one.color]["retakable"] += 1
        if one.retaken:
            counts[one.color]["retaken"] += 1
        else:
            counts[one.color]["spared"] += points(one.taker.symbol().upper())
    return {color: Flow(**figures) for color, figures in counts.items()}


def unanswered(board: chess.Board, color: chess.Color) -> list[str]:
    """The other side's captures that ``color`` could have answered at once on the
    taker's square and did not (:func:`retakes`), one line each: the move number, the
    taker and the unit taken, the answers ``color`` had, the move it played instead (the
    cases :class:`Flow`'s ``spared`` counts, for a replay to look into)."""
    return [
        f"move {one.number}: {one.taker.symbol().upper()}x{one.victim.symbol().upper()} on "
        f"{chess.square_name(one.square)}, answers {' '.join(one.answers)}, played "
        f"{'nothing (the game ended)' if one.following is None else one.following.uci()}"
        for one in retakes(board)
        if one.color == color and not one.retaken
    ]


def flow_summary(hero: Flow, other: Flow, label: str = "all games") -> str:
    """One line: the hero's flow beside the other side's."""

    def share(part: int, whole: int) -> str:
        return f"{100 * part / max(1, whole):.1f}%"

    return (
        f"material's flow ({label}), hero / other: lost to captures {hero.lost} / "
        f"{other.lost} points, gained by promotions {hero.promoted} / {other.promoted}; "
        f"pawn moves {share(hero.pawn_moves, hero.moves)} / "
        f"{share(other.pawn_moves, other.moves)}, king moves "
        f"{share(hero.king_moves, hero.moves)} / {share(other.king_moves, other.moves)}; "
        f"captures taken back at once {hero.retaken}/{hero.retakable} "
        f"({share(hero.retaken, hero.retakable)}) / {other.retaken}/{other.retakable} "
        f"({share(other.retaken, other.retakable)}), the takers' points left "
        f"{hero.spared} / {other.spared}"
    )
