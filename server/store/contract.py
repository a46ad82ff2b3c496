"""The knowledge base: players, games and their event logs, behind a small interface.

:class:`Store` is what the rest of the server uses: the store contract, its rows and
:func:`open_store`. ``server.store.sqlite`` implements it on one SQLite file in WAL mode,
``server.store.pg`` on PostgreSQL; their reads are written once (``server.store.sql``), and
both pass the same contract suite (``tests/server/store_contract.py``; the
guarantees are listed in docs/data.md, "Store contract"). The log is the truth (DESIGN.md,
idea 3): :meth:`Store.append` returns only once an action and its events are committed, so
a room acknowledges and broadcasts only what survives a crash. Concurrent writes from many
rooms are written in one transaction (group commit) by a single writer task on its own
connection; reads use a second connection, so they only ever see committed rows.

Schema (``PRAGMA user_version`` counts the migrations applied)::

    players       id, name, bot, created, kind (guest|account|bot|house), owner (a bot
                  account's owning account), account (the account name's key: NFKC,
                  casefolded; unique; NULL for guests and house bots), password (argon2id
                  hash; accounts only)                                         [migration 5]
    sessions      token_hash (sha256 of a secret token), player_id, kind (session|api),
                  created, last_used (every token a player holds; a guest's first token
                  moved here from players.token_hash by migration 5)           [migration 5]
    games         id (= room id), game, options, settings, host, invite, public, seats,
                  status (waiting|playing|finished|aborted), seed, seed_sha256,
                  seed_revealed, result, reason, created, started, finished,
                  house (seat -> durable house-seat ticket; never exported)  [migration 2]
    game_players  game_id, seat, player_id           (who played: for histories)
    actions       game_id, n, seat, action, at, clocks (every accepted action record,
                  forfeits included: with the seed they rebuild the game)
    events        game_id, seq, source (game|room), action_n, truth
    chat          game_id, n, at, channel (players|spectators), seat, player_id, name,
                  text (a room's chat lines, stored with its game)            [migration 4]
    player_stats  player_id, game, key, value        (public statistics, summed)
    ratings       player_id, version, game, rules, pool (human|bot), rating, deviation,
                  volatility, games, updated   (each rated player's current rating)
                                                                               [migration 5]
    rating_changes n (global order of application), game_id, seat, player_id, version,
                  game, rules, pool, before and after (rating, deviation, volatility,
                  games), at; unique (game_id, seat)                           [migration 5]
    games.rated   JSON or NULL: how a rated game is rated (server.ratings.plan) [migration 5]
    seeks         id, player_id, game, options, rated, seats, clock ([base, increment] or
                  NULL), rating, rating_range ([lo, hi] or NULL), fill_after, created,
                  pool (server.matchmaking.seeks.pool_key), ladder, max_concurrent,
                  status (open|matched|cancelled), room (once matched), updated
                  (docs/matchmaking.md)               [migration 6; PostgreSQL's 4]
    tournaments   id, status, state (server.tournaments.core.State as JSON, without its
                  first ``archived`` games), version (compare and set), created,
                  updated                                       [SQLite 7, PostgreSQL 5]
    tournament_games  tournament, seq, game (JSON): a tournament's games once over,
                  append-only (server.tournaments.director.load_state)  [same migration]
    actions.decided_by, actions/events/chat pos and hash, games chained, final_hash,
                  signature, key_id: the tamper-evident log (server.store.chain): each
                  log row's place in its game's one order and its link (sha256 of the
                  link before and of the row's canonical encoding, hex); the end's link
                  is ``final_hash``, signed (Ed25519) by the key ``key_id``. Games logged
                  before are ``chained = 0`` ("unchained"); ``decided_by`` (who decided
                  an action: DECIDERS) is NULL for their actions  [SQLite 8, PostgreSQL 6]
    signing_keys  id, public (Ed25519, raw, hex), created: every key the server has
                  signed with, so games signed before a rotation still verify; the
                  private key is never in the database        [same migration]

Migration 5 (PostgreSQL's migration 3: its numbering started anew) moves every
``players.token_hash`` into ``sessions`` as a ``session`` token (created and last used
when the player was created); SQLite rebuilds ``players`` for it, as it cannot drop a
UNIQUE column. Players whose ids are ``bot-...`` and who are bots become ``house``,
every other player a ``guest``. A house bot has no account key: its name (an ASCII
kind) lower-cased is its key (:meth:`Store.player_by_name`, and a claim of that key is
refused with ``NameTaken``).

Indexes: ``ratings_board (game, rules, pool, rating DESC, games, player_id, version)`` is
the leaderboard's order itself (the top 100 reads 100 index entries, no sort:
benchmarks/leaderboard.py); ``rating_changes_key (player_id, game, rules, version, n)``
serves a rating history; ``sessions_player (player_id, kind)`` "log out everywhere";
``players_owner`` an account's bot accounts.

Rating a game (:meth:`Store.finish_game` with a :class:`RatingPlan`) happens in the
finish's own transaction: the game's stored changes are looked for first and, if there
are any, returned instead of rating again (and ``rating_changes`` is unique by
``(game_id, seat)`` as a last guard). SQLite's single writer makes that transaction the
only one. On PostgreSQL, where several nodes write, the transaction first locks the
rating row of every key its group commit rates, in sorted order (inserting a placeholder
row of 0 games where there is none, deleted again if unused: a row must exist to be
locked), and only then looks for the game's changes, so two games sharing a player are
rated one after the other, never from the same "before", and never deadlock.
``rating_changes.n`` numbers the changes in the order they were applied (SQLite: the
largest plus one; PostgreSQL: an identity column, drawn after the locks, so changes of
one key are numbered in their order); a game's changes are numbered in seat order.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from server.errors import NameTaken, StoreError

#: What a player is: a ``guest`` (a name and a token, nothing more), an ``account`` (a
#: name claimed with a password), a ``bot`` account (made by an account, with API tokens)
#: or a ``house`` bot (the server's own, ``bot-<kind>``).
PLAYER_KINDS = ("guest", "account", "bot", "house")
#: What a token is: a login ``session`` (expires when idle) or a bot account's ``api``
#: token (kept until revoked).
SESSION_KINDS = ("session", "api")
#: Rating pools: humans and bots are ranked apart.
POOLS = ("human", "bot")
#: who decided an action (``ActionRow.by``, docs/data.md): the seat's own player (a person,
#: or a bot connected for itself), the room's house bot sitting there, the server's
#: stand-in playing for a player gone past the grace period, or the clock (a forfeit)
DECIDERS = ("player", "house", "standin", "timeout")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as stored: the public part (tokens and passwords are kept apart, hashed)."""

    id: str
    name: str
    bot: bool
    created: float
    kind: str = "guest"  # one of PLAYER_KINDS
    owner: str | None = None  # a bot account's owner (an account's id)


