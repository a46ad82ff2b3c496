"""Who a connection is: guests, accounts, bot accounts and house bots, and their tokens.

Kinds of player (``server.store.contract.PLAYER_KINDS``):

- ``guest``: a display name and a token, nothing more. ``hello`` without a token makes
  one; ``hello`` with its token reclaims it (and so its seats) from any connection.
- ``account``: a name claimed with a password (``register`` turns the guest on the
  connection into an account: same id, so its games are the account's). ``login`` from
  any device gives a new session token; a session idle for ``session_idle`` seconds (30
  days) expires.
- ``bot``: a bot account, made by an account (``create_bot``), which connects with an API
  token (``hello`` with it) that never expires and is revoked by making a new one. A bot
  says the version it plays as in ``hello`` (``bot_version``): its ratings are kept per
  version.
- ``house``: the server's own bots, ``bot-<kind>``, recognised by the house header.

Every token is 32 random bytes (:func:`server.ids.opaque`) stored only as its SHA-256 (no
stretching is needed for a random secret); passwords are hashed with argon2id
(:mod:`server.players.passwords`). Names: account and bot account names are unique by
their key (:func:`server.players.accounts.account_key`); a guest may not take a name whose
key an account, a bot account or a house bot holds (``name_taken``).

Security of ``login`` (docs/accounts.md): attempts are rate-limited per address and per
account key (:mod:`server.players.throttle`) before anything is looked up; a wrong name
and a wrong password give the same ``bad_login`` after the same work (an unknown name is
verified against a dummy hash).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from server.errors import ClientError, LeaseLost, NameTaken, StoreError
from server.ids import opaque
from server.players.accounts import (
    MAX_BOTS,
    account_key,
    check_password,
    usable_password,
)
from server.players.passwords import Passwords
from server.players.throttle import LoginThrottle
from server.store.contract import PlayerRow, SessionRow, Store
from server.wire.frames import PlayerInfo

log = logging.getLogger(__name__)

MAX_NAME = 32
#: a login session expires after this many idle days by default (``--session-idle-days``)
SESSION_IDLE_DAYS = 30.0
#: a session's ``last_used`` is written at most this often (seconds)
TOUCH_EVERY = 3600.0
#: players kept in memory (:class:`Identities`' cache; more are read from the store): well
#: above the connections a node holds, so that a connected player is almost always a hit
CACHE_SIZE = 20_000


@dataclass(frozen=True, slots=True)
class Player:
    """Who is on the other end of a connection (or sits in a seat as a house bot)."""

    id: str
    name: str
    bot: bool
    kind: str = "guest"  # server.store.contract.PLAYER_KINDS
    #: the version a bot said in ``hello`` (its ratings are kept per version); "" else
    version: str = ""
    #: a bot account's owner (an account's id): never rated against it
    owner: str | None = None

    def info(self) -> PlayerInfo:
        """The public part, as frames show it."""
        return PlayerInfo(self.id, self.name, self.bot, self.kind)


@dataclass(frozen=True, slots=True)
class Signed:
    """A connection's identity once it said ``hello`` or logged in: the player, the token
    it holds (shown to the client only when new), that token's hash and kind (``session``
    or ``api``; empty for a house bot, which has no token)."""

    player: Player
    token: str
    token_hash: str = ""
    kind: str = ""


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    """The display name, trimmed; raise ``ClientError("bad_name")`` if unusable."""
    name = " ".join(name.split())
    if not name:
        raise ClientError("bad_name", "the display name is empty")
    if len(name) > MAX_NAME:
        raise ClientError("bad_name", f"the display name is longer than {MAX_NAME} characters")
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise ClientError("bad_name", "the display name contains control characters")
    return name


def player_of(row: PlayerRow, version: str = "") -> Player:
    """The player a stored row describes (``version`` only for a bot)."""
    return Player(row.id, row.name, row.bot, row.kind, version if row.bot else "", row.owner)


def house_id(kind: str) -> str:
    """The player id of the house bot of ``kind`` (``bot-<kind>``), made on first use."""
    return "bot-" + kind


BAD_LOGIN = "wrong name or password"
#: how a refusal names a kind of player
KIND_TEXT = {
    "guest": "a guest",
    "account": "an account",
    "bot": "a bot account",
    "house": "a house bot",
}


class Identities:
    """Creates, authenticates and changes players; caches them by id.

    ``reserved(key)`` says whether an account name's key is reserved (the house bots'
    names: set by the server from its catalog). ``clock`` is the wall clock (sessions'
    idle time); tests replace it, and ``passwords`` and ``throttle`` with cheap or fake
    ones."""

    def __init__(
        self,
        store: Store,
        *,
        passwords: Passwords | None = None,
        throttle: LoginThrottle | None = None,
        session_idle: float = SESSION_IDLE_DAYS * 86400,
        clock: Callable[[], float] = time.time,
        reserved: Callable[[str], bool] = lambda key: False,
    ) -> None:
        self.store = store
        self.passwords = passwords or Passwords()
        self.throttle = throttle or LoginThrottle()
        self.session_idle = session_idle
        self.clock = clock
        self.reserved = reserved
        #: the players met lately, by id, least recently used first: a cache of the store
        #: (a miss reads it), bounded so that a long-running server that meets a stream of
        #: new players (guests, throwaway identities) does not keep every one in memory
        self._cache: OrderedDict[str, Player] = OrderedDict()
        self.cache_size = CACHE_SIZE
        self._house_lock = asyncio.Lock()  # two first uses of a kind make one row
        self._bots_lock = asyncio.Lock()  # counts an account's bots and adds one at once

    def _remember(self, player: Player) -> Player:
        self._cache[player.id] = dataclasses.replace(player, version="")
        self._cache.move_to_end(player.id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return player

    @property
    def cached(self) -> int:
        """How many players the cache holds now (at most :attr:`cache_size`)."""
        return len(self._cache)

    def _cached(self, player_id: str) -> Player | None:
        cached = self._cache.get(player_id)
        if cached is not None:
            self._cache.move_to_end(player_id)
        return cached

    async def _taken(self, name: str, me: str | None = None, *, guest: bool = False) -> bool:
        """Whether ``name``'s key is held by another player than ``me``: for an account's
        or bot account's name, by any account, bot account or house bot, or reserved (the
        house bots' names); for a guest's, by an account or a bot account (guests' names
        are not unique, and a program may play as a guest under a house bot's name)."""
        key = account_key(name)
        if not guest and self.reserved(key):
            return True
        holder = await self.store.player_by_name(key)
        if holder is None or holder.id == me:
            return False
        return not guest or holder.kind in ("account", "bot")

    # -- hello ----------------------------------------------------------------------------

    async def hello(
        self, name: str | None, token: str | None, bot: bool, version: str = ""
    ) -> Signed:
        """The player for a ``hello``: a new guest (no token), or the player whose token
        it is (the token is returned as given). A guest's name changes to ``name``; an
        account's or bot account's stored name wins. ``version`` (``bot_version``) is kept
        for bots only."""
        if token is not None:
            return await self._by_token(name, token, version)
        if name is None:
            raise ClientError("bad_name", "hello needs a name (or a token)")
        name = check_name(name)
        if await self._taken(name, guest=True):
            raise ClientError("name_taken", f"the name {name!r} belongs to an account")
        token = opaque(32)
        token_hash = hash_token(token)
        player = Player("p" + secrets.token_hex(6), name, bot, "guest", version if bot else "")
        row = PlayerRow(player.id, name, bot, self.clock())
        await self.store.add_player(row, token_hash)
        return Signed(self._remember(player), token, token_hash, "session")

    async def _by_token(self, name: str | None, token: str, version: str) -> Signed:
        token_hash = hash_token(token)
        session = await self.store.session(token_hash)
        row = None if session is None else await self.store.player(session.player)
        if session is None or row is None:
            raise ClientError("bad_token", "this token does not belong to any player")
        now = self.clock()
        if (
            session.kind == "session"
            and row.kind != "guest"
            and now - session.last_used > self.session_idle
        ):
            await self.store.drop_session(token_hash)
            raise ClientError("bad_token", "this session expired: log in again")
        if now - session.last_used >= TOUCH_EVERY:
            try:
                await self.store.touch_session(token_hash, now)
            except StoreError as exc:  # (a full disk: a returning player still comes back)
                if isinstance(exc, LeaseLost):
                    raise
                log.warning("session of %s: its last use is not stored: %s", row.id, exc)
        if row.kind == "guest" and name is not None:
            name = check_name(name)
            # A guest keeps its stored name even when an account claimed its key since:
            # guests were never unique, and refusing it would lock the guest out of its
            # identity, seats and history. Only a CHANGE to a taken key is refused.
            if name != row.name and await self._taken(name, row.id, guest=True):
                raise ClientError("name_taken", f"the name {name!r} belongs to an account")
            if name != row.name:
                await self.store.rename_player(row.id, name)
                row = dataclasses.replace(row, name=name)
        player = self._remember(player_of(row, version))
        return Signed(player, token, token_hash, session.kind)

    async def house_bot(self, kind: str) -> Player:
        """The durable identity ``bot-<kind>`` of a house bot (one per kind, made on first
        use). House bot connections are recognised by the server's house header and say
        hello as this identity without any token, so no token is ever minted or rotated
        for it: bots of one kind launched together can never invalidate each other."""
        player_id = house_id(kind)
        cached = self._cached(player_id)
        if cached is not None:
            return cached
        async with self._house_lock:
            row = await self.store.player(player_id)
            if row is None:
                row = PlayerRow(player_id, check_name(kind), True, self.clock(), kind="house")
                # Nobody can present this token: it is random and never shown.
                await self.store.add_player(row, hash_token(secrets.token_urlsafe(32)))
        return self._remember(Player(row.id, row.name, True, "house"))

    async def get(self, player_id: str) -> Player | None:
        """The player with this id, or ``None``."""
        cached = self._cached(player_id)
        if cached is not None:
            return cached
        row = await self.store.player(player_id)
        if row is None:
            return None
        return self._remember(player_of(row))

    # -- accounts -------------------------------------------------------------------------

    async def login(self, address: str, name: str, password: str, version: str = "") -> Signed:
        """Log in to an account by name and password from ``address``: a new session.

        Refused with ``rate_limited`` (before any lookup) when the address or the name's
        key has tried too often, and otherwise with ``bad_login`` whatever was wrong (no
        such account, a bot account, a wrong password) after the same work."""
        key = account_key(name)
        self._throttle(address, key, "too many login attempts")
        credentials = await self.store.credentials(key)
        if not usable_password(password):
            # no account can have this password: nothing to hash, whoever the name is
            raise ClientError("bad_login", BAD_LOGIN)
        stored = None
        if credentials is not None and credentials.player.kind == "account":
            stored = credentials.password_hash or None
        if not await self.passwords.verify(stored, password):
            raise ClientError("bad_login", BAD_LOGIN)
        assert credentials is not None and stored is not None
        row = credentials.player
        if self.passwords.needs_rehash(stored):
            await self.store.set_password(row.id, await self.passwords.hash(password))
        token, token_hash = await self._new_token(row.id, "session")
        return Signed(self._remember(player_of(row, version)), token, token_hash, "session")

    def _throttle(self, address: str, key: str | None, what: str) -> None:
        """Take a login attempt's tokens, or refuse it with ``rate_limited`` and the
        seconds until it may pass (``retry_after``)."""
        wait = self.throttle.check(address, key)
        if wait > 0:
            raise ClientError("rate_limited", f"{what}: try again in {wait:g} s", retry_after=wait)

    async def _new_token(self, player_id: str, kind: str) -> tuple[str, str]:
        token = opaque(32)
        token_hash = hash_token(token)
        now = self.clock()
        await self.store.add_session(SessionRow(token_hash, player_id, kind, now, now))
        return token, token_hash

    async def register(
        self, player: Player, address: str, password: str, name: str | None = None
    ) -> Player:
        """Make the guest ``player`` an account named ``name`` (default: its own name)
        with ``password``: same id, so its games, seats and statistics are the account's.
        Its tokens stay valid (as sessions, which now expire when idle)."""
        if player.kind != "guest":
            raise ClientError(
                "bad_state", f"only a guest can register: this is {KIND_TEXT[player.kind]}"
            )
        name = check_name(player.name if name is None else name)
        check_password(password)
        self._throttle(address, None, "too many attempts")
        if await self._taken(name, player.id):
            raise ClientError("name_taken", f"the name {name!r} is taken")
        stored = await self.store.player(player.id)
        if stored is not None and stored.kind != "guest":
            # registered meanwhile on another connection (which rebinds this one too)
            raise ClientError(
                "bad_state", f"only a guest can register: this is {KIND_TEXT[stored.kind]}"
            )
        hashed = await self.passwords.hash(password)
        try:
            await self.store.claim(player.id, name, account_key(name), hashed)
        except NameTaken:
            raise ClientError("name_taken", f"the name {name!r} is taken") from None
        claimed = dataclasses.replace(player, name=name, kind="account")
        return self._remember(claimed)

    async def logout(self, signed: Signed, everywhere: bool) -> int:
        """Revoke the connection's token (a bot's API token is kept: it is revoked only
        by making a new one) or, ``everywhere``, every login session of the player (not
        its bots' API tokens); return how many were revoked."""
        player = signed.player
        if player.kind == "house" or not signed.token_hash:
            raise ClientError("bad_state", "a house bot cannot log out")
        if everywhere:
            return await self.store.drop_sessions(player.id, kinds=("session",))
        if signed.kind != "session":
            return 0
        await self.store.drop_session(signed.token_hash)
        return 1

    async def change_password(self, signed: Signed, address: str, old: str, new: str) -> int:
        """Change an account's password (``old`` must be right); revoke its other login
        sessions and return how many."""
        player = signed.player
        if player.kind != "account":
            raise ClientError("account_required", "only an account has a password")
        key = account_key(player.name)
        check_password(new)
        self._throttle(address, key, "too many attempts")
        credentials = await self.store.credentials(key)
        stored = None if credentials is None else credentials.password_hash or None
        if not usable_password(old) or not await self.passwords.verify(stored, old):
            raise ClientError("bad_login", "the old password is wrong")
        await self.store.set_password(player.id, await self.passwords.hash(new))
        return await self.store.drop_sessions(
            player.id, kinds=("session",), keep=signed.token_hash or None
        )

    # -- bot accounts ---------------------------------------------------------------------

    def _owner(self, player: Player) -> Player:
        if player.kind != "account":
            raise ClientError("account_required", "only an account can have bot accounts")
        return player

    async def create_bot(self, owner: Player, name: str) -> tuple[Player, str]:
        """A new bot account of ``owner`` named ``name``, and its API token (shown once)."""
        self._owner(owner)
        name = check_name(name)
        async with self._bots_lock:
            if await self._taken(name):
                raise ClientError("name_taken", f"the name {name!r} is taken")
            if len(await self.store.bot_accounts(owner.id)) >= MAX_BOTS:
                raise ClientError("bad_state", f"an account has at most {MAX_BOTS} bot accounts")
            row = PlayerRow(
                "p" + secrets.token_hex(6), name, True, self.clock(), kind="bot", owner=owner.id
            )
            token = opaque(32)
            try:
                await self.store.add_bot_account(row, account_key(name), hash_token(token))
            except NameTaken:
                raise ClientError("name_taken", f"the name {name!r} is taken") from None
        return self._remember(player_of(row)), token

    async def bots(self, owner: Player) -> list[Player]:
        """The bot accounts ``owner`` made, oldest first."""
        self._owner(owner)
        return [player_of(row) for row in await self.store.bot_accounts(owner.id)]

    async def bot_token(self, owner: Player, bot_id: str) -> tuple[Player, str]:
        """A new API token for ``owner``'s bot account ``bot_id``; its old ones are
        revoked."""
        self._owner(owner)
        row = await self.store.player(bot_id)
        if row is None or row.kind != "bot" or row.owner != owner.id:
            raise ClientError("no_such_player", f"you have no bot account {bot_id!r}")
        await self.store.drop_sessions(bot_id, kinds=("api",))
        token, _ = await self._new_token(bot_id, "api")
        return player_of(row), token
