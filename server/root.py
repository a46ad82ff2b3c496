"""The composition root: the one place where the server meets the bots.

The server's own modules never import :mod:`bots` (an import-linter contract checks it):
what they need of the bots, the catalog of house bots and the Perudo expert's advice for
``hint`` (named here; the house runner processes import and run it, see
:mod:`server.rooms.house`), is handed in here. ``umpire serve`` and the tests build their
servers with :func:`build_server`.
"""

from __future__ import annotations

from server.feed.bus import Bus
from server.net.app import ServerConfig, UmpireServer
from server.rooms.house import Catalog
from server.store.contract import Store

#: The ``hint`` advisor, as the house runners import it: the Perudo expert's advice.
ADVISOR = "bots.perudo.expert.hint:perudo_hint"


def house_catalog() -> Catalog:
    """The built-in bots as a server's house-bot catalog (``umpire rules`` prints the
    catalogue a server built here publishes)."""
    from bots.registry import HouseCatalog

    return HouseCatalog()


def build_server(
    config: ServerConfig,
    store: Store | None = None,
    bus: Bus | None = None,
    *,
    advisor: str = ADVISOR,
) -> UmpireServer:
    """A server with the built-in bots as house bots and the Perudo expert as its advisor
    (``advisor`` names another one, ``"module:function"``: the tests' slow advisor)."""
    return UmpireServer(config, store, bus, catalog=house_catalog(), advisor=advisor)
