"""The wire protocol's inbound half: typed client messages, and the error codes.

Every frame is one JSON object in a websocket text frame, with a ``"type"`` field.
Inbound messages are decoded straight into the :class:`msgspec.Struct` types below (unknown
fields are refused), so nothing unvalidated ever reaches a room. Outbound frames are the
types of :mod:`server.wire.frames`, encoded there. ``docs/protocol.md`` documents all of
it with examples; keep the three in step.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from server.errors import ClientError

#: The protocol version a client names in ``hello``. Bump it on incompatible changes.
PROTOCOL_VERSION = 1

#: Every error code an ``error`` frame may carry, with what it means.
ERROR_CODES: dict[str, str] = {
    # malformed traffic (count towards the abuse limit)
    "bad_json": "the frame is not a JSON object in a text frame",
    "unknown_type": "the message type is not one of the protocol's",
    "bad_message": "the message does not match its schema (a field is missing or wrong)",
    "rate_limited": "too many messages, or login attempts: slow down (the message was dropped)",
    "hello_required": "the first message must be hello",
    # identity
    "version": "the protocol version in hello is not supported",
    "already_hello": "this connection already said hello",
    "bad_name": "the display name is empty, too long or contains control characters",
    "bad_token": "the token does not belong to any player (or its session expired)",
    # accounts
    "bad_login": "wrong name or password (the same answer whichever was wrong)",
    "name_taken": "the name belongs to an account, a bot account or a house bot",
    "bad_password": "a password has 8 to 1,024 characters",
    "account_required": "only an account (not a guest) may do that",
    # lobby and rooms
    "bad_options": "the room options do not make a valid game",
    "no_such_room": "no such room, or a private room without its invite code",
    "no_such_tournament": "no such tournament (or none open on this server)",
    "no_such_player": "no such player",
    "room_full": "every seat is taken",
    "seat_taken": "that seat is taken or does not exist",
    "already_seated": "you already hold a seat in this room",
    "not_seated": "you hold no seat in this room",
    "not_your_seat": "that seat belongs to someone else",
    "not_host": "only the host may do that",
    "bad_state": "the room is not in a state that allows this",
    "no_spectators": "this room does not allow spectators (now)",
    "bad_seq": "the sequence number is beyond the room's last event",
    "too_many_rooms": "a limit on rooms was reached",
    "no_such_seek": "no such open seek (it was paired, cancelled, or never was)",
    "too_many_seeks": "you have as many open seeks as a player may",
    "rating_range": "your rating is outside the seek's range (or it is outside yours)",
    "unsupported": "the server cannot do this for this game",
    "busy": "the server cannot do this now (too many at once, or too slow): ask again",
    # the engine's refusals (the game state is unchanged)
    "malformed": "the action text is not an action of this game (or a catalogue's "
    "language is not one the server speaks)",
    "not_your_turn": "it is not this seat's turn",
    "game_over": "the game has ended",
    "illegal": "the action is against the rules in this position",
    "repeated": "this attempt was already refused this turn",
    # the server's own faults
    "aborted": "the room's game was aborted after an internal error",
    "internal": "the server failed to handle the message (it keeps serving)",
    "too_many_connections": "too many connections from this address",
    "paused": "the server cannot save this room's game now: it is paused (a `paused` "
    "frame said so) and goes on by itself when it can save again; act again then",
    "unavailable": "the server cannot save anything now (its disk is full or failing): "
    "nothing was done; try again in a while",
}

#: The bot ``add_bot`` names by default: the room's own stand-in policy plays the seat
#: (games with a stand-in only).
AUTOPILOT = "autopilot"

#: The most rooms one ``rooms`` frame lists (``list_rooms.limit``'s default and cap): the
#: frame stays small however many rooms there are.
ROOMS_PAGE = 30

#: The largest integer a client may send: every JSON implementation (JavaScript's numbers
#: included) holds integers up to 2**53 - 1 exactly.
MAX_INT = 2**53 - 1

RoomId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Ref = (
    Annotated[int, msgspec.Meta(ge=-MAX_INT, le=MAX_INT)]
    | Annotated[str, msgspec.Meta(max_length=64)]
    | None
)
#: A seat number (seats are numbered from 0; no game has hundreds).
SeatNo = Annotated[int, msgspec.Meta(ge=0, le=255)]
#: An action's text: printable ASCII (every game spells its actions so), at most 64.
ActionText = Annotated[str, msgspec.Meta(max_length=64, pattern="^[ -~]*$")]
#: A room option's value: options are flat scalars (see ``umpire rules``).
OptionValue = (
    bool
    | Annotated[int, msgspec.Meta(ge=-MAX_INT, le=MAX_INT)]
    | Annotated[float, msgspec.Meta(ge=-1e9, le=1e9)]
    | Annotated[str, msgspec.Meta(max_length=256)]
    | None
)
Options = Annotated[
    dict[Annotated[str, msgspec.Meta(min_length=1, max_length=32)], OptionValue],
    msgspec.Meta(max_length=32),
]


class Inbound(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Base of every client message. ``ref`` is echoed in the reply or error frame."""

    ref: Ref = None


