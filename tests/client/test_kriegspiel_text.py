"""The terminal client's Kriegspiel sentences: English en passant, plurals, hints."""

from __future__ import annotations

import chess

from client_cli.games.kriegspiel.model import KriegBoard
from client_cli.games.kriegspiel.words import WORDS
from client_cli.state import describe_hint
from client_cli.words import Words
from server.games.kriegspiel import KriegspielConfig, new_game


def play(rules: str, moves: list[str], lang: str = "en") -> tuple[KriegBoard, KriegBoard]:
    """White's and black's boards after ``moves`` under ``rules``, fed every projection."""
    game, events = new_game(KriegspielConfig(rules=rules), b"seed")
    for uci in moves:
        seat = game.to_move
        assert seat is not None
        events += game.apply(seat, uci)
    boards = KriegBoard(words=Words(WORDS, lang)), KriegBoard(words=Words(WORDS, lang))
    for seat, board in enumerate(boards):
        for event in events:
            projection = event.view(seat)
            if projection is not None:
                board.apply_event(projection)
    return boards


def test_english_en_passant_names_the_landing_square() -> None:
    white, black = play("english", ["e2e4", "a7a6", "e4e5", "d7d5", "e5d6"])
    assert white.log[-1] == "You moved e5d6. Capture en passant at d6 (pawn d5 taken)."
    assert black.log[-1] == "White moved. Capture en passant at d6 (pawn d5 taken)."
    assert black.board.piece_at(chess.D5) is None  # the right pawn leaves black's board
    assert white.board.piece_at(chess.D6) == chess.Piece(chess.PAWN, chess.WHITE)


def test_the_umpire_speaks_italian_with_the_right_person() -> None:
    white, black = play("english", ["e2e4", "a7a6", "e4e5", "d7d5", "e5d6"], "it")
    assert white.log[-1] == "Hai mosso e5d6. Presa en passant in d6 (preso il pedone in d5)."
    assert black.log[-1] == "Il bianco ha mosso. Presa en passant in d6 (preso il pedone in d5)."
    assert white.log[0] == "Si comincia con le regole english. Giochi col bianco."


def test_other_rule_sets_announce_the_captured_pawn_only() -> None:
    _, black = play("wild16", ["e2e4", "a7a6", "e4e5", "d7d5", "e5d6"])
    assert "White moved. Capture on d5 (pawn)." in black.log
    assert not any("en passant" in line for line in black.log)


def test_pawn_tries_agree_in_number() -> None:
    board = KriegBoard(color="black")
    assert board.apply_event({"type": "pawn_tries", "color": "white", "count": 1}) == (
        "White: 1 pawn try."
    )
    assert board.apply_event({"type": "pawn_tries", "color": "white", "count": 2}) == (
        "White: 2 pawn tries."
    )
    assert board.apply_event({"type": "pawn_tries", "color": "black", "pawns": 1}) == (
        "You: 1 pawn can capture."
    )


def test_a_hint_shows_no_rule_names() -> None:
    frame = {
        "type": "hint",
        "action": "7x4",
        "probability": 0.79,
        "explanation": "Bid at least 7 fours: it is true with probability 79%.",
        "rules": ["set-thresholds", "situation-normal", "choose-bid"],
    }
    text = describe_hint(frame)
    assert text == "Hint: 7x4 (79%). Bid at least 7 fours: it is true with probability 79%."
