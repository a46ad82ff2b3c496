"""The umpire server: rules engines (``server.games``), wire protocol, rooms, store and bus."""

__version__ = "0.1.0"