@dataclass(frozen=True, slots=True)
class SessionRow:
    """One token of a player, stored as its hash."""

    token_hash: str
    player: str
    kind: str  # one of SESSION_KINDS
    created: float
    last_used: float


@dataclass(frozen=True, slots=True)
class Credentials:
    """An account (or bot account) found by its name's key, with its password hash
    (empty for a bot account: bots log in with API tokens only)."""

    player: PlayerRow
    password_hash: str


@dataclass(frozen=True, slots=True)
class RatingKey:
    """What one rating belongs to: a player, its version (a bot's ``bot_version``; empty
    for humans), a game and its rule set (``server.ratings.rules``)."""

    player: str
    version: str
    game: str
    rules: str


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating as the rating system keeps it: Glicko-2's rating, RD and volatility, or
    OpenSkill's mu and sigma (``volatility`` None), and how many rated games it counts."""

    rating: float
    deviation: float
    volatility: float | None
    games: int


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's current rating under one key."""

    key: RatingKey
    pool: str  # one of POOLS
    rating: Rating
    updated: float


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one rated game did to one seat's rating. ``n`` orders every change the store
    ever applied (0 until stored)."""

    game_id: str
    seat: int
    key: RatingKey
    pool: str
    before: Rating
    after: Rating
    at: float
    n: int = 0


#: Glicko-2's rating of a player never rated (the default :attr:`RatingPlan.initial`)
NEW_GLICKO2 = Rating(1500.0, 350.0, 0.06, 0)


@dataclass(frozen=True, slots=True)
class RatingPlan:
    """How :meth:`Store.finish_game` rates a game, inside the finish's own transaction.

    ``seats[i]`` is seat ``i``'s key and pool (every seat of a rated game is rated).
    ``rate`` (pure, deterministic) maps the seats' current ratings, read in that
    transaction (None: a first rated game), to their new ones. Applying it there, and only
    if the game has no rating change stored yet, is what makes a rating change happen
    exactly once: with the game's end, never without it, never twice."""

    seats: tuple[tuple[RatingKey, str], ...]
    rate: Callable[[Sequence[Rating | None]], Sequence[Rating]]
    #: the rating a player's first rated game starts from (games 0): stored as that
    #: change's ``before``. Glicko-2's new rating unless the plan says otherwise
    #: (OpenSkill's is 1500/500 with no volatility).
    initial: Rating = field(default_factory=lambda: NEW_GLICKO2)