#: A bot's version (``bot_version``): printable ASCII, at most 32 characters. (The
#: pattern's ``$`` also matches before a final newline: :func:`_check_version` refuses it.)
BotVersion = Annotated[str, msgspec.Meta(max_length=32, pattern="^[ -~]*$")]


def _check_version(version: str) -> None:
    """Refuse a ``bot_version`` ending in a newline (msgspec's check is ``re.search``)."""
    if version.endswith("\n"):
        raise ValueError("bot_version: printable ASCII only")


#: A password as sent: its rules (8 to 1,024 characters) are the identity service's
#: (frames are size-capped), so that a password too long is told ``bad_password``.
Password = str
#: A display or account name as sent: checked by the identity service (``bad_name``;
#: frames are size-capped), so an over-long name is told what is wrong with it.
Name = str


class Hello(Inbound, tag="hello"):
    """Say who you are: a new guest (no token), or a returning guest, an account's
    session or a bot account's API token (``token``: then ``name`` may be left out, and an
    account's or bot account's stored name wins). ``bot_version``: the version a bot plays
    as (its ratings are kept per version)."""

    v: Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]
    name: Name | None = None
    token: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    bot: bool = False
    bot_version: BotVersion = ""

    def __post_init__(self) -> None:
        _check_version(self.bot_version)


class Login(Inbound, tag="login"):
    """Log in to an account with its name and password: a new session token in the
    ``welcome``. The first message of a connection, or after a guest's ``hello`` (the
    connection then leaves the guest's rooms and becomes the account)."""

    v: Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]
    name: Name
    password: Password
    bot_version: BotVersion = ""

    def __post_init__(self) -> None:
        _check_version(self.bot_version)


class Register(Inbound, tag="register"):
    """Make the guest on this connection an account: its name (or ``name``) claimed
    with ``password``; same player id, so its games are the account's."""

    password: Password
    name: Name | None = None


class Logout(Inbound, tag="logout"):
    """Revoke this connection's token (``everywhere``: every login session of the
    account) and close the connection (``everywhere``: the account's other ones too)."""

    everywhere: bool = False


class ChangePassword(Inbound, tag="change_password"):
    """Change the account's password; the account's other sessions are revoked."""

    old: Password
    new: Password


class CreateBot(Inbound, tag="create_bot"):
    """Make a bot account (accounts only): the answer carries its API token, once."""

    name: Name


class ListBots(Inbound, tag="list_bots"):
    """The bot accounts this account made."""


class BotToken(Inbound, tag="bot_token"):
    """A new API token for one of your bot accounts (its old ones are revoked)."""

    bot: Annotated[str, msgspec.Meta(max_length=64)]


class Clock(msgspec.Struct, forbid_unknown_fields=True):
    """A Kriegspiel clock: ``base`` seconds per player plus ``increment`` per move."""

    base: Annotated[float, msgspec.Meta(gt=0, le=86400)]
    increment: Annotated[float, msgspec.Meta(ge=0, le=3600)] = 0.0


class CreateRoom(Inbound, tag="create_room"):
    """Create a room; the creator is its host and (``sit``) takes seat 0."""

    game: Annotated[str, msgspec.Meta(max_length=32)]
    options: Options = msgspec.field(default_factory=dict)
    public: bool = True
    spectators: Literal["live", "after", "none"] = "live"
    turn_time: Annotated[float, msgspec.Meta(ge=0, le=86400)] = 0.0
    clock: Clock | None = None
    autostart: bool = True
    sit: bool = True
    chat: bool = True
    #: null: rated when every seat is held by an account, a bot account or a house bot;
    #: true: rated (guests are refused a seat, ``account_required``); false: casual
    rated: bool | None = None


