"""Games played in the learning environments, into the knowledge base.

An environment's finished episode (:meth:`bots.learn.env.UmpireEnv.episode`) carries what
the log needs: the options, the seed, every event with the action that caused it, the
history and the outcome. :func:`record_episode` writes it through
:class:`~server.store.selfplay_log.SelfplayLog`, so through the journal, the one writer: the
game is then verified (``umpire verify``) and exported like any other. Each seat is played
by an agent named in ``agents`` (identity ``bot-<name>``, as self-play bots).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from server.games.base import Event, Outcome, Record
from server.store.contract import Store, open_store
from server.store.selfplay_log import SelfplayLog
from server.store.signing import Signer, key_path, open_signer


class EpisodeLike(Protocol):
    """A finished game as an environment returns it (``bots.learn.env.Episode``)."""

    @property
    def game(self) -> str:
        """The engine's name."""
        ...

    @property
    def options(self) -> Mapping[str, Any]:
        """The config's options (``to_options()``)."""
        ...

    @property
    def seed(self) -> bytes:
        """The game's seed."""
        ...

    @property
    def events(self) -> Sequence[Event]:
        """Every event of the game, opening ones first."""
        ...

    @property
    def causes(self) -> Sequence[int | None]:
        """For each event, the 1-based action that caused it (None: opening)."""
        ...

    @property
    def history(self) -> Sequence[Record]:
        """The game's history records."""
        ...

    @property
    def outcome(self) -> Outcome:
        """How the game ended."""
        ...


async def record_episode(
    book: SelfplayLog,
    episode: EpisodeLike,
    agents: Sequence[str],
    settings: Mapping[str, Any] | None = None,
) -> str:
    """Write one finished episode, ``agents[i]`` playing seat ``i``; return the game id.

    ``settings`` default to ``{"source": "learn"}``.
    """
    if len(agents) != len(episode.outcome.ranks):
        raise ValueError(f"{len(agents)} agent names for {len(episode.outcome.ranks)} seats")
    return await book.record(
        game=episode.game,
        options=episode.options,
        seed=episode.seed,
        bots=agents,
        events=episode.events,
        causes=episode.causes,
        history=episode.history,
        outcome=episode.outcome,
        settings=dict(settings) if settings is not None else {"source": "learn"},
        by=getattr(episode, "by", None) or None,
    )


async def record_episodes(
    store: Store,
    episodes: Iterable[EpisodeLike],
    agents: Sequence[str],
    settings: Mapping[str, Any] | None = None,
    signer: Signer | None = None,
) -> list[str]:
    """Write several finished episodes to an open ``store``, each signed by ``signer``
    (``server.store.signing.open_signer``; unsigned games fail ``umpire verify``); return
    their ids. Every action is the seat's agent's own (``by`` = ``player``)."""
    book = SelfplayLog(store, signer)
    return [await record_episode(book, e, agents, settings) for e in episodes]


def save_episodes(
    db: str,
    episodes: Iterable[EpisodeLike],
    agents: Sequence[str],
    settings: Mapping[str, Any] | None = None,
    signing_key: str | None = None,
) -> list[str]:
    """Open the knowledge base ``db`` (created if missing), write the episodes signed with
    the key in ``signing_key`` (default: the file beside ``db``, as ``umpire serve``'s),
    close it; return their ids. For synchronous training loops (runs its own event loop)."""

    async def run() -> list[str]:
        store = open_store(db, synchronous="NORMAL")
        await store.open()
        try:
            signer = await open_signer(store, key_path(db, signing_key))
            return await record_episodes(store, episodes, agents, settings, signer)
        finally:
            await store.close()

    return asyncio.run(run())
