"""Test helpers for ``kriegspiel-meta``: play local games while checking the invariant.

:class:`Checked` wraps the bot and, after every projection it folds in, compares its
metaposition with the real board, which the *test* reads from the events' truths (the
bot never sees them).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import chess

from bots.baseline import KriegspielRandom
from bots.kriegspiel.meta import KriegspielMeta, Metaposition
from bots.kriegspiel.meta.metaposition import STANDARD_COUNTS
from bots.kriegspiel.meta.presence import Presence
from bots.sdk.bot import Bot
from bots.sdk.local import LocalGame, play_local
from server.games.base import Event
from tests.bots.kriegspiel_squares import bb

KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)


def violations(meta: Metaposition, board: chess.Board) -> list[str]:
    """Every way ``meta`` fails to contain the real position ``board`` (none if sound)."""
    problems = []
    enemy = not meta.color
    for kind in KINDS:
        for square in chess.SquareSet(board.pieces_mask(kind, enemy)):
            if not meta.may[kind] & chess.BB_SQUARES[square]:
                name = chess.piece_name(kind)
                problems.append(f"enemy {name} on {chess.square_name(square)} outside its set")
    if meta.known & ~board.occupied_co[enemy]:
        problems.append(f"known squares {chess.SquareSet(meta.known)} not all occupied")
    units = (board.occupied_co[enemy] & ~board.kings).bit_count()
    if units != meta.units:
        problems.append(f"enemy units {units}, metaposition says {meta.units}")
    if units and meta.pawns_max < board.pieces_mask(chess.PAWN, enemy).bit_count():
        problems.append("pawn bound too low")
    own = chess.Board(None)
    for square in chess.SquareSet(board.occupied_co[meta.color]):
        piece = board.piece_at(square)
        assert piece is not None
        own.set_piece_at(square, piece)
    if own.board_fen() != meta.own.board_fen():
        problems.append(f"own board {meta.own.board_fen()} != {own.board_fen()}")
    return problems


class Checked(KriegspielMeta):
    """A ``kriegspiel-meta`` that checks its metaposition against the truth as it plays."""

    def __init__(self, truth: dict[str, chess.Board], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.truth = truth
        self.problems: list[str] = []

    async def observe(self, event: dict[str, Any]) -> None:
        await super().observe(event)
        if self.meta is not None and not self.problems:
            found = violations(self.meta, self.truth["board"])
            if found:
                self.problems = [f"after {event}: {p}" for p in found]


def truth_sink(truth: dict[str, chess.Board]) -> Any:
    """An event sink that keeps ``truth["board"]`` at the real position."""

    def sink(events: list[Event]) -> None:
        for event in events:
            fen = event.truth.get("fen")
            if isinstance(fen, str):
                truth["board"] = chess.Board(fen)

    return sink


async def checked_game(
    rules: str,
    seed: int,
    *,
    meta_seat: int = 0,
    fen: str | None = None,
    opponent: Bot | None = None,
    cls: type[Checked] = Checked,
    **kwargs: Any,
) -> tuple[LocalGame, Checked]:
    """One local game of ``cls`` (a ``Checked``) against ``opponent`` (default: random).

    A budget in seconds is measured in the thread's CPU time unless ``clock`` is given,
    so that a loaded machine does not weaken it (rates asserted on its games stay true);
    a budget in nodes (``budget="nodes=500"``) plays the same game on any machine."""
    kwargs.setdefault("clock", time.thread_time)
    truth: dict[str, chess.Board] = {"board": chess.Board(fen) if fen else chess.Board()}
    meta = cls(truth, seed=seed, **kwargs)
    other = opponent if opponent is not None else KriegspielRandom(seed=seed + 1)
    bots: list[Bot] = [meta, other] if meta_seat == 0 else [other, meta]
    options: dict[str, Any] = {"rules": rules}
    if fen is not None:
        options["fen"] = fen
    played = await play_local(
        "kriegspiel", options, bots, seed.to_bytes(8, "big"), sink=truth_sink(truth)
    )
    return played, meta


class CentreKing(Bot):
    """A defender that always tries the king step that ends nearest the centre first.

    It knows only its own pieces; among its possible attempts it prefers king moves by
    the distance of their target to the centre (ties at random), then anything else.
    """

    name = "centre-king"

    def __init__(self, seed: int | None = None) -> None:
        import random

        self.rng = random.Random(seed)

    async def decide(self, decision: Any) -> str:
        legal: list[str] = [a for a in decision.legal if a not in _PASSIVE]
        if not legal:
            return "decline_draw" if "decline_draw" in decision.legal else decision.legal[0]
        board = chess.Board(None)
        board.set_board_fen(decision.view["board"])

        def key(text: str) -> tuple[float, float]:
            move = chess.Move.from_uci(text)
            if board.piece_type_at(move.from_square) != chess.KING:
                return (10.0, self.rng.random())
            file, rank = chess.square_file(move.to_square), chess.square_rank(move.to_square)
            return (abs(file - 3.5) + abs(rank - 3.5), self.rng.random())

        return min(legal, key=key)


_PASSIVE = frozenset({"resign", "offer_draw", "accept_draw", "decline_draw", "any"})


class TrackingRandom(KriegspielRandom):
    """A random player that keeps a metaposition (without using it) and checks it, to
    test the updates on the wilder games random players make."""

    def __init__(self, truth: dict[str, chess.Board], seed: int) -> None:
        super().__init__(seed=seed)
        self.truth = truth
        self.meta: Metaposition | None = None
        self.problems: list[str] = []

    async def start(self, info: Any) -> None:
        await super().start(info)
        fen = info.options.get("fen")
        self.meta = Metaposition.from_start(
            info.view["color"] == "white", info.options["rules"], fen
        )

    async def observe(self, event: dict[str, Any]) -> None:
        from bots.kriegspiel.meta import observe

        assert self.meta is not None
        observe(self.meta, event)
        if not self.problems:
            found = violations(self.meta, self.truth["board"])
            if found:
                self.problems = [f"after {event}: {p}" for p in found]


async def tracked_random_game(rules: str, seed: int, fen: str | None = None) -> list[str]:
    """A random-vs-random game with both seats tracked; the problems found."""
    truth: dict[str, chess.Board] = {"board": chess.Board(fen) if fen else chess.Board()}
    bots = [TrackingRandom(truth, seed), TrackingRandom(truth, seed + 7)]
    options: dict[str, Any] = {"rules": rules}
    if fen is not None:
        options["fen"] = fen
    await play_local("kriegspiel", options, bots, seed.to_bytes(8, "big"), sink=truth_sink(truth))
    return bots[0].problems + bots[1].problems


def random_start(
    pieces: list[chess.PieceType], seed: int, theirs: Sequence[chess.PieceType] = ()
) -> str:
    """A random legal position: white king and ``pieces`` against the black king and
    ``theirs`` (none: a lone king), white to move, not already over (the endgame tests'
    and benchmark's starts; the starts against a lone king are the same as before
    ``theirs`` was added)."""
    import random

    rng = random.Random(seed)
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(pieces) + len(theirs))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        ours = squares[2 : 2 + len(pieces)]
        for kind, square in zip(pieces, ours, strict=True):
            board.set_piece_at(square, chess.Piece(kind, chess.WHITE))
        for kind, square in zip(theirs, squares[2 + len(pieces) :], strict=True):
            board.set_piece_at(square, chess.Piece(kind, chess.BLACK))
        board.turn = chess.WHITE
        if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
            continue
        if board.is_valid() and not board.is_game_over():
            return board.fen()


async def play_start(
    pieces: list[chess.PieceType], start: int, defender: str = "random", nodes: int = 2000
) -> LocalGame:
    """The endgame benchmark's game from :func:`random_start` number ``start``:
    ``kriegspiel-meta`` at ``nodes`` a decision, white, against the ``random`` king
    (``kriegspiel-random``) or the ``centre`` one (:class:`CentreKing`), seeded by the
    start, so it is the same game on any machine."""
    fen = random_start(pieces, start)
    bot = KriegspielMeta(seed=start, budget=f"nodes={nodes}")
    other: Bot = CentreKing(seed=start) if defender == "centre" else KriegspielRandom(seed=start)
    return await play_local("kriegspiel", {"fen": fen}, [bot, other], start.to_bytes(8, "big"))


def attempts(meta: Metaposition) -> list[str]:
    """Our attempts: the moves on our own board, and each pawn's captures."""
    board = meta.own
    moves = [move.uci() for move in board.generate_pseudo_legal_moves()]
    for pawn in board.pieces(chess.PAWN, meta.color):
        targets = chess.BB_PAWN_ATTACKS[meta.color][pawn] & ~board.occupied
        moves += [chess.Move(pawn, target).uci() for target in chess.SquareSet(targets)]
    return moves