class Seek(Inbound, tag="seek"):
    """Offer to play: the server pairs compatible seeks (docs/matchmaking.md) and opens a
    room for each full table (a ``match`` frame). ``seats``: the table's size (the
    game's default seat count if omitted); ``rating_range``: the opponents' ratings
    accepted; ``fill_after``: seconds after which house bots take the empty seats."""

    game: Annotated[str, msgspec.Meta(max_length=32)]
    options: Options = msgspec.field(default_factory=dict)
    rated: bool = False
    rating_range: (
        Annotated[
            list[Annotated[float, msgspec.Meta(ge=-1e6, le=1e6)]],
            msgspec.Meta(min_length=2, max_length=2),
        ]
        | None
    ) = None
    clock: Clock | None = None
    seats: Annotated[int, msgspec.Meta(ge=2, le=64)] | None = None
    fill_after: Annotated[float, msgspec.Meta(ge=0, le=86400)] | None = None


class CancelSeek(Inbound, tag="cancel_seek"):
    """Withdraw one of your open seeks."""

    seek: Annotated[str, msgspec.Meta(max_length=64)]


class ListSeeks(Inbound, tag="seeks"):
    """The open seeks (of one game); the connection is then sent a new ``seeks`` frame
    whenever they change, until it asks with ``watch: false``."""

    game: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    watch: bool = True


class TakeSeek(Inbound, tag="take_seek"):
    """Accept an open seek as it is: you seek the same game, paired with it first."""

    seek: Annotated[str, msgspec.Meta(max_length=64)]


class Rematch(Inbound, tag="rematch"):
    """Offer a rematch of a finished game you played, or accept the one offered."""

    room: RoomId


class DeclineRematch(Inbound, tag="decline_rematch"):
    """Decline the rematch offered in a finished game you played."""

    room: RoomId


class ListRooms(Inbound, tag="list_rooms"):
    """List the public rooms (optionally of one game), a page at a time: ``limit`` rooms
    from the ``offset``-th (the answer says the ``total``)."""

    game: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    offset: Annotated[int, msgspec.Meta(ge=0, le=1_000_000)] = 0
    limit: Annotated[int, msgspec.Meta(ge=1, le=ROOMS_PAGE)] = ROOMS_PAGE


class Join(Inbound, tag="join"):
    """Take a seat (``seat`` or the first free one) in a waiting room.

    ``ticket`` is for the server's own house bots: a secret the server hands the bot it
    starts for a seat, which lets that connection play the seat."""

    room: RoomId | None = None
    invite: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    seat: SeatNo | None = None
    ticket: Annotated[str, msgspec.Meta(max_length=64)] | None = None


class Watch(Inbound, tag="watch"):
    """Watch a room as a spectator."""

    room: RoomId | None = None
    invite: Annotated[str, msgspec.Meta(max_length=64)] | None = None


class Leave(Inbound, tag="leave"):
    """Stop receiving a room's frames; before the start, also give the seat up."""

    room: RoomId


class Start(Inbound, tag="start"):
    """Start the game now (host only), with the seats taken so far."""

    room: RoomId


class AddBot(Inbound, tag="add_bot"):
    """Fill an empty seat (``seat`` or the first free one) with a house bot (host only)."""

    room: RoomId
    seat: SeatNo | None = None
    bot: Annotated[str, msgspec.Meta(max_length=32)] = AUTOPILOT


class Act(Inbound, tag="act"):
    """Send an action (``"5x4"``, ``"dudo"``, ``"e2e4"``...) for your seat."""

    room: RoomId
    action: ActionText
    seat: SeatNo | None = None


class Resume(Inbound, tag="resume"):
    """Re-attach to a room and receive every event after ``since`` (0: all of them)."""

    room: RoomId
    since: Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)] = 0
    invite: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    ticket: Annotated[str, msgspec.Meta(max_length=64)] | None = None


class Profile(Inbound, tag="profile"):
    """A player's public profile: statistics, recent games and ratings, by ``player`` id
    or by ``name`` (an account's, a bot account's or a house bot's; default: your own)."""

    player: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    name: Annotated[str, msgspec.Meta(max_length=64)] | None = None


class Leaderboard(Inbound, tag="leaderboard"):
    """The best ratings of a game's rule set (default: the game's default rule set) in
    one pool: ``human`` (accounts) or ``bot`` (bot accounts and house bots, by version)."""

    game: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    rules: Annotated[str, msgspec.Meta(min_length=1, max_length=32)] | None = None
    pool: Literal["human", "bot"] = "human"
    limit: Annotated[int, msgspec.Meta(ge=1, le=100)] = 100


class Ping(Inbound, tag="ping"):
    """An application-level ping; the server answers ``pong``."""


