"""What goes into a room core and what comes out of it.

Inputs are requests from connections (each carries a ``token`` the actor uses to answer
its caller), connection losses, timer ticks, bot launches and, once a rated game's end
is stored, its rating changes. Effects are what the core
asks its actor to do, in order: a :class:`Persist` must be durable before any later effect
is carried out (the log is the truth: nothing is acknowledged or shown before it is
written).

Both are slotted dataclasses that nobody changes once made. They are not declared
``frozen``: a frozen dataclass's ``__init__`` sets each field through
``object.__setattr__``, which made it about twice as dear, and a room makes some ten of
them per action (docs/benchmarks-history.md, "Speed, round 3").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from server.errors import ClientError

if TYPE_CHECKING:
    from server.games.base import Event
    from server.players.identity import Player
    from server.store.contract import RatingChange
    from server.store.journal import Entry
    from server.wire.frames import Reply as ReplyFrame


class Conn(Protocol):
    """A connection as a room core sees it: an opaque, hashable handle with its player."""

    @property
    def player(self) -> Player | None: ...


# -- inputs ------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Request:
    """A request from a connection; the actor answers ``token`` with a reply or an error."""

    conn: Conn
    token: object = field(default=None, kw_only=True)


@dataclass(slots=True, eq=False)
class Join(Request):
    """Take a seat (or re-attach to the one held; with a house ticket, the ticket's seat)."""

    seat: int | None = None
    ticket: str | None = None


@dataclass(slots=True, eq=False)
class Watch(Request):
    """Attach as a spectator (a seated player gets its own seat's view)."""


@dataclass(slots=True, eq=False)
class Resume(Request):
    """Re-attach and receive every event of the viewer's stream after ``since``."""

    since: int = 0
    ticket: str | None = None


@dataclass(slots=True, eq=False)
class Leave(Request):
    """Detach; before the start a player also gives up its seat."""


@dataclass(slots=True, eq=False)
class Detach(Request):
    """The connection closed."""


@dataclass(slots=True, eq=False)
class Start(Request):
    """Start the game now with the seats taken (host only)."""


@dataclass(slots=True, eq=False)
class AddBot(Request):
    """Fill an empty seat with a house bot (host only, before the start)."""

    bot: Player | None = None
    name: str = "autopilot"
    seat: int | None = None


@dataclass(slots=True, eq=False)
class Act(Request):
    """A game action from the sender's seat."""

    action: str = ""
    seat: int | None = None
    ref: int | str | None = None


@dataclass(slots=True, eq=False)
class Say(Request):
    """A chat line to the sender's channel."""

    text: str = ""


@dataclass(slots=True, eq=False)
class Rematch(Request):
    """Offer a rematch of the finished game, or accept the offer (a seated player)."""


@dataclass(slots=True, eq=False)
class DeclineRematch(Request):
    """Decline the rematch offered (a seated player)."""


@dataclass(slots=True)
class Rematched:
    """The rematch's room is open (``room``), or could not be opened (``None``)."""

    room: str | None


@dataclass(slots=True)
class Tick:
    """A timer the core armed is due."""

    name: str
    generation: int


@dataclass(slots=True)
class Relaunch:
    """Start every house bot of the room again (the server listens again after a restart)."""


@dataclass(slots=True, eq=False)
class TurnAgain:
    """Send the ``turn`` again to ``conn`` if its seat is to move: its action was dropped
    for the rate limit, and the limit's window is open again (server.net.app)."""

    conn: Conn


@dataclass(slots=True)
class Rated:
    """The game's end is stored and these are its rating changes (what
    :func:`server.store.journal.commit` of the room's :class:`Finish
    <server.store.journal.Finish>` returned; empty for a casual game): the core keeps them
    and shows them in the ``room`` frame."""

    changes: tuple[RatingChange, ...]


@dataclass(slots=True)
class StoreFailed:
    """The store could not write ``entry`` (a full disk, an I/O error): the room pauses.
    ``entry`` and every effect after it are not carried out yet (the actor retries the
    write); nothing of them may be shown while the room is paused."""

    entry: Entry
    reason: str = ""


@dataclass(slots=True)
class StoreRecovered:
    """The entry that failed is stored now, and the effects after it carried out: the
    room goes on (its clocks and timers restart where they stopped)."""


Input = Request | Tick | Relaunch | TurnAgain | Rated | Rematched | StoreFailed | StoreRecovered


# -- effects -----------------------------------------------------------------------------


@dataclass(slots=True)
class Send:
    """Write these frames to ``conn`` (one socket write), each already encoded
    (:func:`server.wire.frames.encode`)."""

    conn: Conn
    frames: tuple[bytes, ...]


@dataclass(slots=True)
class Persist:
    """Make ``entry`` durable before carrying out any later effect."""

    entry: Entry


@dataclass(slots=True)
class Reply:
    """Answer the request ``token`` with ``frame`` (``None``: nothing to send back); the
    connection layer adds the request's ``ref`` and encodes it."""

    token: object
    frame: ReplyFrame | None


@dataclass(slots=True)
class Refuse:
    """Answer the request ``token`` with an error."""

    token: object
    error: ClientError


@dataclass(slots=True)
class Schedule:
    """Feed ``Tick(name, generation)`` back at time ``at`` (the core's time scale)."""

    name: str
    at: float
    generation: int


@dataclass(slots=True)
class Cancel:
    """Timer ``name`` is no longer wanted (the actor may drop its handle)."""

    name: str


@dataclass(slots=True)
class Launch:
    """Start house bot ``bot`` for ``seat``; it joins with ``ticket``."""

    seat: int
    bot: str
    ticket: str


@dataclass(slots=True)
class Attached:
    """``conn`` now follows this room (the connection layer detaches it when it closes)."""

    conn: Conn


@dataclass(slots=True)
class Released:
    """``conn`` no longer follows this room."""

    conn: Conn


@dataclass(slots=True)
class PublishEvents:
    """Public feed: the spectator projections of ``events``, the first numbered ``first``."""

    events: tuple[Event, ...]
    first: int


@dataclass(slots=True)
class PublishLobby:
    """Public feed: the room's listing changed."""


@dataclass(slots=True)
class PublishResult:
    """Public feed: the game ended."""


@dataclass(slots=True)
class PublishRatings:
    """Public feed: the game was rated, with these stored rating changes (and the
    leaderboards they changed)."""

    changes: tuple[RatingChange, ...]


@dataclass(slots=True)
class Note:
    """Something an operator may want in the log (INFO)."""

    text: str


@dataclass(slots=True)
class OpenRematch:
    """Every player accepted the rematch: open its room (the actor answers with
    :class:`Rematched`)."""


@dataclass(slots=True)
class Close:
    """The room is done (finished and its time to linger is over): forget it."""


Effect = (
    Send
    | Persist
    | Reply
    | Refuse
    | Schedule
    | Cancel
    | Launch
    | Attached
    | Released
    | PublishEvents
    | PublishLobby
    | PublishResult
    | PublishRatings
    | Note
    | OpenRematch
    | Close
)
