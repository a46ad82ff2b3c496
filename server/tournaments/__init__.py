"""Hosted tournaments: pure pairing formats, standings, the tournament core and its director.

``formats`` pairs (round robin by Berger tables, Swiss, arena), ``standings`` scores and
breaks ties, ``core`` is one tournament as a synchronous state machine (inputs and the
time in, rooms to open out), ``director`` is the asyncio actor that opens the rooms and
keeps the tournament in the store. docs/tournaments.md describes the rules.
"""
