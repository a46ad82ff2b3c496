"""What one game's client module gives the rest of the terminal client.

Each game is a package under ``client_cli/games/`` exporting ``GAME``, a :class:`ClientGame`:

- its model (a :class:`GameModel`: what this viewer knows, rebuilt from the room's frames,
  each event told as a sentence),
- its picture as text (``--plain``, ``show``) and its screen in the TUI,
- its commands: which typed words are actions, how the engine spells them, why one the
  turn does not allow is refused, and the local commands it adds (notes kept on screen),
- its replay (captions and the whole position at each step),
- its words and help in every language of :data:`client_cli.words.LANGUAGES`.

:mod:`client_cli.games` registers them by the game's name; the rest of the client asks it
for the module of a room's game and never names a game itself. This base class is also the
module of a game the client has no module for: events are told by their type, the picture
lists the legal actions, and actions are typed as the engine spells them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from client_cli.render import seats_lines
from client_cli.words import Table, Words

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from client_cli.app import UmpireApp
    from client_cli.screens.common import RoomScreen
    from client_cli.session import Session
    from client_cli.state import RoomState

Json = dict[str, Any]

#: A game's screenshot scene: drive the app (as ana, with ``Session`` another player)
#: to a picture worth keeping in the docs (:mod:`client_cli.screenshots`).
Scene = Callable[["UmpireApp", "Pilot[Any]", "Session"], Awaitable[None]]


class GameModel(ABC):
    """One viewer's picture of a game, rebuilt from snapshots and events (no I/O)."""

    @abstractmethod
    def sit(self, seat: int | None) -> None:
        """This viewer's seat (None for a spectator)."""

    @abstractmethod
    def name_seats(self, names: list[str]) -> None:
        """The players' display names by seat (from the ``room`` frame)."""

    @abstractmethod
    def apply_view(self, view: Json) -> None:
        """Take everything from a snapshot's (or turn's) ``view``."""

    @abstractmethod
    def apply_event(self, event: Json) -> str:
        """Apply one event; return the sentence the log shows for it."""

    def replay_ready(self) -> bool:
        """Whether the game's end revealed what a replay shows (the final view came)."""
        return True


class EventLog(GameModel):
    """The model of a game without a client module: the last view, and each event's type."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.view: Json = {}

    def sit(self, seat: int | None) -> None:
        """This viewer's seat."""
        self.seat = seat

    def name_seats(self, names: list[str]) -> None:
        """Names are not used: events are told by their type."""

    def apply_view(self, view: Json) -> None:
        """Keep the view as it is."""
        self.view = view

    def apply_event(self, event: Json) -> str:
        """An event as its type in brackets (``(prize)``)."""
        return f"({event.get('type')})"


@dataclass
class Step:
    """One step of a replay: what happened, and the whole position after it."""

    caption: str
    panel: list[str]


@dataclass
class Replay:
    """A finished game as a list of steps, with notes on what could be verified."""

    room: str
    game: str
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


#: The words of a game without a module (and the help every game module may leave out).
WORDS: Table = {
    "en": {
        "legal_now": "Legal now: {actions}",
        "nothing": "nothing",
        "not_legal": "{action} is not legal now",
        "rules": "",
        "keys": "",
        "commands": "",
    },
    "it": {
        "legal_now": "Mosse possibili: {actions}",
        "nothing": "nessuna",
        "not_legal": "{action} non è possibile ora",
        "rules": "",
        "keys": "",
        "commands": "",
    },
}


class ClientGame:
    """One game's client module; subclasses override what their game does differently."""

    #: the engine's name for the game ("" for a game without a module)
    name: ClassVar[str] = ""
    #: the game's sentences and help, by language (see :class:`~client_cli.words.Words`)
    WORDS: ClassVar[Table] = WORDS
    #: actions the engine accepts from a seated player at any time, not only on its turn
    ANYTIME: ClassVar[frozenset[str]] = frozenset()
    #: local commands this game adds to the command language (see :meth:`run_local`)
    LOCAL: ClassVar[frozenset[str]] = frozenset()
    #: shorter names a player may type for the game's options (``n`` for ``number_of_things``)
    OPTION_ALIASES: ClassVar[Mapping[str, str]] = {}

    def words(self, lang: str) -> Words:
        """This game's words in ``lang``."""
        return Words(self.WORDS, lang)

    def new_model(self, words: Words) -> GameModel:
        """A fresh model for a room of this game."""
        return EventLog()

    # -- pictures ------------------------------------------------------------------------

    def lines(self, room: RoomState) -> list[str]:
        """The room as text: its seats before the start, then the game's picture."""
        if room.state == "waiting" or not room.game:
            return seats_lines(room)
        return self.picture(room)

    def picture(self, room: RoomState) -> list[str]:
        """The running (or finished) game as this viewer knows it."""
        words = Words(WORDS, room.lang)
        actions = " ".join(room.legal) or words("nothing")
        return [*seats_lines(room), words("legal_now", actions=actions)]

    def turn_lines(self, room: RoomState) -> list[str]:
        """What ``--plain`` prints when the turn comes to this player."""
        return self.picture(room)

    def flavour(self, options: Json) -> str:
        """The option that tells a room of this game from another (its preset, rules...)."""
        return str(options.get("preset") or "")

    # -- commands ------------------------------------------------------------------------

    def is_action(self, word: str, room: RoomState) -> bool:
        """Whether a typed word has the shape of an action of this game (so it is sent as
        one, or refused with a reason, rather than called an unknown command)."""
        return word in room.legal

    def spell(self, text: str) -> str:
        """The engine's spelling of what was typed."""
        return text.strip()

    def refusal(self, action: str, room: RoomState) -> str:
        """Why ``action``, not among the turn's legal actions, is not sent."""
        return Words(WORDS, room.lang)("not_legal", action=action)

    def run_local(self, name: str, args: list[str], room: RoomState) -> list[str]:
        """Carry out a local command of :attr:`LOCAL`; return sentences for the player.
        Raise ``ValueError`` with the reason when the arguments are wrong."""
        raise ValueError(f"{name} is not a command of this game")

    # -- replay, screen, help -------------------------------------------------------------

    def replay(self, room: RoomState, events: list[Json]) -> Replay:
        """The replay of a finished room from its event history and final frames."""
        model = self.new_model(self.words(room.lang))
        model.sit(room.seat)
        model.name_seats(room.names)
        replay = Replay(room=room.room, game=room.game)
        replay.steps = [Step(model.apply_event(event), []) for event in events]
        return replay

    def screen(self, room_id: str) -> RoomScreen:
        """The TUI's screen for a room of this game (imported only when the TUI runs)."""
        from client_cli.screens.common import TextScreen

        return TextScreen(room_id)

    def screenshot_scene(self) -> Scene | None:
        """The scene ``python -m client_cli.screenshots`` plays for this game, if any."""
        return None

    def help_text(self, lang: str) -> tuple[str, str, str]:
        """This game's rules and keys (Markdown) and its lines of the command list (empty
        when it has none)."""
        words = self.words(lang)
        return words.get("rules", ""), words.get("keys", ""), words.get("commands", "")
