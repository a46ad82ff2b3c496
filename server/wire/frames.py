"""The server's frames as types: one :class:`msgspec.Struct` per outbound frame.

These types are the one source of the server-to-client half of the protocol: the server
builds every frame it sends from them and encodes it with :func:`encode` (one reusable
msgspec encoder; no frame is ever a dict). :data:`Frame` is the tagged union of them all,
so that

- ``umpire schema`` prints their JSON Schema beside the inbound messages'
  (:func:`json_schema`);
- tests decode every frame a test client receives against it, strictly: a frame with a
  missing, unknown or mistyped field fails the test (``tests/server/wsclient.py``);
- ``docs/protocol.md`` is checked against it, field by field;
- a test fails if a module of ``server/`` outside this one builds a dict with a
  ``"type"`` key (``tests/server/test_typed_frames.py``).

Event payloads and views are the engines' business and stay plain JSON objects here; the
room's own event (:class:`AbortedEvent`) is typed here. Keep this module,
``server/wire/protocol.py`` and ``docs/protocol.md`` in step.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar, cast

import msgspec

from server.wire.protocol import ERROR_CODES, Message, Ref

#: Every error code (``server.wire.protocol.ERROR_CODES`` describes each; a test keeps the two
#: in step).
ErrorCode = Literal[
    "bad_json",
    "unknown_type",
    "bad_message",
    "rate_limited",
    "hello_required",
    "version",
    "already_hello",
    "bad_name",
    "bad_token",
    "bad_login",
    "name_taken",
    "bad_password",
    "account_required",
    "bad_options",
    "no_such_room",
    "no_such_player",
    "room_full",
    "seat_taken",
    "already_seated",
    "not_seated",
    "not_your_seat",
    "not_host",
    "bad_state",
    "no_spectators",
    "bad_seq",
    "too_many_rooms",
    "no_such_seek",
    "too_many_seeks",
    "rating_range",
    "unsupported",
    "busy",
    "malformed",
    "not_your_turn",
    "game_over",
    "illegal",
    "repeated",
    "aborted",
    "internal",
    "too_many_connections",
    "no_such_tournament",
    "paused",
    "unavailable",
]

RoomState = Literal["waiting", "playing", "finished", "aborted"]
#: A chat channel: seated players and spectators each hear only their own.
Channel = Literal["players", "spectators"]
Spectators = Literal["live", "after", "none"]
#: An engine's JSON object (a projection, a view, a game's options).
JsonObject = dict[str, Any]


class Part(msgspec.Struct, forbid_unknown_fields=True):
    """Base of the objects nested in frames (strict: no unknown fields)."""


class OutFrame(
    msgspec.Struct, tag_field="type", forbid_unknown_fields=True, omit_defaults=True, kw_only=True
):
    """Base of every server frame. Fields without a default are always present (possibly
    ``null``); ``ref`` is present only in the reply to a message that carried one."""


class Reply(OutFrame, kw_only=True):
    """A frame that answers one client message; it echoes the message's ``ref``."""

    ref: Ref = None


#: Any reply frame (see :func:`with_ref`).
ReplyT = TypeVar("ReplyT", bound="Reply")


# -- nested objects ------------------------------------------------------------------------


class PlayerInfo(Part):
    """A player's public identity. ``kind``: ``guest``, ``account``, ``bot`` (a bot
    account) or ``house`` (one of the server's own bots)."""

    id: str
    name: str
    bot: bool
    kind: str = "guest"


class HeldSeat(Part):
    """An unfinished room where the player holds a seat (``welcome.seats``)."""

    room: str
    game: str
    seat: int
    state: RoomState
    seq: int


class LimitsInfo(Part):
    """The connection limits the server applies (``welcome.limits``)."""

    max_frame: int
    rate: float
    burst: float
    idle_timeout: float | None


class SeatInfo(Part):
    """One seat of a room: who holds it and how it is played."""

    seat: int
    player: str | None
    name: str | None
    bot: bool
    house: bool
    connected: bool
    autopilot: bool


