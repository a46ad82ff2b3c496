"""Hand-built Kriegspiel positions: every announcement of every rule set, and every refusal."""

from __future__ import annotations

from typing import Any

import chess
import pytest

from server.games import engine
from server.games.base import ConfigError, Event, IllegalAction, Outcome
from server.games.kriegspiel import (
    ACCEPT_DRAW,
    ASK_ANY,
    DECLINE_DRAW,
    OFFER_DRAW,
    RESIGN,
    Attempt,
    Command,
    KriegspielConfig,
    KriegspielGame,
    new_game,
)
from server.games.kriegspiel_rules import (
    check_direction,
    diagonal_lengths,
    legal_pawn_captures,
)
from tests.games.kriegspiel_leakcheck import LeakChecker
from tests.games.views import seen

RULES = ("wild16", "cincinnati", "rand", "english")


class Table:
    """A game under a leak checker, with short helpers for the tests."""

    def __init__(self, rules: str = "wild16", fen: str | None = None, **options: Any) -> None:
        config = KriegspielConfig(rules=rules, fen=fen, **options)
        self.game, self.opening = new_game(config, b"seed")
        self.checker = LeakChecker(self.game, self.opening)

    def play(self, *actions: str) -> list[Event]:
        """Send each action for the seat to move; return all their events."""
        events: list[Event] = []
        for action in actions:
            seat = self.game.to_move
            assert seat is not None, f"the game is over before {action!r}"
            events.extend(self.checker.apply(seat, action))
        return events

    def send(self, seat: int, action: str) -> list[Event]:
        """Send one action for a given seat."""
        return self.checker.apply(seat, action)

    def refuse(self, seat: int, action: str, code: str) -> IllegalAction:
        """Send an action that must be refused with ``code``; the game must not change."""
        history = list(self.game.history)
        views = [self.game.view(viewer) for viewer in (0, 1, None)]
        with pytest.raises(IllegalAction) as caught:
            self.game.apply(seat, action)
        assert caught.value.code == code, caught.value.reason
        assert self.game.history == history
        assert [self.game.view(viewer) for viewer in (0, 1, None)] == views
        return caught.value


def only(events: list[Event], kind: str) -> Event:
    """The single event of ``kind`` in ``events``."""
    found = [event for event in events if event.type == kind]
    assert len(found) == 1, [event.type for event in events]
    return found[0]


def tries_of(table: Table) -> Event:
    """The last pawn-tries event of the game so far."""
    truths = [truth for truth in table.game.truths if truth["type"] == "pawn_tries"]
    assert truths
    return Event(truths[-1], (None, None), None)


# -- config, actions, registry ------------------------------------------------------------


