"""Kriegspiel bots: the metaposition engine."""