class ClockSetting(Part):
    """A Kriegspiel clock: ``base`` seconds per player plus ``increment`` per move."""

    base: float
    increment: float


class OutcomeInfo(Part):
    """A finished game's result: ``ranks[seat]`` (1 is best), ``winners``, ``reason``."""

    ranks: list[int]
    winners: list[int]
    reason: str


class RatingChangeInfo(Part):
    """What a rated game did to one seat's rating (the final ``room`` frame's
    ``ratings``): ``rating``/``deviation`` before and after; ``provisional`` until the
    deviation falls below the game's bound (docs/ratings.md)."""

    seat: int
    player: str
    version: str
    before: float
    after: float
    deviation_before: float
    deviation_after: float
    games: int
    provisional: bool


class RematchInfo(Part):
    """A finished game's rematch: the seats that asked for it (or accepted), the seat
    that declined it (the offers are then void), and its room once every player asked."""

    offered: list[int]
    declined: int | None
    room: str | None


class RoomFields(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """What the lobby and the ``room`` frame say of a room."""

    room: str
    game: str
    options: JsonObject
    public: bool
    state: RoomState
    host: str | None
    seats: list[SeatInfo]
    spectators: Spectators
    turn_time: float | None
    clock: ClockSetting | None
    seq: int
    seed_sha256: str | None
    seed: str | None
    outcome: OutcomeInfo | None
    reason: str | None
    chat: bool
    #: the game is rated (decided when it starts; before that: it will be, if it starts
    #: with the seats as they are)
    rated: bool = False
    #: a rated game's rating changes, once its end is stored
    ratings: list[RatingChangeInfo] | None = None
    #: a match's source (``seek``, ``rematch``, ``tournament``, ``ladder``): its seats
    #: were given by the server; ``None`` for a room a player made
    match: str | None = None
    #: after the end: the rematch offered (who accepted, who declined, its room)
    rematch: RematchInfo | None = None
    #: the server cannot save the room's game now: it is paused (no move, no clock)
    #: until it can again (the ``paused`` frame)
    paused: bool = False
    #: once the game is over: its log's final hash (the last link of its hash chain,
    #: docs/data.md), the server's Ed25519 signature of it and the signing key's id
    #: (``GET /api/signing-keys``); null before, and for a game logged before the chain
    final_hash: str | None = None
    signature: str | None = None
    key_id: str | None = None
    #: when the game started (seconds since the epoch, UTC); ``None`` before the start
    started: float | None = None


class RoomInfo(RoomFields):
    """One entry of the ``rooms`` listing (a ``room`` frame without ``type``)."""


class HistoryEntry(Part):
    """One game in a profile's history."""

    room: str
    game: str
    status: RoomState
    seat: int
    rank: int | None
    reason: str | None
    started: float | None
    finished: float | None


class Thresholds(Part):
    """The expert's bluff and reliability thresholds (0 to 1)."""

    bluff: float
    reliability: float


class CatalogueOption(Part):
    """One option of a game or a room, as a client offers it: ``type`` is ``bool``,
    ``int``, ``float``, ``str`` or ``object``; ``choices`` the allowed values when there is
    a fixed set; ``min`` and ``max`` the bounds where known; ``fields`` the members of an
    ``object`` option (``null`` for the others)."""

    name: str
    type: Literal["bool", "int", "float", "str", "object"]
    default: Any
    choices: list[str] | None
    min: float | None
    max: float | None
    help: str
    fields: list[CatalogueOption] | None


class CataloguePreset(Part):
    """A game's preset: the option values it gives."""

    name: str
    values: JsonObject
    help: str


class CatalogueBot(Part):
    """A house bot a host may add to a room of the game (``add_bot``), with the levels it
    may be asked for (``name:level``)."""

    name: str
    levels: list[str]


class SeatRange(Part):
    """The fewest and the most players of a game."""

    min: int
    max: int


class CatalogueGame(Part):
    """One game of the catalogue: everything a client needs to offer it, without knowing
    the game itself."""

    name: str
    title: str
    seats: SeatRange
    options: list[CatalogueOption]
    presets: list[CataloguePreset]
    bots: list[CatalogueBot]
    standin_bot: str | None
    hints: bool
    record_format: str | None
    room_options: list[str]


# -- frames ----------------------------------------------------------------------------


class SigningKeyInfo(Part):
    """A public key the server signs games' final hashes with (docs/data.md)."""

    id: str
    #: the raw 32-byte Ed25519 public key, hex
    public: str
    algorithm: str = "ed25519"
    #: the key this server signs with now (the others: before a rotation)
    current: bool = True


class WelcomeFrame(Reply, tag="welcome"):
    """The answer to ``hello``: who you are, your token, your seats, the limits, and the
    key the server signs finished games with."""

    v: int
    server: str
    player: PlayerInfo
    token: str
    seats: list[HeldSeat]
    limits: LimitsInfo
    signing_key: SigningKeyInfo | None = None


class SigningKeysFrame(Reply, tag="signing_keys"):
    """``GET /api/signing-keys``: every key the server has signed games with."""

    keys: list[SigningKeyInfo]


class RoomsFrame(Reply, tag="rooms"):
    """A page of the public rooms (answer to ``list_rooms``), waiting ones first: the
    rooms from the ``offset``-th, and how many there are in all (``total``)."""

    rooms: list[RoomInfo]
    total: int
    offset: int


class RoomFrame(RoomFields, OutFrame, tag="room"):
    """A room's description, sent on attaching and whenever it changes. ``invite`` only
    for players seated in a private room."""

    invite: str | None = None


class CreatedFrame(Reply, tag="created"):
    """The answer to ``create_room``."""

    room: str
    invite: str | None
    seat: int | None


class JoinedFrame(Reply, tag="joined"):
    """The answer to ``join``."""

    room: str
    seat: int


class WatchingFrame(Reply, tag="watching"):
    """The answer to ``watch`` (``seat``: the seat a seated player watches from)."""

    room: str
    seat: int | None


class ResumedFrame(Reply, tag="resumed"):
    """The end of a ``resume``'s catch-up: live events follow."""

    room: str
    seat: int | None
    seq: int


class LeftFrame(Reply, tag="left"):
    """The answer to ``leave`` (also sent to a stand-in bot the server sends away)."""

    room: str


class StartedFrame(Reply, tag="started"):
    """The answer to ``start``."""

    room: str
    seq: int


class BotAddedFrame(Reply, tag="bot_added"):
    """The answer to ``add_bot``: the house bot's player id holds ``seat``."""

    room: str
    seat: int
    bot: str


class EventFrame(OutFrame, tag="event"):
    """One event of the game as you may see it; ``seq`` numbers your own stream."""

    room: str
    seq: int
    event: JsonObject


class SnapshotFrame(OutFrame, tag="snapshot"):
    """Everything you may know now, when you attach to a game in progress."""

    room: str
    seq: int
    seat: int | None
    view: JsonObject


class TurnFrame(OutFrame, tag="turn"):
    """The game waits for your seat: every action you may send, and your view."""

    room: str
    seat: int
    seq: int
    legal: list[str]
    view: JsonObject
    time_left: float | None


class AckFrame(Reply, tag="ack"):
    """Your action is accepted and durable; it caused events ``first`` .. ``seq``."""

    room: str
    seq: int
    first: int
    action: str


class ClockFrame(OutFrame, tag="clock"):
    """Time left in a timed room: ``remaining`` per seat (Kriegspiel) or ``turn_time``."""

    room: str
    to_move: int | None
    remaining: list[float] | None
    turn_time: float | None


class PausedFrame(OutFrame, tag="paused"):
    """The room is paused (``paused`` true) because the server cannot save its game, or
    goes on again (``paused`` false): while paused nothing is played, no clock runs and
    ``act`` is refused with ``paused``; ``message`` says it in words."""

    room: str
    paused: bool
    message: str


class ErrorFrame(Reply, tag="error"):
    """A refused message: ``code`` (see ``ERROR_CODES``), a readable ``message``, the
    failed message's ``room`` when it named one, and with ``rate_limited`` the seconds
    after which a message passes again (``retry_after``)."""

    code: ErrorCode
    message: str
    room: str | None = None
    retry_after: float | None = None


class PongFrame(Reply, tag="pong"):
    """The answer to ``ping``."""


class ProfileFrame(Reply, tag="profile"):
    """A player's public statistics (game -> key -> value), newest games and ratings."""

    player: PlayerInfo
    stats: dict[str, dict[str, float]]
    history: list[HistoryEntry]
    #: always sent, empty for a player never rated (a client may index it)
    ratings: list[PlayerRating]


# -- ratings (server.ratings.board; docs/ratings.md) ---------------------------------------


class PlayerRating(Part):
    """One of a player's ratings (a game, a rule set and, for bots, a version) with its
    history: ``[at, rating]`` after each rated game, oldest first (at most 500)."""

    game: str
    rules: str
    version: str
    rating: float
    deviation: float
    games: int
    provisional: bool
    history: list[tuple[float, float]]


class LeaderboardEntry(Part):
    """One line of a leaderboard: its rank (1 best), the player and the version rated."""

    rank: int
    player: PlayerInfo
    version: str
    rating: float
    deviation: float
    games: int
    provisional: bool


class LeaderboardFrame(Reply, tag="leaderboard"):
    """The answer to ``leaderboard``: the best ratings of a game's rule set in one pool
    (``human`` or ``bot``), of players with at least ``min_games`` rated games."""

    game: str
    rules: str
    pool: str
    min_games: int
    entries: list[LeaderboardEntry]


class HintFrame(Reply, tag="hint"):
    """The Perudo expert's suggestion for your seat, worked out for the game as your
    stream stood at ``seq``: a hint may come after later events (it is worked out away
    from the room), and is stale once your stream has gone past ``seq``."""

    room: str
    seq: int
    seat: int
    your_turn: bool
    action: str
    probability: float
    explanation: str
    rules: list[str]
    level: str
    situation: str
    thresholds: Thresholds
    alternatives: list[tuple[str, float]]


class ChatFrame(Reply, tag="chat"):
    """One chat line (``n``: the room's line number), heard by the speaker's channel; the
    speaker's own copy is its ``say``'s reply (with the ``ref``)."""

    room: str
    n: int
    channel: Channel
    seat: int | None
    player: str
    name: str
    text: str


class CatalogueFrame(Reply, tag="catalogue"):
    """The answer to ``catalogue``: every game the server runs and the room options,
    with help texts in ``lang``."""

    lang: str
    games: list[CatalogueGame]
    room_options: list[CatalogueOption]


class AccountFrame(Reply, tag="account"):
    """The answer to ``register`` and ``change_password``: the account as it is now."""

    player: PlayerInfo


class LoggedOutFrame(Reply, tag="logged_out"):
    """The answer to ``logout``: how many tokens were revoked. The server then closes
    the connection (1000, ``"logged out"``)."""

    revoked: int


class BotAccountFrame(Reply, tag="bot_account"):
    """The answer to ``create_bot`` and ``bot_token``: the bot account and its API
    token (shown this once; the server keeps only its hash)."""

    player: PlayerInfo
    token: str


class BotAccountsFrame(Reply, tag="bot_accounts"):
    """The answer to ``list_bots``: the account's bot accounts, oldest first."""

    bots: list[PlayerInfo]


class LadderJoinedFrame(Reply, tag="ladder_joined"):
    """The answer to ``ladder``: the ladder joined (``game``, ``rules``), the games at
    once it will get (``max_concurrent``, after the server's cap; 0: it left) and how
    many ladder games this bot plays now (``playing``)."""

    game: str
    rules: str
    max_concurrent: int
    playing: int


class MatchFrame(OutFrame, tag="match"):
    """A seat was given to you in a new room (a match): pushed to every live connection
    of each seated player when the room opens. Attach with ``resume {room, since: 0}``
    (or ``join {room}``) within ``no_show`` seconds, or the seat forfeits. ``source`` says
    what made it (``seek``, ``rematch``, ``tournament``, ``ladder``) and ``ref`` which
    one (the seek's id, the finished room's id, the tournament's id...); ``players`` are
    the seats' holders in seat order; ``round`` a tournament's round."""

    room: str
    seat: int
    game: str
    source: str
    ref: str | None
    options: JsonObject
    players: list[PlayerInfo]
    rated: bool
    no_show: float
    round: int | None = None


class RematchFrame(Reply, tag="rematch"):
    """The answer to ``rematch`` and ``decline_rematch``: the rematch as it stands."""

    room: str
    rematch: RematchInfo


class SeekInfo(Part):
    """An open (or just matched, or cancelled) seek, as the lobby shows it."""

    id: str
    player: PlayerInfo
    game: str
    options: JsonObject
    rated: bool
    seats: int
    clock: ClockSetting | None
    rating: float | None
    rating_range: list[float] | None
    fill_after: float | None
    created: float
    status: str
    room: str | None


class SeekAddedFrame(Reply, tag="seek_added"):
    """Your seek is stored (answer to ``seek`` and ``take_seek``): ``status`` is
    ``matched`` (with its ``room``) if it was paired at once."""

    seek: SeekInfo


class SeekCancelledFrame(Reply, tag="seek_cancelled"):
    """The seek is withdrawn (answer to ``cancel_seek``)."""

    seek: str


class SeeksFrame(Reply, tag="seeks"):
    """The open seeks, oldest first (answer to ``seeks``, and pushed to a connection
    that asked for them whenever they change); ``game`` is the filter asked for. At most
    the newest 100 of each game; ``total`` counts every open seek of the filter."""

    game: str | None
    seeks: list[SeekInfo]
    total: int = 0


class TournamentEntrantInfo(Part):
    """A tournament's entrant: ``house`` names a house bot's kind."""

    player: str
    name: str
    withdrawn: bool
    house: str | None


class TournamentGameInfo(Part):
    """One pairing: its round (0 in an arena), board (0: a bye), players in seat order,
    room (once opened), each seat's score once over, and whether it was a forfeit."""

    round: int
    board: int
    players: list[str]
    room: str | None
    scores: list[float] | None
    forfeit: bool


class StandingInfo(Part):
    """One line of the standings (docs/tournaments.md, "Standings")."""

    rank: int
    player: str
    name: str
    points: float
    buchholz: float
    sonneborn_berger: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool


class TournamentInfo(Part):
    """A tournament: what it is, where it is, and its table. ``status``: ``created``
    (registering), ``running``, ``finished`` or ``cancelled``; times are Unix seconds."""

    id: str
    name: str
    game: str
    options: JsonObject
    format: str
    rated: bool
    host: str
    status: str
    round: int
    rounds: int
    duration: float | None
    starts_at: float | None
    started: float | None
    ends: float | None
    finished: float | None
    entrants: list[TournamentEntrantInfo]
    games: list[TournamentGameInfo]
    standings: list[StandingInfo]


class TournamentFrame(Reply, tag="tournament"):
    """A tournament: the answer to ``create_tournament``, ``join_tournament``,
    ``leave_tournament``, ``start_tournament`` and ``tournament``, and pushed to its
    entrants and followers whenever it changes."""

    tournament: TournamentInfo


class TournamentSummary(Part):
    """A tournament in the ``tournaments`` list."""

    id: str
    name: str
    game: str
    format: str
    status: str
    rated: bool
    entrants: int
    round: int
    rounds: int
    starts_at: float | None


class TournamentsFrame(Reply, tag="tournaments"):
    """The answer to ``tournaments``: this server's tournaments, newest first."""

    tournaments: list[TournamentSummary]


#: Every frame the server sends, tagged by ``"type"``.
Frame = (
    WelcomeFrame
    | RoomsFrame
    | RoomFrame
    | CreatedFrame
    | JoinedFrame
    | WatchingFrame
    | ResumedFrame
    | LeftFrame
    | StartedFrame
    | BotAddedFrame
    | EventFrame
    | SnapshotFrame
    | TurnFrame
    | AckFrame
    | ClockFrame
    | PausedFrame
    | ErrorFrame
    | PongFrame
    | ProfileFrame
    | HintFrame
    | ChatFrame
    | CatalogueFrame
    | AccountFrame
    | LoggedOutFrame
    | BotAccountFrame
    | BotAccountsFrame
    | LeaderboardFrame
    | LadderJoinedFrame
    | MatchFrame
    | SeekAddedFrame
    | SeekCancelledFrame
    | SeeksFrame
    | RematchFrame
    | TournamentFrame
    | TournamentsFrame
    | SigningKeysFrame
)

#: The outbound frame types by their ``"type"`` tag.
FRAME_TYPES: dict[str, type[OutFrame]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        WelcomeFrame,
        RoomsFrame,
        RoomFrame,
        CreatedFrame,
        JoinedFrame,
        WatchingFrame,
        ResumedFrame,
        LeftFrame,
        StartedFrame,
        BotAddedFrame,
        EventFrame,
        SnapshotFrame,
        TurnFrame,
        AckFrame,
        ClockFrame,
        PausedFrame,
        ErrorFrame,
        PongFrame,
        ProfileFrame,
        HintFrame,
        ChatFrame,
        CatalogueFrame,
        AccountFrame,
        LoggedOutFrame,
        BotAccountFrame,
        BotAccountsFrame,
        LeaderboardFrame,
        LadderJoinedFrame,
        MatchFrame,
        SeekAddedFrame,
        SeekCancelledFrame,
        SeeksFrame,
        RematchFrame,
        TournamentFrame,
        TournamentsFrame,
        SigningKeysFrame,
    )
}

