"""The words of the expert's explanations, in English and Italian: bids, dice, hands and
percentages, with correct plurals ("1 die", "2 dice"; "1 dado", "2 dadi"; "1 volta",
"2 volte") and Italian articles elided before a vowel ("dell'80%").

:mod:`bots.perudo.expert.explain` builds sentences from these; ``umpire advise`` uses them
for its own lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from server.games.perudo_actions import Bid

_FACES_EN = {1: ("ace", "aces"), 2: ("two", "twos"), 3: ("three", "threes")}
_FACES_EN |= {4: ("four", "fours"), 5: ("five", "fives"), 6: ("six", "sixes")}

_NUMBERS_EN: tuple[str, ...] = ("no", "one", "two", "three", "four", "five", "six", "seven")
_NUMBERS_EN += ("eight", "nine", "ten")
_NUMBERS_IT: tuple[str, ...] = ("nessun", "un", "due", "tre", "quattro", "cinque", "sei")
_NUMBERS_IT += ("sette", "otto", "nove", "dieci")


def plural(n: int, one: str, many: str) -> str:
    """``n`` and the noun that agrees with it: ``plural(1, "die", "dice")`` is "1 die"."""
    return f"{n} {one if n == 1 else many}"


def bid_en(bid: Bid) -> str:
    """``5x4`` as "at least 5 fours" (``1x4``: "at least 1 four"; ``1x1``: "at least 1 ace")."""
    one, many = _FACES_EN[bid.face]
    return f"at least {plural(bid.quantity, one, many)}"


def bid_it(bid: Bid) -> str:
    """``5x4`` as "almeno 5 volte 4" (``1x4``: "almeno 1 volta 4"), as the source writes
    bids; aces are "Teste di Lama" ("almeno 1 Testa di Lama")."""
    if bid.is_aces:
        return f"almeno {plural(bid.quantity, 'Testa di Lama', 'Teste di Lama')}"
    return f"almeno {plural(bid.quantity, 'volta', 'volte')} {bid.face}"


def percent(value: float) -> int:
    """``value`` (0..1) as a whole percentage, never rounding a possibility to 0 or a doubt
    to 100: 0.996 is 99, 0.004 is 1."""
    n = round(value * 100)
    if n == 100 and value < 1:
        return 99
    if n == 0 and value > 0:
        return 1
    return n


def pct(value: float) -> str:
    """``value`` as "79%"."""
    return f"{percent(value)}%"


_ELIDED = {"del": "dell'", "al": "all'", "il": "l'", "nel": "nell'", "sul": "sull'"}
_ZERO = {"del": "dello", "al": "allo", "il": "lo", "nel": "nello", "sul": "sullo"}


def pct_it(article: str, value: float) -> str:
    """An Italian article and a percentage: "del 79%", but "dell'80%", "dell'11%",
    "dell'1%" (the number is read with a leading vowel: uno, otto, undici, ottanta...)
    and "dello 0%" (zero)."""
    n = percent(value)
    if n == 0:
        return f"{_ZERO[article]} 0%"
    vowel = n in (1, 8, 11) or 80 <= n <= 89
    return f"{_ELIDED[article]}{n}%" if vowel else f"{article} {n}%"


def number_en(n: int) -> str:
    """``n`` in words up to ten ("three"), else in digits."""
    return _NUMBERS_EN[n] if 0 < n < len(_NUMBERS_EN) else str(n)


def number_it(n: int) -> str:
    """``n`` in Italian words up to ten ("tre"; 1 is "uno"), else in digits."""
    if n == 1:
        return "uno"
    return _NUMBERS_IT[n] if 0 < n < len(_NUMBERS_IT) else str(n)


def _count_en(n: int, face: int) -> str:
    word = _NUMBERS_EN[n] if n < len(_NUMBERS_EN) else str(n)
    if face == 1:
        return "an ace" if n == 1 else f"{word} aces"
    return f"a {face}" if n == 1 else f"{word} {face}s"


def _count_it(n: int, face: int) -> str:
    word = _NUMBERS_IT[n] if n < len(_NUMBERS_IT) else str(n)
    if face == 1:
        return "una Testa di Lama" if n == 1 else f"{word} Teste di Lama"
    return f"{word} {face}"


def _join(parts: list[str], conjunction: str) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {conjunction} " + parts[-1]


def hand_en(dice: Iterable[int]) -> str:
    """Dice as a player says them: ``[5, 5, 1]`` is "two 5s and an ace" (faces high to low,
    aces last)."""
    counts = Counter(dice)
    faces = sorted((f for f in counts if f != 1), reverse=True) + ([1] if 1 in counts else [])
    return _join([_count_en(counts[f], f) for f in faces], "and") or "nothing"


def hand_it(dice: Iterable[int]) -> str:
    """Dice as an Italian player says them: ``[5, 5, 1]`` is "due 5 e una Testa di Lama"."""
    counts = Counter(dice)
    faces = sorted((f for f in counts if f != 1), reverse=True) + ([1] if 1 in counts else [])
    return _join([_count_it(counts[f], f) for f in faces], "e") or "niente"


#: A bid at least this likely (as its stated percentage) is never called a bluff: the
#: words must match the number next to them (issue 33).
BLUFF_BELOW = 80


def is_bluff(counting: int, probability: float | None) -> bool:
    """Whether a bid none of whose ``counting`` own dice back it reads as "a bluff": only
    when its stated chance (``probability``, if known) is below :data:`BLUFF_BELOW`%."""
    return counting == 0 and (probability is None or percent(probability) < BLUFF_BELOW)


def own_dice_en(counting: int, held: int, probability: float | None = None) -> str:
    """How many of one's ``held`` dice count for a bid, as a sentence; ``probability``
    is the bid's stated chance (a likely bid is never "a bluff": :func:`is_bluff`)."""
    if held == 1:
        return "Your one die counts for it." if counting else "Your one die does not count for it."
    if counting == 0 and not is_bluff(counting, probability):
        return "None of your dice counts for it, but the other dice in play very likely do."
    if counting == 0:
        return "None of your dice counts for it: it is a bluff."
    if counting == held:
        return (
            "Both your dice count for it." if held == 2 else f"All your {held} dice count for it."
        )
    verb = "counts" if counting == 1 else "count"
    return f"{number_en(counting).capitalize()} of your {number_en(held)} dice {verb} for it."


def own_dice_it(counting: int, held: int, probability: float | None = None) -> str:
    """How many of one's ``held`` dice count for a bid, as an Italian sentence (as
    :func:`own_dice_en`)."""
    if held == 1:
        verb = "conta" if counting else "non conta"
        return f"Il tuo unico dado {verb} per questa scommessa."
    if counting == 0 and not is_bluff(counting, probability):
        return (
            "Nessuno dei tuoi dadi conta per questa scommessa, ma molto probabilmente "
            "contano gli altri dadi in gioco."
        )
    if counting == 0:
        return "Nessuno dei tuoi dadi conta per questa scommessa: è un bluff."
    if counting == held:
        return (
            "Contano entrambi i tuoi dadi." if held == 2 else f"Contano tutti i tuoi {held} dadi."
        )
    verb = "conta" if counting == 1 else "contano"
    return (
        f"{number_it(counting).capitalize()} dei tuoi {number_it(held)} dadi {verb} "
        "per questa scommessa."
    )
