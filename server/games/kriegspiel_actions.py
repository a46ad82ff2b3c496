"""Kriegspiel actions: small value types with a text round trip, and the game's config.

``Attempt.from_uci("e2e4")`` and ``str(attempt) == "e2e4"``, like python-chess's ``Move``;
the other actions are :class:`Command` constants spelled ``any``, ``resign``,
``offer_draw``, ``accept_draw`` and ``decline_draw``. :func:`parse_action` reads any of
them and raises ``IllegalAction(code="malformed")`` for anything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeAlias

import chess

from server.games.base import ConfigError, IllegalAction
from server.games.kriegspiel_rules import automatic_ending
from server.games.spec import Option, Text

#: The rule sets, by room option ``rules`` (see ``shared/rules/kriegspiel.md``).
RULE_SETS = ("wild16", "cincinnati", "rand", "english")

#: The spellings of the actions that are not attempts.
COMMAND_WORDS = ("any", "resign", "offer_draw", "accept_draw", "decline_draw")

_MAX_ACTION_LENGTH = 16


@dataclass(frozen=True, slots=True)
class Attempt:
    """A move a player tries; the umpire plays it if it is legal on the real board."""

    move: chess.Move

    @classmethod
    def from_uci(cls, uci: str) -> Attempt:
        """Read an attempt in UCI (``e2e4``, ``e7e8q``); raise ``IllegalAction`` if malformed."""
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            raise IllegalAction(
                f"{uci!r} is not a move in UCI notation (like 'e2e4' or 'e7e8q')", "malformed"
            ) from None
        if not move:
            raise IllegalAction(f"{uci!r}: a null move is not an attempt", "malformed")
        if move.drop is not None:
            raise IllegalAction(f"{uci!r}: there are no drops in Kriegspiel", "malformed")
        return cls(move)

    def uci(self) -> str:
        """The attempt in UCI notation."""
        return self.move.uci()

    def __str__(self) -> str:
        return self.move.uci()

    def __repr__(self) -> str:
        return f"Attempt.from_uci({self.move.uci()!r})"


@dataclass(frozen=True, slots=True)
class Command:
    """An action that is not an attempt: ``any``, ``resign`` or a draw offer or answer."""

    word: str

    def __post_init__(self) -> None:
        if self.word not in COMMAND_WORDS:
            raise ValueError(f"unknown Kriegspiel command {self.word!r}")

    def __str__(self) -> str:
        return self.word

    def __repr__(self) -> str:
        return f"Command({self.word!r})"


ASK_ANY = Command("any")
RESIGN = Command("resign")
OFFER_DRAW = Command("offer_draw")
ACCEPT_DRAW = Command("accept_draw")
DECLINE_DRAW = Command("decline_draw")

#: Any Kriegspiel action.
Action: TypeAlias = Attempt | Command

_COMMANDS = {command.word: command for command in (ASK_ANY, RESIGN, OFFER_DRAW, ACCEPT_DRAW)}
_COMMANDS[DECLINE_DRAW.word] = DECLINE_DRAW


def parse_action(text: str) -> Action:
    """Read an action from its text (``e2e4``, ``any``, ``resign``, ...).

    Surrounding blanks and letter case are ignored. Raises ``IllegalAction`` with code
    ``"malformed"`` and a reason naming the text when it is not a Kriegspiel action.
    """
    if not isinstance(text, str):
        raise IllegalAction(f"an action is text, not {type(text).__name__}", "malformed")
    if len(text) > _MAX_ACTION_LENGTH:
        raise IllegalAction(f"{text[:_MAX_ACTION_LENGTH]!r}... is too long", "malformed")
    word = text.strip().lower()
    command = _COMMANDS.get(word)
    if command is not None:
        return command
    if len(word) not in (4, 5):
        raise IllegalAction(
            f"{text!r} is not a Kriegspiel action: send a move in UCI ('e2e4', 'e7e8q') "
            f"or one of {', '.join(COMMAND_WORDS)}",
            "malformed",
        )
    return Attempt.from_uci(word)


@dataclass(frozen=True, slots=True)
class KriegspielConfig:
    """The options of one Kriegspiel game (`umpire rules` prints :attr:`OPTIONS`).

    rules: wild16 (ICC, the default), cincinnati, rand or english.
    auto_fifty_moves, auto_threefold (default on): the 50-move rule and threefold
    repetition end the game by themselves.
    auto_seventyfive_moves, auto_fivefold (default on): the 75-move rule and fivefold
    repetition end it; with them off too, a game goes on until a resignation, an agreed
    draw or a forfeit.
    fen: an optional starting position (tests, teaching), legal and not already over.
    """

    rules: str = "wild16"
    auto_fifty_moves: bool = True
    auto_threefold: bool = True
    fen: str | None = None
    auto_seventyfive_moves: bool = True
    auto_fivefold: bool = True

    #: Every option with its help, in plain text (``umpire rules`` and the catalogue).
    OPTIONS: ClassVar[dict[str, Option]] = {
        "rules": Option(
            Text(
                en="the rule set: what the umpire announces.\n"
                "wild16 (ICC, the default): illegal attempts are heard by the mover only; "
                "captures name pawn or piece; the number of legal pawn captures is announced "
                "before each move.\n"
                "cincinnati: both hear every illegal attempt, and 'impossible' for one not "
                "possible on the player's own board; pawn captures: yes or no.\n"
                "rand: as cincinnati ('hell no' is 'impossible'); the mover hears the squares "
                "of its pawns that can capture; promotions are announced.\n"
                "english: captures name only the square; en passant is announced with the "
                "square the capturing pawn lands on; pawn captures only on request ('any'), "
                "and after 'yes' the asker must try one.",
                it="il regolamento: che cosa annuncia l'arbitro.\n"
                "wild16 (ICC, predefinito): i tentativi illegali li sente solo chi muove; le "
                "prese dicono se è stato preso un pedone o un pezzo; prima di ogni mossa si "
                "annuncia quante prese di pedone sono legali.\n"
                "cincinnati: entrambi sentono ogni tentativo illegale, e 'impossibile' per "
                "uno che non è possibile nemmeno sulla propria scacchiera; prese di pedone: "
                "sì o no.\n"
                "rand: come cincinnati ('hell no' sta per 'impossibile'); chi muove sente le "
                "case dei suoi pedoni che possono prendere; le promozioni si annunciano.\n"
                "english: le prese dicono solo la casa; l'en passant si annuncia con la casa "
                "su cui arriva il pedone che prende; le prese di pedone solo a richiesta "
                "('any'), e dopo un 'sì' chi ha chiesto deve tentarne una.",
            ),
            choices=RULE_SETS,
        ),
        "auto_fifty_moves": Option(
            Text(
                en="true: the 50-move rule ends the game by itself",
                it="true: la regola delle 50 mosse chiude la partita da sola",
            )
        ),
        "auto_threefold": Option(
            Text(
                en="true: threefold repetition ends the game by itself",
                it="true: la triplice ripetizione chiude la partita da sola",
            )
        ),
        "fen": Option(
            Text(
                en="a starting position (tests, teaching), legal and not already over; none: "
                "the usual start",
                it="una posizione iniziale (prove, insegnamento), legale e non già finita; "
                "none: la partenza consueta",
            )
        ),
        "auto_seventyfive_moves": Option(
            Text(
                en="true: the 75-move rule ends the game by itself (with it and the 50-move "
                "rule off, a game goes on until a resignation, a draw or a forfeit)",
                it="true: la regola delle 75 mosse chiude la partita da sola (senza questa e "
                "senza quella delle 50, si gioca fino a un abbandono, una patta o una "
                "sconfitta a tavolino)",
            )
        ),
        "auto_fivefold": Option(
            Text(
                en="true: fivefold repetition ends the game by itself",
                it="true: la quintuplice ripetizione chiude la partita da sola",
            )
        ),
    }

    _BOOLS: ClassVar[tuple[str, ...]] = (
        "auto_fifty_moves",
        "auto_threefold",
        "auto_seventyfive_moves",
        "auto_fivefold",
    )

    def __post_init__(self) -> None:
        if self.rules not in RULE_SETS:
            raise ConfigError(
                f"option 'rules': {self.rules!r} is not a Kriegspiel rule set; "
                f"choose one of {', '.join(RULE_SETS)}"
            )
        for name in self._BOOLS:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ConfigError(f"option {name!r} must be true or false, not {value!r}")
        if self.fen is not None:
            _check_fen(self)

    @property
    def seats(self) -> int:
        """Kriegspiel has two seats: 0 is white, 1 is black."""
        return 2

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        """Build and validate a config from room options; raise :class:`ConfigError`."""
        known = ("rules", *cls._BOOLS, "fen")
        unknown = sorted(str(key) for key in options if key not in known)
        if unknown:
            raise ConfigError(
                f"unknown Kriegspiel option(s) {', '.join(map(repr, unknown))}; "
                f"the options are {', '.join(known)}"
            )
        rules = options.get("rules", "wild16")
        if not isinstance(rules, str):
            raise ConfigError(f"option 'rules' must be text, not {rules!r}")
        fen = options.get("fen")
        if fen is not None and not isinstance(fen, str):
            raise ConfigError(f"option 'fen' must be text, not {fen!r}")
        return cls(
            rules=rules,
            auto_fifty_moves=options.get("auto_fifty_moves", True),
            auto_threefold=options.get("auto_threefold", True),
            fen=fen,
            auto_seventyfive_moves=options.get("auto_seventyfive_moves", True),
            auto_fivefold=options.get("auto_fivefold", True),
        )

    def to_options(self) -> dict[str, Any]:
        """The options that rebuild this config with :meth:`from_options`."""
        options: dict[str, Any] = {
            "rules": self.rules,
            "auto_fifty_moves": self.auto_fifty_moves,
            "auto_threefold": self.auto_threefold,
        }
        if self.fen is not None:
            options["fen"] = self.fen
        # written only when off, so the options of games from before them stay the same
        for name in ("auto_seventyfive_moves", "auto_fivefold"):
            if not getattr(self, name):
                options[name] = False
        return options

    def ending(self, board: chess.Board) -> tuple[str, chess.Color | None] | None:
        """Whether the game ends by itself in ``board`` under these options."""
        return automatic_ending(
            board,
            fifty_moves=self.auto_fifty_moves,
            threefold=self.auto_threefold,
            seventyfive_moves=self.auto_seventyfive_moves,
            fivefold=self.auto_fivefold,
        )

    def start_board(self) -> chess.Board:
        """A fresh board in the starting position."""
        return chess.Board(self.fen) if self.fen is not None else chess.Board()


def _check_fen(config: KriegspielConfig) -> None:
    fen = config.fen
    assert fen is not None
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise ConfigError(f"option 'fen': {fen!r} is not a FEN ({error})") from None
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = [str(flag.name).lower() for flag in chess.Status if flag and flag in status]
        raise ConfigError(f"option 'fen': {fen!r} is not a legal position ({', '.join(problems)})")
    ending = config.ending(board)
    if ending is not None:
        raise ConfigError(f"option 'fen': {fen!r} is already over ({ending[0]})")
