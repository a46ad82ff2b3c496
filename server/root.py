"""The composition root: the one place where the server meets the bots.

The server's own modules never import :mod:`bots` (an import-linter contract checks it):
what they need of the bots, the catalog of house bots and the Perudo expert's advice for
``hint``, is handed in here. ``umpire serve`` and the tests build their servers with
:func:`build_server`.
"""

from __future__ import annotations

from server.feed.bus import Bus
from server.net.app import ServerConfig, UmpireServer
from server.store.contract import Store


def build_server(
    config: ServerConfig, store: Store | None = None, bus: Bus | None = None
) -> UmpireServer:
    """A server with the built-in bots as house bots and the Perudo expert as its advisor."""
    from bots.perudo.expert.hint import perudo_hint
    from bots.registry import HouseCatalog

    return UmpireServer(config, store, bus, catalog=HouseCatalog(), advisor=perudo_hint)
