"""Matchmaking: seeks and their pairing (docs/matchmaking.md).

:mod:`server.matchmaking.seeks` is the seek as a value type, :mod:`server.matchmaking.pairing`
the sans-I/O pairing core (seeks in, matches out, driven by the time it is given), and
:mod:`server.matchmaking.actor` the asyncio actor that keeps seeks in the store, claims
each match there atomically (so that two nodes never pair one seek twice) and opens its
room with :meth:`server.rooms.lobby.Lobby.open_match`.
"""
