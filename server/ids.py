"""Random opaque strings (room ids, invite codes, tokens, secrets) that a person can pass
on a command line: URL-safe base64 like :func:`secrets.token_urlsafe`, never starting
with ``-``, which ``umpire bot --room``, ``--invite`` and ``--token`` (argparse) and most
command-line tools would take for an option; room ids that sort by when they were made;
and how a secret a client presents is checked against one."""

from __future__ import annotations

import hmac
import secrets


def opaque(nbytes: int) -> str:
    """``secrets.token_urlsafe(nbytes)`` drawn again until it does not start with ``-``."""
    text = secrets.token_urlsafe(nbytes)
    while text.startswith("-"):
        text = secrets.token_urlsafe(nbytes)
    return text


#: :func:`time_ordered`'s clock starts here (2025-01-01 00:00 UTC, in Unix seconds)
ORDER_EPOCH = 1_735_689_600
#: its digits: base 36, digits then lower-case letters, which sort alike in every
#: collation (SQLite's binary order, PostgreSQL's C and linguistic ones)
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: its width: 36 ** 6 seconds is 69 years
ORDER_WIDTH = 6


def time_ordered(nbytes: int, now: float) -> str:
    """An opaque id that sorts after every id made at an earlier second: ``now``'s whole
    seconds since :data:`ORDER_EPOCH` in :data:`ORDER_WIDTH` base-36 digits, then
    ``opaque(nbytes)`` (as random as a plain one). After 69 years the prefix stays at its
    largest value, and later ids are in random order again.

    What it is for: the store keys a game's rows (``games``, its actions, events, chat,
    seats) by the room id, in B-trees ordered by it. Random ids put every new game's rows
    in the middle of all earlier games' pages, so that the writer read and rewrote a
    cold page, and split its full neighbours, for each new game, and more of them the
    more games the store held: the cost of an action grew with the server's history
    (docs/benchmarks.md, "Load held over time"). Ids in creation order put the live games
    at the end of each B-tree, in pages the writer has in its cache, however many
    finished games lie before them. (Within one second, the order is random: a second's
    games are all live together.)"""
    seconds = min(max(0, int(now) - ORDER_EPOCH), 36**ORDER_WIDTH - 1)
    digits = []
    for _ in range(ORDER_WIDTH):
        seconds, digit = divmod(seconds, 36)
        digits.append(_DIGITS[digit])
    return "".join(reversed(digits)) + opaque(nbytes)


def same_secret(given: str | None, secret: str) -> bool:
    """Whether ``given`` (a header's value, decoded as ISO-8859-1, so any character may
    come) is ``secret``, in constant time; never raises (``hmac.compare_digest`` does on
    a text with non-ASCII characters)."""
    if given is None or not secret:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode())