def rebuilt(recorded: Mapping[str, Any]) -> Metaposition:
    """A metaposition recorded at one of the bot's decisions, from a test's literal:
    ``own`` (our board's placement), ``color``, ``units``, ``may`` (kind: square names),
    the presence map's ``weights`` (kind: {square name: weight}, or ``"a2=0.14 c2=0.08"``)
    and ``mass`` (kind: expected count; the weights' sum where not given); any other key
    is a :class:`Metaposition` field as it was (``known``, ``blockers``, ``doubtful``,
    ``attacked`` and ``their_ep`` as square names; ``start_counts`` the usual army's where
    not given). The map's small weights may be left out: what a test asserts on the
    rebuilt position must not hang on them. Without a ``history`` our placement is its
    one entry (the bot had played it)."""
    fields = dict(recorded)
    color = fields.pop("color")
    own = chess.Board(None)
    own.set_board_fen(str(fields.pop("own")))
    own.turn = color
    may = [0] * 7
    for kind, names in fields.pop("may").items():
        may[kind] = bb(*str(names).split())
    weights = [[0.0] * 64 for _ in range(7)]
    mass = [0.0] * 7
    for kind, row in fields.pop("weights").items():
        pairs = row.items() if isinstance(row, Mapping) else (i.split("=") for i in row.split())
        for name, weight in pairs:
            weights[kind][chess.parse_square(name)] = float(weight)
        mass[kind] = sum(weights[kind])
    for kind, value in fields.pop("mass", {}).items():
        mass[kind] = value
    for name in ("known", "blockers", "doubtful", "attacked", "their_ep"):
        if isinstance(fields.get(name), str):
            fields[name] = bb(*fields[name].split())
    fields.setdefault("start_counts", dict(STANDARD_COUNTS))
    meta = Metaposition(
        color=color,
        rules=fields.pop("rules", "wild16"),
        own=own,
        may=may,
        presence=Presence(not color, weights, mass),
        **fields,
    )
    if not meta.history:
        meta.history.append(own.board_fen())
    return meta
