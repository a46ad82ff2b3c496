"""Perudo's actions as values: bids (``Bid.parse("5x4")``), dudo and calza, and the
raising and counting rules that only need bids.

A bid is written ``QxF``: at least Q dice show face F; face 1 is the ace.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from server.games.base import IllegalAction

FACES = range(1, 7)
ACE = 1

# -- actions -----------------------------------------------------------------------------

_BID_RE = re.compile(r"\s*([0-9]{1,3})\s*[xX*]\s*([1-6])\s*", re.ASCII)
_QUOTE = 40  # the most of a refused input an error quotes
_MAX_QUANTITY = 80  # 8 players x 10 dice: no game can hold more dice


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid: at least ``quantity`` dice show ``face`` (aces count unless wild is off).

    The text form is ``"QxF"``: ``Bid.parse("5x4")`` is five 4s, ``"3x1"`` three aces.
    """

    quantity: int
    face: int

    def __post_init__(self) -> None:
        if not 1 <= self.quantity <= _MAX_QUANTITY:
            raise ValueError(f"a bid's quantity is 1 to {_MAX_QUANTITY}, not {self.quantity}")
        if self.face not in FACES:
            raise ValueError(f"a bid's face is 1 (aces) to 6, not {self.face}")

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read ``"QxF"`` (``x`` may also be ``X`` or ``*``); raise ``IllegalAction``."""
        match = _BID_RE.fullmatch(text)
        if match is None:
            raise IllegalAction(
                f"{_quote(text)} is not a bid: write quantity x face in ASCII digits, "
                "e.g. 5x4 (aces are face 1)",
                "malformed",
            )
        quantity, face = int(match[1]), int(match[2])
        if not 1 <= quantity <= _MAX_QUANTITY:
            raise IllegalAction(
                f"{_quote(text)}: a bid's quantity is 1 to {_MAX_QUANTITY}", "malformed"
            )
        return BIDS[quantity][face]

    @property
    def is_aces(self) -> bool:
        """True for a bid on aces (face 1)."""
        return self.face == ACE

    def __str__(self) -> str:
        return _TEXTS[self.quantity][self.face]

    def __repr__(self) -> str:
        return f"Bid.parse({str(self)!r})"


def _quote(text: str) -> str:
    """``text`` quoted for an error, cut to its first few dozen characters."""
    if len(text) <= _QUOTE:
        return repr(text)
    return f"{text[:_QUOTE]!r}... ({len(text)} characters)"


#: Every possible bid, built once: ``BIDS[quantity][face]`` (bids are immutable values).
BIDS: list[list[Bid]] = [[]] + [
    [Bid(1, 1)] + [Bid(q, f) for f in FACES] for q in range(1, _MAX_QUANTITY + 1)
]


#: Every bid's text, built once (turn frames list up to ~180 bids per action).
_TEXTS: list[list[str]] = [[f"{q}x{f}" for f in range(7)] for q in range(_MAX_QUANTITY + 1)]


@dataclass(frozen=True, slots=True)
class Dudo:
    """Challenge the last bid: "I doubt it"."""

    def __str__(self) -> str:
        return "dudo"


@dataclass(frozen=True, slots=True)
class Calza:
    """Claim the last bid is exactly right (only when the room allows ``calza``)."""

    def __str__(self) -> str:
        return "calza"


Action = Bid | Dudo | Calza
DUDO = Dudo()
CALZA = Calza()


#: Every action by its canonical text (what ``str(action)`` gives and ``turn`` frames
#: list): the texts clients send back, read without a regular expression.
_CANONICAL: dict[str, Action] = {
    "dudo": DUDO,
    "calza": CALZA,
    **{str(bid): bid for row in BIDS[1:] for bid in row[1:]},
}


def parse_action(text: str) -> Action:
    """Read an action's text: ``"5x4"``, ``"dudo"`` or ``"calza"``; raise ``IllegalAction``."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action is a string, not {type(text).__name__}", "malformed")
    canonical = _CANONICAL.get(text)
    if canonical is not None:
        return canonical
    word = text.strip().lower()
    if word == "dudo":
        return DUDO
    if word == "calza":
        return CALZA
    if len(text) > 16:
        raise IllegalAction("an action is a bid like 5x4, dudo or calza", "malformed")
    return Bid.parse(text)


