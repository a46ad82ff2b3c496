"""Rooms: the asyncio actor around each room core, the connections rooms see, the lobby
and the house bots."""