Unit = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]


class Hint(Inbound, tag="hint"):
    """Ask the Perudo expert what to do in your seat now (optionally with your own bluff
    and reliability thresholds, as in the source's supporter mode)."""

    room: RoomId
    bluff: Unit | None = None
    reliability: Unit | None = None
    level: Literal["easy", "normal", "hard"] = "normal"
    lang: Literal["en", "it"] = "en"


class Catalogue(Inbound, tag="catalogue"):
    """Ask for the server's catalogue of games: their options, presets, house bots and
    hints, and the room options, with help texts in ``lang`` (``"en"`` or ``"it"``; an
    unknown language is refused with ``malformed``). May be sent before ``hello``."""

    lang: Annotated[str, msgspec.Meta(max_length=8)] = "en"


class Say(Inbound, tag="say"):
    """Say something in a room's chat (plain text; checked by :mod:`server.roomcore.chat`)."""

    room: RoomId
    text: Annotated[str, msgspec.Meta(max_length=1200)]


#: A tournament's id, as the server made it.
TournamentId = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class CreateTournament(Inbound, tag="create_tournament"):
    """Create a hosted tournament (you are its host): a game and its options, a format
    (``round_robin``, ``swiss``, ``arena``), Swiss rounds or an arena's duration in
    seconds, rated or casual, and a start time (Unix seconds) or none (the host starts it
    with ``start_tournament``). docs/tournaments.md."""

    game: Annotated[str, msgspec.Meta(max_length=32)]
    format: Literal["round_robin", "swiss", "arena"]
    options: Options = msgspec.field(default_factory=dict)
    rounds: Annotated[int, msgspec.Meta(ge=1, le=64)] | None = None
    duration: Annotated[float, msgspec.Meta(gt=0, le=604800)] | None = None
    rated: bool = False
    starts_at: float | None = None
    name: Annotated[str, msgspec.Meta(max_length=64)] = ""


class JoinTournament(Inbound, tag="join_tournament"):
    """Register for a tournament (before its start; an arena also while it runs). The
    host may register a house bot instead (``bot``: a kind of the catalogue)."""

    tournament: TournamentId
    bot: Annotated[str, msgspec.Meta(max_length=64)] | None = None


class LeaveTournament(Inbound, tag="leave_tournament"):
    """Unregister before the start, or withdraw once it runs (games not yet played are
    lost by forfeit). The host may withdraw a house bot (``bot``)."""

    tournament: TournamentId
    bot: Annotated[str, msgspec.Meta(max_length=64)] | None = None


class StartTournament(Inbound, tag="start_tournament"):
    """Start now (host only): the first round is paired and its rooms open."""

    tournament: TournamentId


class ListTournaments(Inbound, tag="tournaments"):
    """The tournaments of this server, newest first."""


class GetTournament(Inbound, tag="tournament"):
    """One tournament: its entrants, games and standings. Asking also follows it: the
    connection gets a ``tournament`` frame whenever it changes (``follow: false`` not)."""

    tournament: TournamentId
    follow: bool = True
    #: only this round's games (an arena: this page of 100 games); every game without
    round: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)] | None = None


class LadderMessage(Inbound, tag="ladder"):
    """Join the ranked bot ladder of ``game`` (a bot account, or a house bot's runner):
    keep being paired in rated games under ``rules`` (default: the game's default rule
    set), at most ``max_concurrent`` at once (the server clamps it to its cap); ``seats``
    players a table where the game allows more than two. ``max_concurrent: 0`` leaves."""

    game: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    rules: Annotated[str, msgspec.Meta(min_length=1, max_length=32)] | None = None
    max_concurrent: Annotated[int, msgspec.Meta(ge=0, le=64)] = 1
    seats: Annotated[int, msgspec.Meta(ge=2, le=16)] | None = None


Message = (
    (Hello | CreateRoom | ListRooms | Join | Watch | Leave | Start | AddBot | Act | Resume)
    | (Profile | Ping | Hint | Say | Catalogue | Leaderboard)
    | (Login | Register | Logout | ChangePassword | CreateBot | ListBots | BotToken)
    | (Seek | CancelSeek | ListSeeks | TakeSeek | Rematch | DeclineRematch)
    | (
        CreateTournament
        | JoinTournament
        | LeaveTournament
        | StartTournament
        | ListTournaments
        | GetTournament
    )
    | LadderMessage
)