@dataclass(slots=True)
class GameRow:
    """One room and its game, as stored in ``games``."""

    id: str
    game: str
    options: dict[str, Any]
    settings: dict[str, Any]
    host: str | None
    invite: str | None
    public: bool
    seats: list[str | None]
    status: str
    seed: bytes
    seed_sha256: str
    created: float
    seed_revealed: bool = False
    result: dict[str, Any] | None = None
    reason: str | None = None
    started: float | None = None
    finished: float | None = None
    #: seat index (as text) -> the durable ticket its house bot logs in with. A secret of
    #: the server: never exported, never sent to a client.
    house: dict[str, str] = field(default_factory=dict)
    #: how the game is rated (server.ratings.plan: rules, each seat's version and pool),
    #: fixed when it starts; None: a casual game
    rated: dict[str, Any] | None = None
    #: its log rows form a hash chain (server.store.chain); False: logged before the
    #: chain existed (SQLite migration 8, PostgreSQL 6), "unchained" to ``umpire verify``
    chained: bool = True
    #: the chain's last link, its end's hash (hex), once the game is over
    final_hash: str | None = None
    #: the server's Ed25519 signature of ``final_hash`` (hex) and the id of its key
    #: (``signing_keys``; server.store.chain)
    signature: str | None = None
    key_id: str | None = None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One accepted action record: the ``n``-th of its game (from 1)."""

    n: int
    seat: int
    action: str
    at: float
    clocks: list[float] | None = None
    #: who decided it (one of DECIDERS: the seat's player, its house bot, the stand-in
    #: after the grace period, a timeout's forfeit); None: logged before migration 8
    by: str | None = "player"
    #: its place in the game's hash chain and its link (server.store.chain); None: unchained
    pos: int | None = None
    hash: str | None = None


@dataclass(frozen=True, slots=True)
class EventRow:
    """One logged event: its sequence number, source (``game``/``room``) and truth."""

    seq: int
    source: str
    truth: dict[str, Any]
    action_n: int | None = None
    #: its place in the game's hash chain and its link (server.store.chain); None: unchained
    pos: int | None = None
    hash: str | None = None


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One chat line of a room: the ``n``-th (from 1), who said what, to which channel."""

    n: int
    at: float
    channel: str  # players | spectators
    seat: int | None
    player: str
    name: str
    text: str
    #: its place in the game's hash chain and its link (server.store.chain); None: unchained
    pos: int | None = None
    hash: str | None = None