def test_registry_and_config_round_trip() -> None:
    kriegspiel = engine("kriegspiel")
    assert kriegspiel.config_type is KriegspielConfig and kriegspiel.game_type is KriegspielGame
    assert KriegspielGame.name == "kriegspiel"
    config = kriegspiel.make_config({"rules": "rand", "auto_threefold": False})
    assert config.seats == 2
    assert KriegspielConfig.from_options(config.to_options()) == config
    assert KriegspielConfig.from_options({}) == KriegspielConfig()
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    with_fen = KriegspielConfig.from_options({"fen": fen})
    assert KriegspielConfig.from_options(with_fen.to_options()) == with_fen


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"rules": "icc"}, "'rules'"),
        ({"rules": 3}, "'rules'"),
        ({"colour": "white"}, "'colour'"),
        ({"auto_fifty_moves": "yes"}, "'auto_fifty_moves'"),
        ({"auto_threefold": 1}, "'auto_threefold'"),
        ({"fen": "not a fen"}, "not a FEN"),
        ({"fen": 7}, "'fen'"),
        ({"fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}, "already over"),
        ({"fen": "4k3/8/8/8/8/8/8/8 w - - 0 1"}, "no_white_king"),
    ],
)
def test_config_errors_name_the_option(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        KriegspielConfig.from_options(options)


def test_actions_round_trip() -> None:
    for text in ("e2e4", "e7e8q", "a2b1n", "any", "resign", "offer_draw", "accept_draw"):
        action = KriegspielGame.parse_action(text)
        assert str(action) == text
        assert KriegspielGame.parse_action(str(action)) == action
        assert eval(repr(action)) == action
    assert KriegspielGame.parse_action(" E2E4 ") == Attempt.from_uci("e2e4")
    assert KriegspielGame.parse_action("decline_draw") == DECLINE_DRAW
    with pytest.raises(ValueError):
        Command("castle")


@pytest.mark.parametrize("text", ["", "hello", "e2e2", "0000", "e2e9", "e2", "P@e4", "x" * 40])
def test_malformed_actions(text: str) -> None:
    table = Table()
    reason = table.refuse(0, text, "malformed").reason
    assert reason


def test_forfeit_text_cannot_be_sent() -> None:
    Table().refuse(0, "forfeit:timeout", "malformed")


# -- attempts, refusals and the legal actions ------------------------------------------------


def test_not_your_turn_and_repeated() -> None:
    table = Table("cincinnati")
    table.refuse(1, "e7e5", "not_your_turn")
    table.play("e2e4", "e7e5")
    events = table.play("e4e5")  # blocked by the black pawn: illegal, not impossible
    illegal = only(events, "illegal")
    assert illegal.seats[0] == {
        "type": "illegal",
        "color": "white",
        "seat": 0,
        "move": "e4e5",
        "answer": "illegal",
    }
    assert illegal.seats[1] == {"type": "illegal", "color": "white", "seat": 0, "answer": "illegal"}
    assert "e4e5" in table.refuse(0, "e4e5", "repeated").reason
    assert table.game.view(0)["refused"] == ["e4e5"]
    assert table.game.view(1)["refused"] == []
    table.refuse(1, "d7d5", "not_your_turn")
    table.play("d2d4")
    assert table.game.view(0)["refused"] == []


def test_repeated_promotion_is_refused() -> None:
    # the a7 pawn is blocked by the a8 knight: every promotion push is illegal
    table = Table("cincinnati", "n3k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    only(table.play("a7a8q"), "illegal")
    table.refuse(0, "a7a8n", "repeated")
    table.refuse(0, "a7a8q", "repeated")
    # the push without a promotion piece is another (impossible) attempt
    assert seen(only(table.play("a7a8"), "illegal"), 0)["answer"] == "impossible"


@pytest.mark.parametrize("rules", RULES)
def test_illegal_and_impossible_per_rule_set(rules: str) -> None:
    table = Table(rules)
    table.play("e2e4", "e7e5")
    illegal = only(table.play("e4e5"), "illegal")
    impossible = only(table.play("e4e6"), "illegal")
    mover_answer = seen(impossible, 0)["answer"]
    assert mover_answer == ("impossible" if rules in ("cincinnati", "rand") else "illegal")
    assert seen(illegal, 0)["answer"] == "illegal"
    if rules == "wild16":
        assert illegal.seats[1] is None and illegal.spectator is None
        assert impossible.seats[1] is None and impossible.spectator is None
    else:
        assert illegal.seats[1] == {
            "type": "illegal",
            "color": "white",
            "seat": 0,
            "answer": "illegal",
        }
        assert illegal.spectator == illegal.seats[1]
        assert impossible.seats[1] == {
            "type": "illegal",
            "color": "white",
            "seat": 0,
            "answer": mover_answer,
        }
    # attempts are recorded in the history, refusals are not
    assert [record.action for record in table.game.history] == ["e2e4", "e7e5", "e4e5", "e4e6"]


def test_attempt_from_an_enemy_square_is_impossible() -> None:
    table = Table("rand")
    event = only(table.play("e7e5"), "illegal")
    assert seen(event, 0)["answer"] == "impossible"


def test_legal_actions_come_from_the_own_board_only() -> None:
    table = Table("english")
    actions = table.game.legal_actions(0)
    attempts = [action for action in actions if isinstance(action, Attempt)]
    # 16 pawn pushes, 4 knight moves, 14 diagonal pawn steps onto rank 3
    assert len(attempts) == 34
    assert ASK_ANY in actions and RESIGN in actions and OFFER_DRAW in actions
    assert table.game.legal_actions(1) == [OFFER_DRAW, RESIGN]
    table.play("e2e4")
    assert ASK_ANY in table.game.legal_actions(1)
    # black's pieces differ, white's are the same: white's attempts must be the same
    one = KriegspielGame(KriegspielConfig(fen="4k3/8/8/3p4/8/8/4P3/R3K3 w Q - 0 1"), b"")
    two = KriegspielGame(KriegspielConfig(fen="r3k3/8/8/8/2n5/8/4P3/R3K3 w Q - 0 1"), b"")
    assert one.legal_actions(0) == two.legal_actions(0)
    assert Attempt.from_uci("e1c1") in one.legal_actions(0)
    assert Attempt.from_uci("e2d3") in one.legal_actions(0)


def test_legal_actions_drop_refused_attempts() -> None:
    table = Table()
    table.play("e2e4", "e7e5")
    before = table.game.legal_actions(0)
    table.play("e4e5")
    after = table.game.legal_actions(0)
    assert Attempt.from_uci("e4e5") in before and Attempt.from_uci("e4e5") not in after
    assert len(after) == len(before) - 1


# -- captures -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_capture_of_a_pawn(rules: str) -> None:
    table = Table(rules, "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1")
    move = only(table.play("d1d5"), "move")
    unit = None if rules == "english" else "pawn"
    assert seen(move, 1)["capture"] == "d5" and seen(move, 1)["captured"] == unit
    assert seen(move, 0)["move"] == "d1d5" and "move" not in seen(move, 1)
    assert move.spectator == move.seats[1]


@pytest.mark.parametrize("rules", RULES)
def test_capture_of_a_piece(rules: str) -> None:
    table = Table(rules, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1")
    move = only(table.play("d1d5"), "move")
    assert seen(move, 1)["capture"] == "d5"
    assert seen(move, 1)["captured"] == (None if rules == "english" else "piece")
    assert move.truth["captured_unit"] == "piece" and move.truth["san"] == "Rxd5"


@pytest.mark.parametrize("rules", RULES)
def test_en_passant_announces_the_captured_pawns_square(rules: str) -> None:
    table = Table(rules, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    table.play("d7d5")
    if rules != "english":
        assert tries_of(table).truth["moves"] == ["e5d6"]
    move = only(table.play("e5d6"), "move")
    assert move.truth["en_passant"] is True
    assert seen(move, 1)["capture"] == "d5"
    assert seen(move, 0)["capture"] == "d5"
    assert seen(move, 1)["captured"] == (None if rules == "english" else "pawn")
    # English rules (thesis 3.2): "il Bianco cattura en-passant in f6", the landing square;
    # "capture" stays the captured pawn's square, which every board needs
    for view in (move.seats[0], move.seats[1], move.spectator):
        assert view is not None
        assert view.get("en_passant_at") == ("d6" if rules == "english" else None)


# -- pawn tries ---------------------------------------------------------------------------


def test_pawn_tries_per_rule_set() -> None:
    fen = "4k3/8/8/2p1p3/3P4/8/8/4K3 w - - 0 1"  # d4 takes c5 or e5
    wild = Table("wild16", fen).opening[-1]
    assert wild.type == "pawn_tries"
    assert wild.seats[0] == wild.seats[1] == wild.spectator
    assert wild.seats[1] == {"type": "pawn_tries", "color": "white", "seat": 0, "count": 2}
    cincinnati = Table("cincinnati", fen).opening[-1]
    assert cincinnati.seats[1] == {"type": "pawn_tries", "color": "white", "seat": 0, "any": True}
    rand = Table("rand", fen).opening[-1]
    assert rand.seats[0] == {
        "type": "pawn_tries",
        "color": "white",
        "seat": 0,
        "pawns": 1,
        "squares": ["d4"],
    }
    assert (
        rand.seats[1]
        == rand.spectator
        == {"type": "pawn_tries", "color": "white", "seat": 0, "pawns": 1}
    )
    english = Table("english", fen)
    assert [event.type for event in english.opening] == ["game_started"]


def test_no_pawn_tries_announce_false() -> None:
    table = Table("cincinnati")
    assert table.opening[-1].seats[0] == {
        "type": "pawn_tries",
        "color": "white",
        "seat": 0,
        "any": False,
    }


def test_pinned_pawn_does_not_count() -> None:
    # the e4 pawn is pinned on the e-file: exd5 is not a pawn try
    table = Table("wild16", "4r1k1/8/8/3n4/4P3/8/8/4K3 w - - 0 1")
    assert seen(table.opening[-1], 0)["count"] == 0
    assert only(table.play("e4d5"), "illegal").seats[1] is None


def test_pawn_capturing_its_pinner_counts() -> None:
    table = Table("wild16", "4k3/8/8/8/8/6b1/5P2/4K3 w - - 0 1")
    assert seen(table.opening[-1], 0)["count"] == 1


def test_in_check_only_resolving_captures_count() -> None:
    table = Table("rand", "k7/8/8/8/8/2n4r/1P4P1/7K w - - 0 1")
    assert seen(table.opening[-1], 0)["squares"] == ["g2"]
    assert table.opening[-1].seats[1] == {
        "type": "pawn_tries",
        "color": "white",
        "seat": 0,
        "pawns": 1,
    }
    assert seen(only(table.play("b2c3"), "illegal"), 0)["answer"] == "illegal"


def test_capture_promotion_counts_once() -> None:
    table = Table("wild16", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert seen(table.opening[-1], 0)["count"] == 1
    board = chess.Board("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert [move.uci() for move in legal_pawn_captures(board)] == ["a7b8q"]


def test_pawn_tries_follow_each_move() -> None:
    table = Table("wild16")
    events = table.play("e2e4", "d7d5")
    assert [event.type for event in events] == ["move", "pawn_tries", "move", "pawn_tries"]
    assert events[-1].seats[0] == {"type": "pawn_tries", "color": "white", "seat": 0, "count": 1}


# -- english: "any?" ----------------------------------------------------------------------


def test_english_any_yes_and_the_duty() -> None:
    table = Table("english", "4k3/8/8/2p5/3P4/8/8/4K3 w - - 0 1")
    event = only(table.play("any"), "any")
    assert event.seats[0] == event.seats[1] == event.spectator
    assert event.seats[1] == {"type": "any", "color": "white", "seat": 0, "answer": True}
    table.refuse(0, "any", "repeated")
    table.refuse(0, "e1e2", "illegal")  # the duty: a pawn capture first
    assert table.game.view(0)["must_try_pawn_capture"] is True
    assert table.game.view(1)["must_try_pawn_capture"] is False
    assert all(str(action)[:2] == "d4" for action in table.game.legal_actions(0)[:2])
    only(table.play("d4e5"), "illegal")  # a pawn capture attempt that fails fulfils the duty
    assert table.game.view(0)["must_try_pawn_capture"] is False
    only(table.play("e1e2"), "move")


def test_english_any_no_and_timing() -> None:
    table = Table("english")
    assert seen(only(table.play("any"), "any"), 1)["answer"] is False
    table.play("e2e4")
    table.refuse(0, "any", "not_your_turn")
    table.play("e7e5")
    table.play("e4e5")  # illegal attempt first
    table.refuse(0, "any", "illegal")


@pytest.mark.parametrize("rules", ["wild16", "cincinnati", "rand"])
def test_any_only_under_english(rules: str) -> None:
    reason = Table(rules).refuse(0, "any", "illegal").reason
    assert "english" in reason


# -- checks -------------------------------------------------------------------------------


def test_diagonals_never_have_equal_length() -> None:
    for square in chess.SQUARES:
        rising, falling = diagonal_lengths(square)
        assert rising != falling
    assert diagonal_lengths(chess.A1) == (8, 1)
    assert diagonal_lengths(chess.E4) == (7, 8)


@pytest.mark.parametrize(
    ("king", "checker", "direction"),
    [
        ("a1", "c3", "long_diagonal"),
        ("h1", "f3", "long_diagonal"),
        ("d1", "f3", "long_diagonal"),
        ("d1", "b3", "short_diagonal"),
        ("e4", "g6", "short_diagonal"),
        ("e4", "c6", "long_diagonal"),
        ("e4", "f3", "long_diagonal"),
        ("e8", "c6", "long_diagonal"),
        ("e8", "g6", "short_diagonal"),
        ("b7", "a8", "long_diagonal"),
        ("b7", "c8", "short_diagonal"),
        ("g8", "c4", "long_diagonal"),
        ("g8", "h7", "short_diagonal"),
        ("e4", "e8", "file"),
        ("e4", "a4", "rank"),
    ],
)
def test_long_and_short_diagonal(king: str, checker: str, direction: str) -> None:
    assert check_direction(chess.parse_square(king), chess.parse_square(checker), False) == (
        direction
    )


@pytest.mark.parametrize(
    ("fen", "move", "checks"),
    [
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", ["rank"]),
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d7", None),
        ("3k4/8/8/8/8/8/8/R3K3 w - - 0 1", "a1d1", ["file"]),
        ("4k3/p7/8/8/8/8/8/2B1K3 w - - 0 1", "c1a3", None),
        ("4k3/p7/8/8/8/8/8/4KB2 w - - 0 1", "f1b5", ["long_diagonal"]),
        ("4k3/p7/8/8/8/8/8/4KB2 w - - 0 1", "f1h3", None),
        ("4k3/p7/8/8/8/8/8/4K1B1 w - - 0 1", "g1h2", None),
        ("4k3/p7/8/8/7B/8/8/4K3 w - - 0 1", "h4g5", None),
        ("4k3/p7/8/8/8/8/8/4K1N1 w - - 0 1", "g1f3", None),
        ("4k3/p7/8/8/4N3/8/8/4K3 w - - 0 1", "e4d6", ["knight"]),
        ("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", "f1f7", ["short_diagonal"]),
        ("4k3/8/5P2/8/8/8/8/4K3 w - - 0 1", "f6f7", ["short_diagonal"]),
        ("4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1", "e4b7", ["file"]),
        ("4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1", "e4c6", ["file", "long_diagonal"]),
        ("4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1", "e4g6", ["file", "short_diagonal"]),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", None),
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", ["file"]),
    ],
)
@pytest.mark.parametrize("rules", ["wild16", "english"])
def test_check_directions(fen: str, move: str, checks: list[str] | None, rules: str) -> None:
    table = Table(rules, fen)
    event = only(table.play(move), "move")
    assert seen(event, 1)["check"] == (checks or [])
    assert event.spectator == event.seats[1]


def test_check_on_a_king_of_each_diagonal() -> None:
    # g8's diagonals: a2-g8 (7 squares, long) and g8-h7 (2 squares, short)
    table = Table("wild16", "6k1/p7/8/1B6/8/8/8/K7 w - - 0 1")
    assert seen(only(table.play("b5c4"), "move"), 1)["check"] == ["long_diagonal"]
    table = Table("wild16", "6k1/8/8/8/8/8/8/K6Q w - - 0 1")
    assert seen(only(table.play("h1h7"), "move"), 1)["check"] == ["short_diagonal"]


# -- castling -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("black", "kingside", "queenside"),
    [
        ("4r3", False, False),  # out of check: the e8 rook checks
        ("5r2", False, True),  # through check: f1 is attacked
        ("6r1", False, True),  # into check: g1 is attacked
        ("3r4", True, False),  # through check on the queen's side: d1
        ("1r6", True, True),  # b1 attacked does not matter
        ("8", True, True),
    ],
)
def test_castling_out_of_through_into_check(black: str, kingside: bool, queenside: bool) -> None:
    fen = f"{black}/8/2k5/8/8/8/8/R3K2R w KQ - 0 1"
    for move, legal in (("e1g1", kingside), ("e1c1", queenside)):
        table = Table("cincinnati", fen)
        event = table.play(move)[0]
        assert event.type == ("move" if legal else "illegal"), (fen, move)
        if legal:
            assert event.seats[1] == {
                "type": "move",
                "color": "white",
                "seat": 0,
                "capture": None,
                "captured": None,
                "check": event.truth["check"],
            }
            assert event.truth["castling"] is True
        else:
            assert seen(event, 0)["answer"] == "illegal"


def test_castling_spelling_and_rights() -> None:
    table = Table("cincinnati", "8/8/2k5/8/8/8/8/R3K2R w KQ - 0 1")
    assert seen(only(table.play("e1h1"), "illegal"), 0)["answer"] == "impossible"
    no_rights = Table("cincinnati", "8/8/2k5/8/8/8/8/R3K2R w - - 0 1")
    assert seen(only(no_rights.play("e1g1"), "illegal"), 0)["answer"] == "impossible"
    blocked = Table("cincinnati", "8/8/2k5/8/8/8/8/R3KB1R w KQ - 0 1")
    assert seen(only(blocked.play("e1g1"), "illegal"), 0)["answer"] == "impossible"
    hidden = Table("cincinnati", "8/8/2k5/8/8/8/8/R3Kb1R w KQ - 0 1")
    assert seen(only(hidden.play("e1g1"), "illegal"), 0)["answer"] == "illegal"


# -- promotion ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_promotion_is_silent_except_under_rand(rules: str) -> None:
    table = Table(rules, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    event = only(table.play("a7a8n"), "move")
    heard = seen(event, 1)
    if rules == "rand":
        assert heard["promotion"] is True
    else:
        assert "promotion" not in heard
    assert heard["capture"] is None and heard["check"] == []
    assert event.truth["promotion_piece"] == "n"
    assert table.game.view(0)["board"] == "N7/8/8/8/8/8/8/4K3"


@pytest.mark.parametrize("rules", RULES)
def test_promotion_capture_with_check(rules: str) -> None:
    table = Table(rules, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    event = only(table.play("a7b8q"), "move")
    assert seen(event, 1)["capture"] == "b8"
    assert seen(event, 1)["check"] == ["rank"]
    if rules == "rand":
        assert seen(event, 1)["promotion"] is True
    # a non-promotion move under rand is announced as such
    if rules == "rand":
        assert seen(only(table.play("e8d7"), "move"), 0)["promotion"] is False


def test_promotion_needs_a_piece() -> None:
    table = Table("wild16", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    event = only(table.play("a7a8"), "illegal")
    assert seen(event, 0)["answer"] == "illegal" and event.seats[1] is None


# -- endings ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_checkmate(rules: str) -> None:
    table = Table(rules, "7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    events = table.play("a1a8")
    assert [event.type for event in events] == ["move", "game_over"]
    assert seen(events[0], 1)["check"] == ["rank"]
    over = events[1]
    assert over.seats[0] == over.seats[1] == over.spectator
    assert over.seats[0] == {
        "type": "game_over",
        "reason": "checkmate",
        "result": "1-0",
        "winner": "white",
        "ranks": [1, 2],
        "winners": [0],
    }
    assert table.game.outcome == Outcome((1, 2), "checkmate")
    assert table.game.to_move is None
    assert table.game.legal_actions(0) == [] == table.game.legal_actions(1)
    table.refuse(1, "h8g8", "game_over")


def test_fools_mate_from_the_start() -> None:
    table = Table("wild16")
    events = table.play("f2f3", "e7e5", "g2g4", "d8h4")
    assert seen(events[-1], 0)["reason"] == "checkmate"
    assert seen(events[-2], 0)["check"] == ["short_diagonal"]  # e1: d2-e1? no: e1-h4 is short
    assert table.game.outcome == Outcome((2, 1), "checkmate")


def test_stalemate() -> None:
    table = Table("rand", "k7/8/8/1Q6/8/8/8/K7 w - - 0 1")
    events = table.play("b5b6")
    assert [event.type for event in events] == ["move", "game_over"]
    assert seen(events[1], 0)["reason"] == "stalemate"
    assert table.game.outcome == Outcome((1, 1), "stalemate")


def test_insufficient_material_after_a_capture() -> None:
    table = Table("wild16", "k7/8/8/8/8/8/1n6/KB6 w - - 0 1")
    events = table.play("a1b2")
    assert seen(events[0], 1)["capture"] == "b2" and seen(events[0], 1)["captured"] == "piece"
    assert seen(events[1], 1)["reason"] == "insufficient_material"
    assert table.game.outcome == Outcome((1, 1), "insufficient_material")


@pytest.mark.parametrize("auto", [True, False])
def test_fifty_moves(auto: bool) -> None:
    table = Table("wild16", "k7/8/8/8/8/8/8/KR6 w - - 99 80", auto_fifty_moves=auto)
    events = table.play("b1b2")
    if auto:
        assert seen(events[-1], 0)["reason"] == "fifty_moves"
        assert table.game.outcome == Outcome((1, 1), "fifty_moves")
    else:
        assert not table.game.is_over


def test_seventyfive_moves_even_when_fifty_is_off() -> None:
    table = Table("wild16", "k7/8/8/8/8/8/8/KR6 w - - 149 80", auto_fifty_moves=False)
    assert seen(table.play("b1b2")[-1], 1)["reason"] == "seventyfive_moves"


def test_seventyfive_moves_can_be_switched_off() -> None:
    fen = "k7/8/8/8/8/8/8/KR6 w - - 149 80"
    table = Table("wild16", fen, auto_fifty_moves=False, auto_seventyfive_moves=False)
    table.play("b1b2", "a8a7", "b2b3")
    assert not table.game.is_over
    assert table.opening[0].truth["auto_seventyfive_moves"] is False


def test_seventyfive_and_fivefold_options_round_trip_and_default_on() -> None:
    default = KriegspielConfig.from_options({})
    assert default.auto_seventyfive_moves and default.auto_fivefold
    assert "auto_seventyfive_moves" not in default.to_options()  # old games' options unchanged
    off = KriegspielConfig.from_options({"auto_seventyfive_moves": False, "auto_fivefold": False})
    assert KriegspielConfig.from_options(off.to_options()) == off
    with pytest.raises(ConfigError, match="'auto_fivefold'"):
        KriegspielConfig.from_options({"auto_fivefold": "no"})


KNIGHT_DANCE = ("g1f3", "g8f6", "f3g1", "f6g8")


@pytest.mark.parametrize("rules", RULES)
def test_threefold_repetition(rules: str) -> None:
    table = Table(rules)
    table.play(*KNIGHT_DANCE, *KNIGHT_DANCE[:3])
    assert not table.game.is_over
    events = table.play(KNIGHT_DANCE[3])
    assert seen(events[-1], 0)["reason"] == "threefold_repetition"
    assert table.game.outcome == Outcome((1, 1), "threefold_repetition")


def test_fivefold_repetition_when_threefold_is_off() -> None:
    table = Table("wild16", auto_threefold=False)
    table.play(*KNIGHT_DANCE * 3, *KNIGHT_DANCE[:3])
    assert not table.game.is_over
    assert seen(table.play(KNIGHT_DANCE[3])[-1], 0)["reason"] == "fivefold_repetition"


def test_fivefold_can_be_switched_off() -> None:
    table = Table("wild16", auto_threefold=False, auto_fivefold=False)
    table.play(*KNIGHT_DANCE * 6)
    assert not table.game.is_over


# -- resignation, draws, forfeits ----------------------------------------------------------


def test_resign_at_any_time() -> None:
    table = Table("cincinnati")
    events = table.send(1, "resign")  # not black's turn, resigning is still allowed
    assert events[0].seats[0] == {
        "type": "game_over",
        "reason": "resignation",
        "result": "1-0",
        "winner": "white",
        "ranks": [1, 2],
        "winners": [0],
        "by": "black",
        "seat": 1,
    }
    assert table.game.outcome == Outcome((1, 2), "resignation")
    table.refuse(0, "e2e4", "game_over")


def test_draw_offer_accept() -> None:
    table = Table()
    offered = table.send(1, "offer_draw")[0]
    assert (
        offered.seats[0]
        == offered.seats[1]
        == {"type": "draw_offered", "color": "black", "seat": 1}
    )
    table.refuse(1, "offer_draw", "illegal")
    table.refuse(1, "accept_draw", "illegal")
    table.refuse(0, "offer_draw", "illegal")
    assert table.game.view(0)["draw_offer"] == "black"
    assert ACCEPT_DRAW in table.game.legal_actions(
        0
    ) and OFFER_DRAW not in table.game.legal_actions(1)
    events = table.send(0, "accept_draw")
    assert seen(events[0], 1)["reason"] == "agreed_draw"
    assert table.game.outcome == Outcome((1, 1), "agreed_draw")


def test_draw_offer_decline_and_lapse() -> None:
    table = Table()
    table.send(0, "offer_draw")
    declined = table.send(1, "decline_draw")[0]
    assert declined.spectator == {"type": "draw_declined", "color": "black", "seat": 1}
    table.refuse(0, "offer_draw", "illegal")  # not again before black has moved
    table.refuse(1, "decline_draw", "illegal")
    table.play("e2e4")
    table.refuse(0, "offer_draw", "illegal")
    table.play("e7e5")
    table.send(0, "offer_draw")
    table.play("d2d4")  # white's own move keeps the offer standing
    assert table.game.view(1)["draw_offer"] == "white"
    table.play("d7d5")  # black's move lets it lapse
    assert table.game.view(1)["draw_offer"] is None
    table.refuse(1, "accept_draw", "illegal")


@pytest.mark.parametrize(
    ("fen", "reason", "outcome"),
    [
        (None, "timeout", Outcome((2, 1), "timeout")),
        (None, "abandoned", Outcome((2, 1), "abandoned")),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "timeout", Outcome((1, 1), "timeout")),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "timeout", Outcome((1, 1), "timeout")),
        ("4k3/4p3/8/8/8/8/8/3QK3 w - - 0 1", "timeout", Outcome((2, 1), "timeout")),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "abandoned", Outcome((2, 1), "abandoned")),
    ],
)
def test_forfeit(fen: str | None, reason: str, outcome: Outcome) -> None:
    # white forfeits; a timeout is a draw when black has no mating material
    table = Table("wild16", fen)
    table.send(0, "offer_draw")
    events = table.checker.forfeit(0, reason)
    assert seen(events[0], 1)["reason"] == reason
    assert seen(events[0], 1)["by"] == "white"
    assert table.game.outcome == outcome
    assert table.game.view(1)["draw_offer"] is None
    assert table.game.history[-1].action == f"forfeit:{reason}"


# -- views and records --------------------------------------------------------------------


def test_views() -> None:
    table = Table("rand", "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1")
    seat = table.game.view(0)
    assert seat["color"] == "white" and seat["board"] == "8/8/8/8/8/8/8/3RK3"
    assert seat["to_move"] == "white" and seat["outcome"] is None
    assert table.game.view(1)["board"] == "4k3/8/8/3p4/8/8/8/8"
    spectator = table.game.view(None)
    assert "board" not in spectator and spectator["announcements"][0] == {
        "type": "game_started",
        "rules": "rand",
        "to_move": "white",
    }
    table.play("d1d5", "resign")
    revealed = table.game.view(None)["revealed"]
    assert revealed["moves"] == ["d1d5"] and revealed["fen"].startswith("4k3/8/8/3R4")


def test_standard_and_extended_pgn() -> None:
    import io

    import chess.pgn

    table = Table("wild16")
    table.play("e2e4", "e7e5", "e4e5", "d2d4", "e5d4", "d1d4")
    pgn = table.game.pgn("alice", "bob")
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None
    assert game.headers["White"] == "alice" and game.headers["Rules"] == "wild16"
    moves = [move.uci() for move in game.mainline_moves()]
    assert moves == [move.uci() for move in table.game.board.move_stack]
    assert "{" not in pgn
    extended = table.game.extended_pgn()
    assert "white tried e4e5: illegal" in extended
    assert "capture at d4 (pawn)" in extended
    again = chess.pgn.read_game(io.StringIO(extended))
    assert again is not None
    assert [move.uci() for move in again.mainline_moves()] == moves
    table.send(1, "resign")
    final = chess.pgn.read_game(io.StringIO(table.game.extended_pgn()))
    assert final is not None and final.headers["Result"] == "1-0"
    assert "game over: resignation by black" in final.end().comment


def test_pgn_of_a_custom_position() -> None:
    import io

    import chess.pgn

    table = Table("english", "7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    table.play("g6h7", "a1a8")
    game = chess.pgn.read_game(io.StringIO(table.game.extended_pgn()))
    assert game is not None
    assert game.headers["FEN"] == "7k/8/6K1/8/8/8/8/R7 w - - 0 1"
    assert game.headers["Result"] == "1-0" and game.headers["Termination"] == "normal"
    assert [move.uci() for move in game.mainline_moves()] == ["a1a8"]
    assert "white tried g6h7: illegal" in game.comment


@pytest.mark.parametrize("rules", RULES)
def test_statistics_count_every_illegal_attempt_once_the_game_is_over(rules: str) -> None:
    """Statistics read the public record after the game, where every attempt is shown as
    its mover heard it; during a wild16 game nobody else hears of one (issue 16)."""
    table = Table(rules)
    events = list(table.opening)
    events += table.play("e2e5", "e1e3", "e2e4", "e7e5", "e4e5", "g1f3", "d8h4", "f3h4")
    events += table.play("resign")
    eng = engine("kriegspiel")
    illegal = [e for e in events if e.type == "illegal"]
    assert len(illegal) == 3
    public = eng.public_record(events)
    assert [p for p in public if p["type"] == "illegal"] == [e.seats[0] for e in illegal]
    assert all("possible" not in p for p in public)  # never the truth's bookkeeping
    if rules == "wild16":
        assert all(e.spectator is None for e in illegal)
    outcome = table.game.outcome
    assert outcome is not None
    white, black = eng.stats(public, outcome, 2)
    assert (white["moves"], white["illegal_attempts"]) == (3, 3)
    assert black["moves"] == 2 and "illegal_attempts" not in black