_strict = msgspec.json.Decoder(Frame)
_encoder = msgspec.json.Encoder()


def encode(frame: OutFrame) -> bytes:
    """The frame as the JSON text the server sends (UTF-8 bytes)."""
    return _encoder.encode(frame)


def with_ref(frame: ReplyT, ref: Ref) -> ReplyT:
    """``frame`` answering a message that carried ``ref`` (itself when there was none)."""
    return frame if ref is None else msgspec.structs.replace(frame, ref=ref)


def error(
    code: str,
    message: str,
    *,
    ref: Ref = None,
    room: str | None = None,
    retry_after: float | None = None,
) -> ErrorFrame:
    """An ``error`` frame; ``code`` must be one of ``ERROR_CODES`` (a
    :class:`~server.errors.ClientError`'s code is a plain string)."""
    assert code in ERROR_CODES, code
    return ErrorFrame(
        code=cast(ErrorCode, code), message=message, ref=ref, room=room, retry_after=retry_after
    )


def room_frame(info: RoomInfo, seq: int, invite: str | None) -> RoomFrame:
    """The ``room`` frame of a room described by ``info``, for a viewer whose stream is
    at ``seq`` (``invite``: only for a player seated in a private room)."""
    fields = msgspec.structs.asdict(info)
    fields["seq"] = seq
    return RoomFrame(**fields, invite=invite)


class AbortedEvent(msgspec.Struct, tag_field="type", tag="aborted", forbid_unknown_fields=True):
    """The room's own event, last in every stream of a game the server had to abort: why,
    and the game's seed, revealed."""

    reason: str
    seed: str


def aborted_event(reason: str, seed: bytes) -> JsonObject:
    """The payload of an ``aborted`` event, as events are logged and projected."""
    payload: JsonObject = msgspec.to_builtins(AbortedEvent(reason=reason, seed=seed.hex()))
    return payload


def check(text: str | bytes) -> OutFrame:
    """Decode one outbound frame strictly; raise :class:`msgspec.ValidationError` (or
    ``DecodeError``) if it is not exactly one of :data:`Frame`. For tests and clients
    that want to be sure."""
    frame: OutFrame = _strict.decode(text)
    return frame


def json_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of every message both ways: ``inbound`` (client to
    server) and ``outbound`` (server to client), sharing ``$defs``."""
    (inbound, outbound), defs = msgspec.json.schema_components(
        (Message, Frame), ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "umpire wire protocol",
        "inbound": inbound,
        "outbound": outbound,
        "$defs": defs,
    }