@dataclass(frozen=True, slots=True)
class SeekRow:
    """A seek as stored (server.matchmaking.seeks.Seek, with its status and room)."""

    id: str
    player: str
    game: str
    options: dict[str, Any]
    rated: bool
    seats: int
    created: float
    pool: str
    clock: tuple[float, float] | None = None
    rating: float | None = None
    range: tuple[float, float] | None = None
    fill_after: float | None = None
    ladder: bool = False
    max_concurrent: int = 1
    status: str = "open"  # open | matched | cancelled
    room: str | None = None
    updated: float = 0.0


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A hosted tournament as stored: its whole state (server.tournaments.core.State)
    as JSON, with its status and a version counting its writes."""

    id: str
    status: str
    state: str
    version: int
    created: float
    updated: float


class Store(ABC):
    """What the server needs from its database (the store contract).

    Every implementation guarantees (and ``tests/server/store_contract.py`` checks):

    - a write returns only once committed: a second store opened on the same database
      sees it at once, and it survives a crash of the process;
    - a read never sees uncommitted rows (not even those of a transaction in progress);
    - a failed write raises :class:`StoreError` and leaves nothing of itself behind,
      without failing unrelated writes that happened to share its transaction;
    - :meth:`finish_game` is all or nothing, and rates a game (with a plan) at most
      once however often it is called, by however many stores on one database;
    - rows come back as they were written (``events`` by ``seq``, ``actions`` by ``n``,
      games in ``(created, id)`` order).
    """

    #: several server processes may share this store's database (PostgreSQL): the
    #: server then runs as a node of a cluster (server.cluster.nodes)
    shared: bool = False
    #: called with (seconds, writes) after each group commit, by stores that group
    #: their commits (server.ops.metrics sets it for its metrics)
    on_commit: Callable[[float, int], None] | None = None
    #: for fault-injection tests only (the contract suite's ``hold_commits`` and
    #: ``fail_commits``): awaited inside every write transaction just before its COMMIT;
    #: raising from it rolls the transaction back
    before_commit: Callable[[], Awaitable[None]] | None = None
    #: writes that failed (a full disk, an I/O error, a bug; never a refusal such as
    #: :class:`~server.errors.NameTaken`), and whether the newest write failed: true from
    #: a failed write until the next commit succeeds (``/healthz`` reads it)
    write_failures: int = 0
    failing: bool = False

    def _committed(self, seconds: float, writes: int) -> None:
        """A group commit of ``writes`` writes took ``seconds``: tell :attr:`on_commit`."""
        self.failing = False
        if self.on_commit is not None:
            self.on_commit(seconds, writes)

    def _write_failed(self, exc: BaseException) -> bool:
        """A write failed with ``exc``: count it (a refusal such as ``NameTaken`` is an
        answer, not a failure); return whether it is the first failure since the last
        commit that succeeded (the one a store logs as a warning: a paused room retries
        its write every few seconds while the disk stays full)."""
        if isinstance(exc, NameTaken):
            return False
        first = not self.failing
        self.write_failures += 1
        self.failing = True
        return first

    async def check_writable(self) -> None:
        """Raise :class:`StoreError` (one line naming the database and what to do) if the
        store cannot be written now; ``umpire serve`` calls it once at its start, so a
        read-only database is refused rather than served. Default: nothing to check."""
        return None

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date."""

    @abstractmethod
    async def close(self) -> None:
        """Finish pending writes and disconnect; idempotent."""

    @abstractmethod
    async def add_player(self, player: PlayerRow, token_hash: str) -> None:
        """Store a new player (an id or token hash already used raises StoreError)."""

    @abstractmethod
    async def player(self, player_id: str) -> PlayerRow | None:
        """The player with this id."""

    @abstractmethod
    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        """The player whose token hashes to ``token_hash``."""

    @abstractmethod
    async def rename_player(self, player_id: str, name: str) -> None:
        """Change a player's display name."""

    @abstractmethod
    async def set_token(self, player_id: str, token_hash: str) -> None:
        """Replace a player's token hash (the server's own house bots, at start-up)."""

    # -- accounts and sessions (server.players) ----------------------------------------

    @abstractmethod
    async def session(self, token_hash: str) -> SessionRow | None:
        """The session (or API token) whose token hashes to ``token_hash``."""

    @abstractmethod
    async def add_session(self, session: SessionRow) -> None:
        """Store a new token of a player (a hash already used raises StoreError)."""

    @abstractmethod
    async def touch_session(self, token_hash: str, at: float) -> None:
        """Mark a session used at ``at`` (its idle time starts again)."""

    @abstractmethod
    async def drop_sessions(
        self, player_id: str, *, kinds: Sequence[str] = ("session",), keep: str | None = None
    ) -> int:
        """Revoke a player's tokens of these kinds, all but the one hashing to ``keep``;
        return how many were revoked. ``drop_session`` revokes one."""

    @abstractmethod
    async def drop_session(self, token_hash: str) -> None:
        """Revoke one token (unknown: nothing happens)."""

    @abstractmethod
    async def credentials(self, account: str) -> Credentials | None:
        """The account or bot account whose name's key is ``account``."""

    @abstractmethod
    async def claim(self, player_id: str, name: str, account: str, password_hash: str) -> None:
        """Make guest ``player_id`` an account: named ``name`` (key ``account``) with this
        password. A key already taken raises :class:`~server.errors.NameTaken`."""

    @abstractmethod
    async def set_password(self, player_id: str, password_hash: str) -> None:
        """Change an account's password hash."""

    @abstractmethod
    async def add_bot_account(self, player: PlayerRow, account: str, token_hash: str) -> None:
        """Store a bot account (``player.kind == "bot"``, ``player.owner`` set) named by
        key ``account``, with its first API token. A key already taken raises
        :class:`~server.errors.NameTaken`."""

    @abstractmethod
    async def bot_accounts(self, owner: str) -> list[PlayerRow]:
        """The bot accounts an account made, oldest first."""

    # -- games ----------------------------------------------------------------------------

    @abstractmethod
    async def save_game(self, game: GameRow, events: Sequence[EventRow] = ()) -> None:
        """Insert or replace a room's row (lobby changes, start, end), with any events
        that must be logged in the same transaction (the opening events, an abort)."""

    @abstractmethod
    async def append(
        self, game_id: str, events: Sequence[EventRow], action: ActionRow | None = None
    ) -> None:
        """Log an accepted action (if any) and the events it caused, durably.

        An event ``seq`` or action ``n`` already logged for the game raises StoreError."""

    @abstractmethod
    async def finish_game(
        self,
        row: GameRow,
        events: Sequence[EventRow],
        stats: Mapping[str, Mapping[str, float]],
        plan: RatingPlan | None = None,
    ) -> list[RatingChange]:
        """Record a game's end in one transaction, all or nothing: store ``row`` as given
        (status, result, reason, revealed seed, finish time), log ``events`` (the last
        ones, if any) and add ``stats`` (player id -> key -> amount) under ``row.game``.

        With a ``plan``, rate the game in the same transaction (see :class:`RatingPlan`)
        and return its rating changes; a game already rated is not rated again (its
        stored changes are returned). Without one, return ``[]``."""

    @abstractmethod
    async def discard_unfinished_game(self, game_id: str) -> bool:
        """Delete game ``game_id`` whole (its row, seats, actions, events and chat) in one
        transaction if it is ``waiting`` or ``playing``; return whether it did. A
        finished or aborted game is never touched.

        For a game written elsewhere and stored all at once (self-play,
        server.store.selfplay_log) whose writer died half-way: nothing refers to a game
        that never finished, and writing it again from its start needs its id free."""

    @abstractmethod
    async def add_stats(self, game: str, stats: Mapping[str, Mapping[str, float]]) -> None:
        """Add per-player public statistics (player id -> key -> amount)."""

    @abstractmethod
    async def add_chat(self, game_id: str, line: ChatRow) -> None:
        """Store one chat line of a room (its number ``n`` is new for the room)."""

    @abstractmethod
    async def chat(self, game_id: str) -> list[ChatRow]:
        """A room's chat lines in order."""

    @abstractmethod
    async def game(self, game_id: str) -> GameRow | None:
        """The room or game with this id, as last committed."""

    @abstractmethod
    async def game_by_invite(self, invite: str) -> str | None:
        """The id of the game whose invite code is ``invite``, or ``None``."""

    @abstractmethod
    def iter_games(
        self,
        statuses: Iterable[str] | None = None,
        *,
        game: str | None = None,
        created_after: float | None = None,
    ) -> AsyncIterator[GameRow]:
        """Every game (of these statuses, of this game, created at or after
        ``created_after``), oldest first by ``(created, id)``.

        Streams: rows are fetched a page at a time, so memory stays bounded however many
        games the store holds. Use ``async for row in store.iter_games(...)``."""

    async def games(self, statuses: Iterable[str]) -> list[GameRow]:
        """Every room whose status is one of ``statuses``, as a list (used to recover
        after a crash, where the rooms are few; prefer :meth:`iter_games` elsewhere)."""
        return [row async for row in self.iter_games(statuses)]

    @abstractmethod
    async def actions(self, game_id: str) -> list[ActionRow]:
        """A game's action records in order."""

    @abstractmethod
    async def events(self, game_id: str) -> list[EventRow]:
        """A game's logged events in sequence order."""

    # -- ratings (server.ratings) ---------------------------------------------------------

    @abstractmethod
    async def rating_changes(self, game_id: str) -> list[RatingChange]:
        """A rated game's rating changes by seat (none: casual, or not finished)."""

    @abstractmethod
    async def ratings(self, player_id: str) -> list[RatingRow]:
        """A player's current ratings (every game, rule set and version)."""

    @abstractmethod
    async def rating_history(self, key: RatingKey, limit: int = 500) -> list[RatingChange]:
        """The latest ``limit`` rating changes under ``key``, oldest first (a chart)."""

    @abstractmethod
    async def leaderboard(
        self, game: str, rules: str, pool: str, *, min_games: int, limit: int = 100
    ) -> list[tuple[PlayerRow, RatingRow]]:
        """The best ``limit`` ratings of a pool with at least ``min_games`` games, best
        first (by rating, then fewest games... then player id: a total order)."""

    @abstractmethod
    def iter_rated_games(self) -> AsyncIterator[GameRow]:
        """Every rated game, in the order its rating changes were applied (``n``)."""

    @abstractmethod
    async def replace_ratings(self, changes: Sequence[RatingChange]) -> None:
        """(``umpire ratings rebuild``) Replace every rating and rating change, in one
        transaction, by ``changes`` (in order of application); the current ratings become
        each key's last ``after``."""

    @abstractmethod
    async def player_by_name(self, account: str) -> PlayerRow | None:
        """The account, bot account or house bot whose name's key is ``account``."""

    @abstractmethod
    async def history(self, player_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """A player's games, newest first: id, game, status, seat, result, reason, times."""

    @abstractmethod
    async def stats(self, player_id: str) -> dict[str, dict[str, float]]:
        """A player's public statistics: game -> key -> value."""

    # -- seeks (server.matchmaking; docs/matchmaking.md) ----------------------------------

    @abstractmethod
    async def add_seek(self, seek: SeekRow) -> None:
        """Store a new seek (an id already used raises StoreError)."""

    @abstractmethod
    async def seeks(
        self, status: str = "open", *, game: str | None = None, player: str | None = None
    ) -> list[SeekRow]:
        """The seeks in ``status`` (of ``game``, of ``player``), oldest first."""

    @abstractmethod
    async def seek(self, seek_id: str) -> SeekRow | None:
        """One seek, whatever its status, or ``None``."""

    @abstractmethod
    async def seeks_of_room(self, room: str) -> list[SeekRow]:
        """The seeks matched into ``room``."""

    @abstractmethod
    async def claim_seeks(self, seek_ids: Sequence[str], room: str, at: float) -> bool:
        """Mark every seek of ``seek_ids`` matched into ``room``, all or none: only if
        each is still open. True if claimed. Two stores on one database (two nodes)
        never both claim a seek."""

    @abstractmethod
    async def cancel_seeks(
        self, seek_ids: Sequence[str], at: float, *, player: str | None = None
    ) -> list[str]:
        """Cancel those of ``seek_ids`` that are open (and ``player``'s, if given);
        return the ids cancelled."""

    @abstractmethod
    async def orphan_seek_rooms(self, before: float, since: float | None = None) -> list[str]:
        """The rooms that seeks were matched into (claimed) before ``before`` (and at or
        after ``since``) that have no games row: their node died between the claim and
        the room. One query, whatever the number of seeks ever matched."""

    @abstractmethod
    async def seeks_changed(self, since: float) -> list[SeekRow]:
        """The seeks (not the ladder's) whose status changed (made, matched, cancelled,
        reopened) at or after ``since``, oldest first: how a cluster's node follows the
        others' seeks without reading every open seek on every poll."""

    @abstractmethod
    async def reopen_seeks(self, room: str, at: float) -> list[str]:
        """Open again the seeks matched into ``room`` (whose room was never made: its
        node died between the claim and the room); return their ids."""

    # -- tournaments ----------------------------------------------------------------------

    @abstractmethod
    async def save_tournament(
        self, row: TournamentRow, expect: int | None, games: Sequence[tuple[int, str]] = ()
    ) -> bool:
        """Store a tournament's state as ``row`` (whose ``version`` is ``expect + 1``), and
        in the same transaction append ``games`` (``(seq, game JSON)``, games over, an
        append-only table: a seq already stored is left as it is).

        ``expect`` None inserts a new tournament; otherwise the row is replaced only if
        its stored version is ``expect`` (compare and set: two nodes never both advance
        one tournament). Return whether the row was written (nothing is, else)."""

    @abstractmethod
    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        """One tournament."""

    @abstractmethod
    async def tournaments(
        self, statuses: Iterable[str] = (), limit: int = 200
    ) -> list[TournamentRow]:
        """Tournaments (all, or those in ``statuses``), newest first."""

    @abstractmethod
    async def tournament_games(self, tournament_id: str) -> list[str]:
        """A tournament's stored games (JSON), in ``seq`` order."""

    # -- signing keys (server.store.chain) -------------------------------------------------

    @abstractmethod
    async def add_signing_key(self, key_id: str, public: str, created: float) -> None:
        """Keep a public signing key (hex) under its id; an id already kept is left as it
        is (every node of a cluster adds the cluster's key on start)."""

    @abstractmethod
    async def signing_keys(self) -> dict[str, str]:
        """Every public signing key ever kept: id -> public key (hex)."""


#: the columns of ``games``, in the order :func:`game_from_row` reads them
GAME_COLUMNS = (
    "id, game, options, settings, host, invite, public, seats, status, seed, seed_sha256, "
    "seed_revealed, result, reason, created, started, finished, house, rated, chained, "
    "final_hash, signature, key_id"
)

_ENCODER = msgspec.json.Encoder()


def dumps(value: Any) -> str:
    """Compact JSON (msgspec: several times faster than json.dumps on the hot path)."""
    return _ENCODER.encode(value).decode()


def game_from_row(r: Sequence[Any]) -> GameRow:
    """A ``games`` row (columns in :data:`GAME_COLUMNS` order) as a :class:`GameRow`."""
    return GameRow(
        id=r[0],
        game=r[1],
        options=json.loads(r[2]),
        settings=json.loads(r[3]),
        host=r[4],
        invite=r[5],
        public=bool(r[6]),
        seats=json.loads(r[7]),
        status=r[8],
        seed=bytes(r[9]),
        seed_sha256=r[10],
        seed_revealed=bool(r[11]),
        result=None if r[12] is None else json.loads(r[12]),
        reason=r[13],
        created=r[14],
        started=r[15],
        finished=r[16],
        house=json.loads(r[17]),
        rated=None if r[18] is None else json.loads(r[18]),
        chained=bool(r[19]),
        final_hash=r[20],
        signature=r[21],
        key_id=r[22],
    )


def game_values(game: GameRow) -> tuple[Any, ...]:
    """The values of ``game``'s ``games`` row, in :data:`GAME_COLUMNS` order (the inverse
    of :func:`game_from_row`; flags as ``bool``, which SQLite stores as 0 or 1)."""
    return (
        game.id,
        game.game,
        dumps(game.options),
        dumps(game.settings),
        game.host,
        game.invite,
        game.public,
        dumps(game.seats),
        game.status,
        game.seed,
        game.seed_sha256,
        game.seed_revealed,
        None if game.result is None else dumps(game.result),
        game.reason,
        game.created,
        game.started,
        game.finished,
        dumps(game.house),
        None if game.rated is None else dumps(game.rated),
        game.chained,
        game.final_hash,
        game.signature,
        game.key_id,
    )


def seat_rows(game: GameRow) -> list[tuple[Any, ...]]:
    """``game_players`` rows (game, seat, player) of a game that has started (none while
    it waits: a waiting room's seats are not yet a history)."""
    if game.status == "waiting":
        return []
    return [(game.id, seat, player) for seat, player in enumerate(game.seats) if player is not None]


#: the columns of ``events`` that :func:`event_values` fills, in its order
EVENT_COLUMNS = "game_id, seq, source, action_n, truth, pos, hash"
#: the columns of ``actions`` that :func:`action_values` fills, in its order (``by`` is a
#: keyword of SQL: its column is ``decided_by``)
ACTION_COLUMNS = "game_id, n, seat, action, at, clocks, decided_by, pos, hash"
#: the columns of ``chat`` that :func:`chat_values` fills, in its order
CHAT_COLUMNS = "game_id, n, at, channel, seat, player_id, name, text, pos, hash"


def event_values(game_id: str, event: EventRow) -> tuple[Any, ...]:
    """An ``events`` row (:data:`EVENT_COLUMNS`)."""
    truth = dumps(event.truth)
    return (game_id, event.seq, event.source, event.action_n, truth, event.pos, event.hash)


def action_values(game_id: str, action: ActionRow) -> tuple[Any, ...]:
    """An ``actions`` row (:data:`ACTION_COLUMNS`)."""
    clocks = None if action.clocks is None else dumps(action.clocks)
    return (
        game_id,
        action.n,
        action.seat,
        action.action,
        action.at,
        clocks,
        action.by,
        action.pos,
        action.hash,
    )


def chat_values(game_id: str, line: ChatRow) -> tuple[Any, ...]:
    """A ``chat`` row (:data:`CHAT_COLUMNS`)."""
    return (
        game_id,
        line.n,
        line.at,
        line.channel,
        line.seat,
        line.player,
        line.name,
        line.text,
        line.pos,
        line.hash,
    )


def stat_rows(game: str, stats: Mapping[str, Mapping[str, float]]) -> list[tuple[Any, ...]]:
    """``player_stats`` rows (player, game, key, value) to add for one finished game."""
    return [
        (player, game, key, float(value))
        for player, values in stats.items()
        for key, value in values.items()
    ]


#: the columns of ``seeks``, in the order :func:`seek_from_row` reads them
SEEK_COLUMNS = (
    "id, player_id, game, options, rated, seats, created, pool, clock, rating, "
    "rating_range, fill_after, ladder, max_concurrent, status, room, updated"
)


def _pair(value: Any) -> tuple[float, float] | None:
    if value is None:
        return None
    low, high = json.loads(value)
    return (float(low), float(high))


def seek_from_row(r: Sequence[Any]) -> SeekRow:
    """A ``seeks`` row (columns in :data:`SEEK_COLUMNS` order) as a :class:`SeekRow`."""
    return SeekRow(
        id=r[0],
        player=r[1],
        game=r[2],
        options=json.loads(r[3]),
        rated=bool(r[4]),
        seats=int(r[5]),
        created=r[6],
        pool=r[7],
        clock=_pair(r[8]),
        rating=r[9],
        range=_pair(r[10]),
        fill_after=r[11],
        ladder=bool(r[12]),
        max_concurrent=int(r[13]),
        status=r[14],
        room=r[15],
        updated=r[16],
    )


def seek_values(seek: SeekRow) -> tuple[Any, ...]:
    """The values of ``seek``'s row, in :data:`SEEK_COLUMNS` order."""
    return (
        seek.id,
        seek.player,
        seek.game,
        dumps(seek.options),
        seek.rated,
        seek.seats,
        seek.created,
        seek.pool,
        None if seek.clock is None else dumps(list(seek.clock)),
        seek.rating,
        None if seek.range is None else dumps(list(seek.range)),
        seek.fill_after,
        seek.ladder,
        seek.max_concurrent,
        seek.status,
        seek.room,
        seek.updated,
    )


def open_store(location: str, *, synchronous: str = "FULL", read_only: bool = False) -> Store:
    """The store for ``location`` (not yet opened): a ``postgresql://`` URL opens the
    PostgreSQL store (``server.store.pg``, needs the ``postgres`` extra), anything else
    names a SQLite file. ``read_only``: a store that only reads (never migrates, refuses
    an older schema and every write), for the commands that only read.

    The one place that maps a ``--db`` argument to an implementation.
    """
    if location.startswith(("postgresql://", "postgres://")):
        try:
            from server.store.pg import PgStore
        except ImportError as exc:  # asyncpg is the optional extra "postgres"
            raise StoreError(
                f"a PostgreSQL store needs asyncpg: the postgres extra of umpire-games "
                f"(pip install -e '.[postgres]' in its source folder) ({exc})"
            ) from None
        return PgStore(location, read_only=read_only)
    if "://" in location:
        raise StoreError(
            f"no store implementation for {location!r}: give a SQLite file path "
            "or a postgresql:// URL"
        )
    from server.store.sqlite import SqliteStore

    return SqliteStore(location, synchronous=synchronous, read_only=read_only)
