"""Bots for umpire: the SDK, baseline bots and the expert engines (see docs/bots.md)."""
