"""The Kriegspiel umpire: chess where each player sees only their own pieces.

The real game is a :class:`chess.Board`; all legality comes from python-chess. A turn is a
series of *attempts* by the side to move until one is legal. Each accepted action returns
:class:`~server.games.base.Event` objects whose projections say exactly what each seat and a
spectator hear, per rule set (``wild16``, ``cincinnati``, ``rand``, ``english``; see
``shared/rules/kriegspiel.md`` and ``docs/kriegspiel.md`` for the event shapes).

Seat 0 plays white, seat 1 black. Public API: :data:`ENGINE`, :class:`KriegspielConfig`,
:class:`KriegspielGame`, :func:`new_game`, the action types
:class:`Attempt` and :class:`Command`, and the records :meth:`KriegspielGame.pgn` and
:meth:`KriegspielGame.extended_pgn`.

Choices the rules leave open (documented in ``docs/kriegspiel.md``):

- Under ``english`` the duty after "any?" is answered yes is enforced: until the asker has
  tried one pawn capture (a diagonal pawn step possible on its own board), other attempts
  are refused with code ``"illegal"``. "any?" may be asked once a turn, before any attempt.
- Under ``rand`` the squares of the pawns that can capture go to the side to move only; its
  opponent (and a spectator) hears how many pawns can capture.
- Castling is spelled as the king's two-square step (``e1g1``); ``e1h1`` is no castling
  (the king cannot step onto its own rook, so the attempt is impossible).
- A draw offer stands until the opponent accepts or declines it or completes a move; a
  seat may offer again only after its opponent has completed a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import chess

from server.games.base import Event, Game, IllegalAction, Json, Outcome, Viewer
from server.games.kriegspiel_actions import (
    ACCEPT_DRAW,
    ASK_ANY,
    COMMAND_WORDS,
    DECLINE_DRAW,
    OFFER_DRAW,
    RESIGN,
    RULE_SETS,
    Action,
    Attempt,
    Command,
    KriegspielConfig,
    parse_action,
)
from server.games.kriegspiel_record import (
    GameRecord,
    extended_pgn,
    pgn_date,
    result_string,
    standard_pgn,
)
from server.games.kriegspiel_rules import (
    check_directions,
    color_name,
    is_legal_attempt,
    is_pawn_capture_attempt,
    legal_pawn_captures,
    own_board_attempts,
    own_placement,
)
from server.games.spec import Engine, Text, add, check_seat_count, result_stats

__all__ = [
    "ACCEPT_DRAW",
    "ASK_ANY",
    "COMMAND_WORDS",
    "DECLINE_DRAW",
    "ENGINE",
    "OFFER_DRAW",
    "RESIGN",
    "RULE_SETS",
    "TIME_FORFEIT_REASONS",
    "Action",
    "Attempt",
    "Command",
    "KriegspielConfig",
    "KriegspielGame",
    "new_game",
    "record_text",
    "stats",
    "with_seats",
]

#: Forfeit reasons that mean the clock ran out: a draw if the winner could never mate.
TIME_FORFEIT_REASONS = frozenset({"timeout", "time", "time_forfeit", "flag"})

_Key = tuple[int, int, bool]
_Projection = dict[str, Json] | None


def _seat_of(color: chess.Color) -> int:
    return 0 if color == chess.WHITE else 1


def _attempt_key(move: chess.Move) -> _Key:
    # The promotion piece changes nothing about legality: e7e8q refused means e7e8n is too.
    return move.from_square, move.to_square, move.promotion is not None


def _move_sort_key(move: chess.Move) -> tuple[int, int, int]:
    return move.from_square, move.to_square, move.promotion or 0


class KriegspielGame(Game):
    """One Kriegspiel game in progress; create it with :func:`new_game`."""

    name = "kriegspiel"

    def __init__(self, config: KriegspielConfig, seed: bytes) -> None:
        super().__init__(seed)
        self._config = config
        self._rules = config.rules
        self._board = config.start_board()
        self._start_fen = self._board.fen()
        self._outcome: Outcome | None = None
        # The current turn: refused attempts, whether "any?" was asked, the duty after yes.
        self._refused: set[_Key] = set()
        self._refused_text: list[str] = []
        self._tries = 0
        self._asked_any = False
        self._duty = False
        self._own: list[chess.Move] | None = None
        self._own_set: frozenset[chess.Move] | None = None
        # Draw offers: the offering seat, and who may not offer again yet.
        self._draw_offer: int | None = None
        self._offer_blocked = [False, False]
        # What each viewer has heard (seat 0, seat 1, spectator) and the truths, in order.
        self._heard: tuple[list[dict[str, Json]], ...] = ([], [], [])
        self._truths: list[dict[str, Json]] = []

    # -- the interface -----------------------------------------------------------------

    @property
    def config(self) -> KriegspielConfig:
        """The immutable config this game was created with."""
        return self._config

    @property
    def to_move(self) -> int | None:
        """The seat whose attempt is awaited (0 white, 1 black), or ``None`` once over."""
        if self._outcome is not None:
            return None
        return _seat_of(self._board.turn)

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        return self._outcome

    @property
    def board(self) -> chess.Board:
        """A copy of the real board (the umpire's); never show it to a seat during play."""
        return self._board.copy()

    @property
    def truths(self) -> list[dict[str, Json]]:
        """The truth of every event so far, in order (a copy of the list)."""
        return list(self._truths)

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may send now, judged only from its own board.

        For the side to move: every attempt possible on its own board that was not refused
        this turn (only pawn captures while the english duty holds), and ``any`` under
        english before the first attempt. For both seats: draw actions as they apply, and
        ``resign``. Empty once the game is over.
        """
        self._check_seat(seat)
        if self._outcome is not None:
            return []
        actions: list[Action] = []
        if seat == self.to_move:
            board = self._board
            for move in self._own_attempts():
                if _attempt_key(move) in self._refused:
                    continue
                if self._duty and not is_pawn_capture_attempt(board, move):
                    continue
                actions.append(Attempt(move))
            if self._rules == "english" and not self._asked_any and self._tries == 0:
                actions.append(ASK_ANY)
        if self._draw_offer is None and not self._offer_blocked[seat]:
            actions.append(OFFER_DRAW)
        elif self._draw_offer == 1 - seat:
            actions.extend((ACCEPT_DRAW, DECLINE_DRAW))
        actions.append(RESIGN)
        return actions

    def view(self, viewer: Viewer) -> dict[str, Json]:
        """What ``viewer`` may know now: its own pieces, what it heard, whose turn it is.

        A seat's view has its ``color``, its ``board`` (a FEN piece placement with its own
        pieces only), the attempts ``refused`` this turn when it is the mover, and every
        projection it received (``announcements``). A spectator's view has no board. Once
        the game is over every view also has ``revealed``: the real moves and position.
        """
        index = 2 if viewer is None else viewer
        if viewer is not None:
            self._check_seat(viewer)
        turn = self.to_move
        snapshot: dict[str, Json] = {
            "game": self.name,
            "rules": self._rules,
            "to_move": None if turn is None else color_name(turn == 0),
            "fullmove": self._board.fullmove_number,
            "draw_offer": None if self._draw_offer is None else color_name(self._draw_offer == 0),
            "outcome": None if self._outcome is None else self._outcome.to_json(),
            "announcements": list(self._heard[index]),
        }
        if viewer is not None:
            color = viewer == 0
            mover = viewer == turn
            snapshot["color"] = color_name(color)
            snapshot["seat"] = viewer
            snapshot["board"] = own_placement(self._board, color)
            snapshot["refused"] = list(self._refused_text) if mover else []
            snapshot["must_try_pawn_capture"] = self._duty and mover
        if self._outcome is not None:
            snapshot["revealed"] = {
                "start_fen": self._start_fen,
                "moves": [move.uci() for move in self._board.move_stack],
                "fen": self._board.fen(),
            }
        return snapshot

    @classmethod
    def parse_action(cls, text: str) -> Action:
        """Read an action from its text; raise ``IllegalAction(code="malformed")``."""
        return parse_action(text)

    def _apply(self, seat: int, action: Any) -> list[Event]:
        if isinstance(action, Attempt):
            return self._attempt(seat, action.move)
        if not isinstance(action, Command):
            raise IllegalAction(f"{action!r} is not a Kriegspiel action", "malformed")
        if action == ASK_ANY:
            return self._ask_any(seat)
        if action == RESIGN:
            winner = 1 - seat
            return [self._end("resignation", winner, by=seat)]
        if action == OFFER_DRAW:
            return [self._offer_draw(seat)]
        return [self._answer_draw(seat, accept=action == ACCEPT_DRAW)]

    def _forfeit(self, seat: int, reason: str) -> list[Event]:
        winner: int | None = 1 - seat
        if reason in TIME_FORFEIT_REASONS and self._board.has_insufficient_material(winner == 0):
            winner = None
        return [self._end(reason, winner, by=seat)]

    # -- records -----------------------------------------------------------------------

    def pgn(self, white: str = "?", black: str = "?", started: float | None = None) -> str:
        """The standard PGN of the real game (the moves played, no attempts); ``started``
        (seconds since the epoch, the games row's) gives its Date."""
        return standard_pgn(self.record(white, black, started))

    def extended_pgn(self, white: str = "?", black: str = "?", started: float | None = None) -> str:
        """The PGN with every attempt and announcement as comments; it reads back as a game."""
        return extended_pgn(self.record(white, black, started), self._truths)

    def record(
        self, white: str = "?", black: str = "?", started: float | None = None
    ) -> GameRecord:
        """The real game so far, for :mod:`server.games.kriegspiel_record`."""
        return GameRecord(
            self._start_fen,
            list(self._board.move_stack),
            self._rules,
            self._outcome,
            white,
            black,
            pgn_date(started),
        )

    # -- attempts ----------------------------------------------------------------------

    def _own_attempts(self) -> list[chess.Move]:
        """The attempts possible on the mover's own board, cached for the turn."""
        if self._own is None:
            moves = own_board_attempts(self._board, self._board.turn)
            self._own_set = moves
            self._own = sorted(moves, key=_move_sort_key)
        return self._own

    def _is_possible(self, move: chess.Move) -> bool:
        if self._own_set is None:
            self._own_attempts()
        assert self._own_set is not None
        return move in self._own_set

    def _check_turn(self, seat: int, what: str) -> None:
        if seat != self.to_move:
            mover = color_name(self._board.turn)
            raise IllegalAction(f"it is {mover}'s turn: {what!r} must wait", "not_your_turn")

    def _attempt(self, seat: int, move: chess.Move) -> list[Event]:
        uci = move.uci()
        self._check_turn(seat, uci)
        key = _attempt_key(move)
        if key in self._refused:
            raise IllegalAction(f"{uci!r} was already refused this turn", "repeated")
        board = self._board
        possible = self._is_possible(move)
        pawn_capture = possible and is_pawn_capture_attempt(board, move)
        if self._duty and not pawn_capture:
            raise IllegalAction(
                f"{uci!r} is not a pawn capture: after 'any' was answered yes you must "
                "first try a pawn capture",
                "illegal",
            )
        self._tries += 1
        if pawn_capture:
            self._duty = False
        if possible and is_legal_attempt(board, move):
            return self._play(move)
        self._refused.add(key)
        self._refused_text.append(uci)
        return [self._illegal(move, possible)]

    def _illegal(self, move: chess.Move, possible: bool) -> Event:
        color = color_name(self._board.turn)
        seat = _seat_of(self._board.turn)
        impossible = not possible and self._rules in ("cincinnati", "rand")
        answer = "impossible" if impossible else "illegal"
        heard: _Projection = None
        if self._rules != "wild16":
            heard = {"type": "illegal", "color": color, "seat": seat, "answer": answer}
        mover = {
            "type": "illegal",
            "color": color,
            "seat": seat,
            "move": move.uci(),
            "answer": answer,
        }
        truth = dict(mover, possible=possible)
        return self._emit(truth, mover, heard, self._board.turn)

    def _play(self, move: chess.Move) -> list[Event]:
        board = self._board
        color = board.turn
        seat = _seat_of(color)
        san = board.san(move)
        en_passant = board.is_en_passant(move)
        castling = board.is_castling(move)
        capture: chess.Square | None = None
        captured: str | None = None
        if en_passant:
            capture = chess.square(
                chess.square_file(move.to_square), chess.square_rank(move.from_square)
            )
            captured = "pawn"
        else:
            victim = board.piece_type_at(move.to_square)
            if victim is not None:
                capture = move.to_square
                captured = "pawn" if victim == chess.PAWN else "piece"
        board.push(move)
        checks = check_directions(board)
        self._new_turn()
        if self._draw_offer == 1 - seat:
            self._draw_offer = None
        self._offer_blocked[1 - seat] = False

        heard: dict[str, Json] = {
            "type": "move",
            "color": color_name(color),
            "seat": seat,
            "capture": None if capture is None else chess.square_name(capture),
            "captured": captured if self._rules != "english" else None,
            "check": checks,
        }
        if self._rules == "rand":
            heard["promotion"] = move.promotion is not None
        if self._rules == "english" and en_passant:
            # English rules announce "captures en passant at <landing square>" (thesis 3.2)
            heard["en_passant_at"] = chess.square_name(move.to_square)
        mover = dict(heard, move=move.uci())
        truth = dict(
            mover,
            type="move",
            san=san,
            captured_unit=captured,
            en_passant=en_passant,
            castling=castling,
            promotion_piece=None if move.promotion is None else chess.piece_symbol(move.promotion),
            fen=board.fen(),
        )
        events = [self._emit(truth, mover, heard, color)]
        ending = self._config.ending(board)
        if ending is not None:
            reason, winner = ending
            events.append(self._end(reason, None if winner is None else _seat_of(winner)))
        else:
            tries = self._pawn_tries()
            if tries is not None:
                events.append(tries)
        return events

    def _new_turn(self) -> None:
        self._refused = set()
        self._refused_text = []
        self._tries = 0
        self._asked_any = False
        self._duty = False
        self._own = None
        self._own_set = None

    def _pawn_tries(self) -> Event | None:
        """The pawn-tries announcement before a move, where the rule set makes one."""
        rules = self._rules
        if rules == "english":
            return None
        board = self._board
        captures = legal_pawn_captures(board)
        color = color_name(board.turn)
        seat = _seat_of(board.turn)
        truth: dict[str, Json] = {
            "type": "pawn_tries",
            "color": color,
            "seat": seat,
            "moves": [move.uci() for move in captures],
        }
        named = {"type": "pawn_tries", "color": color, "seat": seat}
        if rules == "wild16":
            heard: dict[str, Json] = dict(named, count=len(captures))
            mover = heard
        elif rules == "cincinnati":
            heard = dict(named, any=bool(captures))
            mover = heard
        else:
            pawns = sorted({move.from_square for move in captures})
            heard = dict(named, pawns=len(pawns))
            mover = dict(heard, squares=[chess.square_name(square) for square in pawns])
        truth.update(mover)
        return self._emit(truth, mover, heard, board.turn)

    # -- other actions -----------------------------------------------------------------

    def _ask_any(self, seat: int) -> list[Event]:
        if self._rules != "english":
            raise IllegalAction(
                f"'any' is asked only under english rules; {self._rules} announces pawn "
                "tries itself",
                "illegal",
            )
        self._check_turn(seat, "any")
        if self._asked_any:
            raise IllegalAction("'any' was already asked this turn", "repeated")
        if self._tries:
            raise IllegalAction("'any' is asked before the first attempt of a turn", "illegal")
        captures = legal_pawn_captures(self._board)
        self._asked_any = True
        self._duty = bool(captures)
        heard: dict[str, Json] = {
            "type": "any",
            "color": color_name(self._board.turn),
            "seat": _seat_of(self._board.turn),
            "answer": bool(captures),
        }
        truth = dict(heard, moves=[move.uci() for move in captures])
        return [self._emit(truth, heard, heard, self._board.turn)]

    def _offer_draw(self, seat: int) -> Event:
        if self._draw_offer == seat:
            raise IllegalAction("your draw offer is already standing", "illegal")
        if self._draw_offer is not None:
            raise IllegalAction(
                "your opponent offers a draw: send accept_draw or decline_draw", "illegal"
            )
        if self._offer_blocked[seat]:
            raise IllegalAction(
                "you may offer a draw again after your opponent's next move", "illegal"
            )
        self._draw_offer = seat
        self._offer_blocked[seat] = True
        return self._public({"type": "draw_offered", "color": color_name(seat == 0), "seat": seat})

    def _answer_draw(self, seat: int, *, accept: bool) -> Event:
        word = "accept_draw" if accept else "decline_draw"
        if self._draw_offer != 1 - seat:
            raise IllegalAction(f"{word!r}: there is no draw offer from your opponent", "illegal")
        self._draw_offer = None
        if accept:
            return self._end("agreed_draw", None, by=seat)
        return self._public({"type": "draw_declined", "color": color_name(seat == 0), "seat": seat})

    # -- events ------------------------------------------------------------------------

    def _end(self, reason: str, winner: int | None, by: int | None = None) -> Event:
        """End the game; ``winner`` is a seat or ``None`` for a draw."""
        ranks = (1, 1) if winner is None else ((1, 2) if winner == 0 else (2, 1))
        self._outcome = Outcome(ranks, reason)
        payload: dict[str, Json] = {
            "type": "game_over",
            "reason": reason,
            "result": result_string(self._outcome),
            "winner": None if winner is None else color_name(winner == 0),
            "ranks": list(ranks),
            "winners": list(self._outcome.winners),
        }
        if by is not None:
            payload["by"] = color_name(by == 0)
            payload["seat"] = by
        self._draw_offer = None
        return self._public(payload, fen=self._board.fen())

    def _public(self, payload: dict[str, Json], **truth: Json) -> Event:
        event = Event(dict(payload, **truth), (payload, payload), payload)
        self._record(event)
        return event

    def _emit(
        self,
        truth: dict[str, Json],
        mover: dict[str, Json],
        heard: _Projection,
        mover_color: chess.Color,
    ) -> Event:
        """An event the mover hears as ``mover`` and the opponent and spectators as ``heard``."""
        seats = (mover, heard) if mover_color == chess.WHITE else (heard, mover)
        event = Event(truth, seats, heard)
        self._record(event)
        return event

    def _record(self, event: Event) -> None:
        self._truths.append(event.truth)
        for index, projection in enumerate((*event.seats, event.spectator)):
            if projection is not None:
                self._heard[index].append(projection)

    def _start(self) -> list[Event]:
        board = self._board
        to_move = color_name(board.turn)
        spectator: dict[str, Json] = {
            "type": "game_started",
            "rules": self._rules,
            "to_move": to_move,
        }
        seats = tuple(
            dict(
                spectator,
                color=color_name(color),
                seat=_seat_of(color),
                board=own_placement(board, color),
            )
            for color in (chess.WHITE, chess.BLACK)
        )
        truth = dict(
            spectator,
            fen=self._start_fen,
            auto_fifty_moves=self._config.auto_fifty_moves,
            auto_threefold=self._config.auto_threefold,
        )
        # written only when off, so the truths of games from before these options stay the same
        for name in ("auto_seventyfive_moves", "auto_fivefold"):
            if not getattr(self._config, name):
                truth[name] = False
        event = Event(truth, seats, spectator)
        self._record(event)
        events = [event]
        tries = self._pawn_tries()
        if tries is not None:
            events.append(tries)
        return events


def new_game(config: KriegspielConfig, seed: bytes) -> tuple[KriegspielGame, list[Event]]:
    """Start a game: the game and its opening events (``game_started``, pawn tries)."""
    if not isinstance(config, KriegspielConfig):
        raise TypeError(f"new_game needs a KriegspielConfig, not {type(config).__name__}")
    game = KriegspielGame(config, seed)
    return game, game._start()


def with_seats(config: KriegspielConfig, n: int) -> KriegspielConfig:
    """``config`` itself when ``n`` is 2; Kriegspiel has exactly two players."""
    check_seat_count("kriegspiel", n, 2, 2)
    return config


def after_game(event: Event) -> dict[str, Json] | None:
    """What anyone may see of ``event`` once the game is over: what its spectators saw,
    and every attempt as its mover heard it (the rules: after the game, everything,
    including every attempt; the extended PGN shows them too). Under wild16 the opponent
    and the spectators never hear of an illegal attempt while the game goes on."""
    if event.type == "illegal":
        seat = event.truth.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(event.seats):
            return event.seats[seat]
    return event.spectator


def stats(
    public_events: Sequence[dict[str, Json]], outcome: Outcome, seats: int
) -> list[dict[str, float]]:
    """Each seat's statistics from a finished game's public record (:func:`after_game`):
    ``moves`` and ``illegal_attempts`` (every attempt the umpire refused, under every rule
    set; their ratio is illegal attempts per move) besides ``games``, ``wins``, ``draws``,
    ``losses``.
    """
    out = result_stats(outcome, seats)
    for event in public_events:
        seat = event.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < seats:
            continue
        kind = event.get("type")
        if kind == "move":
            add(out[seat], "moves")
        elif kind == "illegal":
            add(out[seat], "illegal_attempts")
    return out


def record_text(game: Game, players: Sequence[str | None], started: float | None = None) -> str:
    """The extended PGN (every attempt and announcement as comments) of ``game``, dated
    by ``started`` (the games row's start, seconds since the epoch; None: unknown)."""
    if not isinstance(game, KriegspielGame):
        raise TypeError(f"a Kriegspiel record needs a KriegspielGame, not {type(game).__name__}")
    names = [name or "?" for name in players[:2]]
    names += ["?"] * (2 - len(names))
    return game.extended_pgn(names[0], names[1], started)


#: The Kriegspiel engine: what the server needs to know about the game (server.games.spec).
#: No stand-in: an absent player loses by abandonment.
ENGINE = Engine(
    name=KriegspielGame.name,
    config_type=KriegspielConfig,
    game_type=KriegspielGame,
    new_game=new_game,
    min_seats=2,
    max_seats=2,
    with_seats=with_seats,
    stats=stats,
    after_game=after_game,
    record_text=record_text,
    record_format="pgn",
    title=Text(en="Kriegspiel", it="Kriegspiel"),
)
