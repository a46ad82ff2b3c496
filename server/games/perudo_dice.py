"""Perudo's fair dice: every roll is drawn from the game seed, so anyone can check it.

Die ``d`` of seat ``s`` in round ``r`` is ``draw(seed, "perudo/round/r/seat/s/die/d", 6) + 1``
and round 1's starter is ``draw(seed, "perudo/starter", seats)``. The game publishes
``sha256(seed)`` when it starts and reveals the seed when it ends; :func:`verify` then
recomputes every roll from the logged truths.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from server.games.base import Json, draw, seed_commitment

#: a die's draw accepts a 64-bit value below this (the largest multiple of 6): as in draw
_DIE_LIMIT = (1 << 64) - ((1 << 64) % 6)


def first_starter(seed: bytes, seats: int) -> int:
    """The seat that starts round 1, drawn from the seed."""
    return draw(seed, "perudo/starter", seats)


#: HMAC's inner and outer pads (RFC 2104) as byte translation tables, as ``hmac`` has them
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))
_BLOCK = 64  # SHA-256's block size


@lru_cache(maxsize=4096)
def _keyed(seed: bytes) -> tuple[Any, Any]:
    """SHA-256 states that have hashed ``seed``'s inner and outer HMAC pads (RFC 2104):
    each die copies them instead of keying an HMAC anew (a third of the cost)."""
    key = hashlib.sha256(seed).digest() if len(seed) > _BLOCK else seed
    key = key.ljust(_BLOCK, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


def roll_dice(seed: bytes, round_number: int, seat: int, count: int) -> list[int]:
    """Seat ``seat``'s ``count`` dice in round ``round_number``, drawn from the seed.

    Exactly ``draw(seed, f"perudo/round/{round_number}/seat/{seat}/die/{d}", 6) + 1`` for
    each die ``d`` (HMAC-SHA256 written out from its two SHA-256 passes; a test holds the
    two equal)."""
    inner, outer = _keyed(seed)
    prefix = f"perudo/round/{round_number}/seat/{seat}/die/"
    dice = []
    for d in range(count):
        counter = 0
        while True:
            first = inner.copy()
            first.update(f"{prefix}{d}#{counter}".encode())
            mac = outer.copy()
            mac.update(first.digest())
            value = int.from_bytes(mac.digest()[:8], "big")
            if value < _DIE_LIMIT:
                dice.append(value % 6 + 1)
                break
            counter += 1
    return dice


def verify(seats: int, seed: bytes, truths: Sequence[Mapping[str, Json]]) -> list[str]:
    """Check a game's logged truths against its seed; return the discrepancies (none: fair).

    Every ``round_started`` truth must hold exactly the dice the seed gives, the first
    event must commit to the seed's SHA-256, and the starter of round 1 must be the drawn
    one. Everything else follows from the rules, which replay checks.
    """
    problems: list[str] = []
    commitment = seed_commitment(seed)
    if not truths or truths[0].get("type") != "game_started":
        problems.append("the log does not begin with game_started")
    elif truths[0].get("seed_sha256") != commitment:
        problems.append("the published commitment is not sha256(seed)")
    first = True
    for truth in truths:
        if truth.get("type") != "round_started":
            continue
        number = int(truth["round"])
        if first:
            first = False
            expected_starter = first_starter(seed, seats)
            if truth.get("starter") != expected_starter:
                problems.append(
                    f"round 1 was started by seat {truth.get('starter')}, "
                    f"the seed says seat {expected_starter}"
                )
        for seat, dice in enumerate(truth["dice"]):
            expected = roll_dice(seed, number, seat, len(dice))
            if list(dice) != expected:
                problems.append(
                    f"round {number}, seat {seat}: logged {list(dice)}, seed gives {expected}"
                )
        if list(truth.get("counts", [])) and [len(d) for d in truth["dice"]] != list(
            truth["counts"]
        ):
            problems.append(f"round {number}: dice rolled do not match the dice counts")
    return problems