def min_aces_after(bid: Bid) -> int:
    """The fewest aces that raise a non-ace bid: ceil(q / 2)."""
    return (bid.quantity + 1) // 2


def min_face_after_aces(bid: Bid) -> int:
    """The fewest dice of a non-ace face that raise an ace bid: 2q + 1."""
    return 2 * bid.quantity + 1


def raise_error(previous: Bid, bid: Bid) -> str | None:
    """Why ``bid`` does not raise ``previous`` under the usual rules, or ``None`` if it does.

    After a non-ace bid (q, f): more dice of any face, the same number of a higher face,
    or at least ceil(q/2) aces. After an ace bid (q, 1): more aces, or at least 2q+1 dice
    of any other face.
    """
    if previous.is_aces:
        if bid.is_aces:
            if bid.quantity > previous.quantity:
                return None
            return f"{bid} does not raise {previous}: bid more aces than {previous.quantity}"
        need = min_face_after_aces(previous)
        if bid.quantity >= need:
            return None
        return f"{bid} does not raise {previous}: after aces, bid at least {need} of a face"
    if bid.is_aces:
        need = min_aces_after(previous)
        if bid.quantity >= need:
            return None
        return f"{bid} does not raise {previous}: bid at least {need} aces"
    if bid.quantity > previous.quantity or (
        bid.quantity == previous.quantity and bid.face > previous.face
    ):
        return None
    return f"{bid} does not raise {previous}: bid more dice, or a higher face"


def ordinary_raise_error(previous: Bid, bid: Bid) -> str | None:
    """Why ``bid`` does not raise ``previous`` when aces are an ordinary face (a palifico
    round), or ``None`` if it does: more dice of any face, or as many of a higher face, the
    ace ranking lowest. No halving or doubling applies."""
    if bid.quantity > previous.quantity or (
        bid.quantity == previous.quantity and bid.face > previous.face
    ):
        return None
    return f"{bid} does not raise {previous}: bid more dice, or a higher face (aces are lowest)"


def ordinary_raises(previous: Bid, cap: int) -> list[Bid]:
    """Every bid up to ``cap`` dice that raises ``previous`` by :func:`ordinary_raise_error`."""
    out = [BIDS[previous.quantity][f] for f in range(previous.face + 1, 7)]
    out.extend(BIDS[q][f] for q in range(previous.quantity + 1, cap + 1) for f in FACES)
    return out


def count_matching(dice: Iterable[int], bid: Bid, aces_wild: bool) -> int:
    """How many of ``dice`` count for ``bid``: its face, plus aces when they are wild."""
    if bid.is_aces or not aces_wild:
        return sum(1 for d in dice if d == bid.face)
    return sum(1 for d in dice if d == bid.face or d == ACE)


def raises(previous: Bid, cap: int) -> list[Bid]:
    """Every bid up to ``cap`` dice that raises ``previous`` under the usual rules."""
    out: list[Bid] = []
    if previous.is_aces:
        out.extend(BIDS[q][ACE] for q in range(previous.quantity + 1, cap + 1))
        low = min_face_after_aces(previous)
        for face in range(2, 7):
            out.extend(BIDS[q][face] for q in range(low, cap + 1))
        return out
    out.extend(BIDS[q][ACE] for q in range(min_aces_after(previous), cap + 1))
    for face in range(2, 7):
        low = previous.quantity + 1 if face <= previous.face else previous.quantity
        out.extend(BIDS[q][face] for q in range(low, cap + 1))
    return out