#: The inbound message types by their ``"type"`` tag.
MESSAGE_TYPES: dict[str, type[Inbound]] = {
    "hello": Hello,
    "create_room": CreateRoom,
    "list_rooms": ListRooms,
    "join": Join,
    "watch": Watch,
    "leave": Leave,
    "start": Start,
    "add_bot": AddBot,
    "act": Act,
    "resume": Resume,
    "profile": Profile,
    "ping": Ping,
    "hint": Hint,
    "say": Say,
    "catalogue": Catalogue,
    "login": Login,
    "register": Register,
    "logout": Logout,
    "change_password": ChangePassword,
    "create_bot": CreateBot,
    "list_bots": ListBots,
    "bot_token": BotToken,
    "leaderboard": Leaderboard,
    "ladder": LadderMessage,
    "seek": Seek,
    "cancel_seek": CancelSeek,
    "seeks": ListSeeks,
    "take_seek": TakeSeek,
    "rematch": Rematch,
    "decline_rematch": DeclineRematch,
    "create_tournament": CreateTournament,
    "join_tournament": JoinTournament,
    "leave_tournament": LeaveTournament,
    "start_tournament": StartTournament,
    "tournaments": ListTournaments,
    "tournament": GetTournament,
}

_decoder = msgspec.json.Decoder(Message)
_loose = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


def decode(frame: str | bytes) -> Inbound:
    """Decode one inbound frame into its message type; raise :class:`ClientError`.

    Never raises anything else, whatever the frame holds. The error says what was wrong:
    ``bad_json`` (not a JSON object in a text frame, nested too deeply, a number no JSON
    reader can hold), ``unknown_type`` or ``bad_message`` (with msgspec's description of
    the field at fault). Every one of them counts as abuse.
    """
    if not isinstance(frame, str):
        raise ClientError("bad_json", "send JSON in text frames, not binary", abuse=True)
    try:
        message: Inbound = _decoder.decode(frame)
        return message
    except msgspec.ValidationError as exc:
        raise _invalid(frame, exc) from None
    except msgspec.DecodeError as exc:
        raise ClientError("bad_json", f"not valid JSON: {exc}", abuse=True) from None
    except RecursionError:
        raise ClientError("bad_json", "the JSON is nested too deeply", abuse=True) from None
    except (UnicodeError, ValueError, OverflowError) as exc:  # defensive: msgspec's own
        raise ClientError("bad_json", f"not valid JSON: {exc}", abuse=True) from None


class _Broken(Exception):
    """Even plain JSON decoding failed (the reason is the message)."""


def _loads(frame: str) -> Any:
    """The frame as plain JSON values; raise :class:`_Broken` when even that fails."""
    try:
        return _loose.decode(frame)
    except RecursionError:
        raise _Broken("nested too deeply") from None
    except (msgspec.MsgspecError, UnicodeError, ValueError, OverflowError) as exc:
        raise _Broken(str(exc)) from None


def _invalid(frame: str, exc: msgspec.ValidationError) -> ClientError:
    """The error for a frame that is JSON but not a valid message."""
    try:
        loose = _loads(frame)
    except _Broken as broken:  # e.g. a number beyond a double anywhere in the frame
        return ClientError("bad_json", f"not usable JSON: {broken}", abuse=True)
    if not isinstance(loose, dict):
        return ClientError("bad_json", "a message is a JSON object", abuse=True)
    kind = loose.get("type")
    if not isinstance(kind, str):
        return ClientError("bad_message", 'a message needs a string "type" field', abuse=True)
    if kind not in MESSAGE_TYPES:
        known = ", ".join(MESSAGE_TYPES)
        return ClientError(
            "unknown_type", f"unknown message type {kind[:40]!r}: one of {known}", abuse=True
        )
    return ClientError("bad_message", f"{kind}: {exc}", abuse=True)


def ref_of(frame: str | bytes) -> Ref:
    """Best effort: the ``ref`` of a frame that failed to decode, to echo in the error.

    Only a ``ref`` that is itself valid is echoed; never raises."""
    if not isinstance(frame, str):
        return None
    try:
        loose = _loads(frame)
    except _Broken:
        return None
    ref = loose.get("ref") if isinstance(loose, dict) else None
    if isinstance(ref, int) and not isinstance(ref, bool) and -MAX_INT <= ref <= MAX_INT:
        return ref
    if isinstance(ref, str) and len(ref) <= 64:
        return ref
    return None


def encode(message: Inbound) -> bytes:
    """A client message as JSON text (UTF-8), as a client sends it: how a node says a
    relayed client's ``hello`` to the room's owner (``server.cluster.nodes``)."""
    return _encoder.encode(message)
