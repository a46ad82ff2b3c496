"""Kriegspiel observations and actions as fixed-shape arrays, for learning agents.

Everything here is a function of one seat's snapshot, ``Game.view(seat)``: its own pieces,
the attempts refused this turn and the umpire's announcements it heard. The encoder never
sees the real board, so an observation holds nothing the seat may not know. Squares are
python-chess's (a1 = 0 ... h8 = 63), the same for both colours. Layout (docs/learning.md):

==================  ======  =================================================================
slice               size    meaning
==================  ======  =================================================================
own pieces          6 x 64  planes for the observer's pawns, knights, bishops, rooks,
                            queens, king
refused             2 x 64  from- and to-squares of the attempts refused this turn
capture             64      the square of the last announced capture (any side)
check               5       the last move's check directions: file, rank, long diagonal,
                            short diagonal, knight
flags               8       white, my turn, last move was mine, must try a pawn capture,
                            draw offered by me, draw offered to me, pawn tries heard this
                            turn (count / 8, 1 for yes), the game is over
fullmove            1       the move number / 100
==================  ======  =================================================================

Actions are indices: an attempt ``from``-``to`` is ``from * 64 + to`` plus ``4096 * p``
for a promotion (``p`` = 1 queen, 2 rook, 3 bishop, 4 knight); the words ``any``,
``resign``, ``offer_draw``, ``accept_draw``, ``decline_draw`` follow at 20480..20484.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import chess
import numpy as np
import numpy.typing as npt

from server.games.kriegspiel_actions import COMMAND_WORDS

Json = Any

_PROMOTIONS = (None, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
_CHECKS = ("file", "rank", "long_diagonal", "short_diagonal", "knight")
_ATTEMPTS = 64 * 64 * len(_PROMOTIONS)

PIECES = 0
REFUSED = 6 * 64
CAPTURE = REFUSED + 2 * 64
CHECK = CAPTURE + 64
FLAGS = CHECK + len(_CHECKS)
FULLMOVE = FLAGS + 8
SHAPE = (FULLMOVE + 1,)
NUM_ACTIONS = _ATTEMPTS + len(COMMAND_WORDS)


@functools.lru_cache(maxsize=65_536)
def action_index(text: str) -> int:
    """The index of an action's text (``"e2e4"``, ``"e7e8n"``, ``"any"``, ...)."""
    if text in COMMAND_WORDS:
        return _ATTEMPTS + COMMAND_WORDS.index(text)
    move = chess.Move.from_uci(text)
    return move.from_square * 64 + move.to_square + 4096 * _PROMOTIONS.index(move.promotion)


def action_text(index: int) -> str:
    """The text of the action at ``index`` (what the engine's ``apply`` reads)."""
    if _ATTEMPTS <= index < NUM_ACTIONS:
        return COMMAND_WORDS[index - _ATTEMPTS]
    if not 0 <= index < _ATTEMPTS:
        raise ValueError(f"no Kriegspiel action has index {index} (0..{NUM_ACTIONS - 1})")
    promotion, square_pair = divmod(index, 4096)
    from_square, to_square = divmod(square_pair, 64)
    return chess.Move(from_square, to_square, _PROMOTIONS[promotion]).uci()


class KriegspielEncoding:
    """The array form of Kriegspiel's observations and actions (one for every rule set)."""

    shape = SHAPE
    num_actions = NUM_ACTIONS

    def action_index(self, text: str) -> int:
        """See :func:`action_index`."""
        return action_index(text)

    def action_text(self, index: int) -> str:
        """See :func:`action_text`."""
        return action_text(index)

    def mask(self, legal: list[str]) -> npt.NDArray[np.int8]:
        """The action mask (1: legal) of the seat's legal action texts."""
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        out[[action_index(text) for text in legal]] = 1
        return out

    def encode(self, view: Mapping[str, Json]) -> npt.NDArray[np.float32]:
        """The observation vector of a seat's snapshot ``view`` (``Game.view(seat)``)."""
        out = np.zeros(SHAPE, dtype=np.float32)
        board = chess.BaseBoard(view["board"])
        for square, piece in board.piece_map().items():
            out[PIECES + 64 * (piece.piece_type - 1) + square] = 1.0
        for text in view["refused"]:
            move = chess.Move.from_uci(text)
            out[REFUSED + move.from_square] = 1.0
            out[REFUSED + 64 + move.to_square] = 1.0
        color = view["color"]
        mine = color == view["to_move"]
        last_move_mine = False
        tries = 0.0
        # The newest announcements first: the last move, and what this turn brought.
        for heard in reversed(view["announcements"]):
            kind = heard["type"]
            if kind == "pawn_tries" and heard["color"] == view["to_move"] and not tries:
                tries = _tries(heard)
            elif kind == "any" and heard["color"] == view["to_move"] and not tries:
                tries = 1.0 if heard["answer"] else 0.0
            elif kind == "move":
                if heard["capture"] is not None:
                    out[CAPTURE + chess.parse_square(heard["capture"])] = 1.0
                for direction in heard["check"]:
                    out[CHECK + _CHECKS.index(direction)] = 1.0
                last_move_mine = heard["color"] == color
                break
        offer = view["draw_offer"]
        flags = (
            color == "white",
            mine,
            last_move_mine,
            bool(view["must_try_pawn_capture"]),
            offer == color,
            offer is not None and offer != color,
        )
        out[FLAGS : FLAGS + 6] = flags
        out[FLAGS + 6] = tries
        out[FLAGS + 7] = view["outcome"] is not None
        out[FULLMOVE] = min(view["fullmove"], 100) / 100
        return out


def _tries(heard: Mapping[str, Json]) -> float:
    """How many pawn captures a ``pawn_tries`` announcement says there are, in 0..1."""
    if "count" in heard:
        return min(int(heard["count"]), 8) / 8
    if "pawns" in heard:
        return min(int(heard["pawns"]), 8) / 8
    return 1.0 if heard.get("any") else 0.0
