"""The one protocol client: a sans-I/O core (:mod:`bots.client.core`) and its asyncio
driver on websockets' reconnecting ``connect()`` (:mod:`bots.client.driver`).

Bots are clients (docs/architecture.md, idea 5): the bots' websocket transport
(:mod:`bots.sdk.remote`), the terminal client (:mod:`client_cli.session`), the tests' scripted
client and the load benchmark all speak the protocol through it.
"""
