"""The difficulty levels and the two thresholds of the source.

The *bluff* threshold is how much of a bid may rest on dice the player does not hold;
the *reliability* threshold is the probability the player wants its bid to have. Both are
in 0..1. A level also says how much the player knows: easy ignores what opponents'
bids tell (no inference) and decides with some noise; normal infers opponents' dice with
one virtual roll as the source does and uses their bluffing statistics; hard reads the
bids as a probability (a posterior over the opponents' dice, :mod:`.reading`) and also
weighs the next player's habits. The numbers were tuned
in self-play against perudo-simple (docs/perudo_expert.md).
"""

from __future__ import annotations

from dataclasses import dataclass

LEVEL_NAMES = ("easy", "normal", "hard", "auto")


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The bluff and reliability thresholds, each in 0..1."""

    bluff: float
    reliability: float

    def __post_init__(self) -> None:
        for name in ("bluff", "reliability"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"the {name} threshold is between 0 and 1, not {value}")


@dataclass(frozen=True, slots=True)
class Level:
    """What a difficulty level changes."""

    name: str
    thresholds: Thresholds
    #: virtual dice per opponent bid: 0 none; more, the rolls' whole distribution weighed
    #: (``inference.round_distribution``; issue 33), whatever the number
    samples: int
    noise: float  #: random jitter added to each candidate's score
    use_stats: bool  #: use opponents' profiles and this game's statistics
    next_player: bool  #: weigh the next player's readiness to challenge
    dudo_margin: float  #: dudo when P(dudo right) > P(best bid) + this
    trust: float = 1.0  #: how far opponents' bids are believed (1: the source's 1 - P)
    #: the share of its decisions in solved rounds played from the solution
    #: (``bots.perudo.endgame``): hard always, normal half the time, easy never
    solved_share: float = 0.0
    #: the solved rounds include one die against two (1 v 2, 2 v 1), not only the last bet
    solved_one_v_two: bool = False
    #: and two dice each, from its tied abstraction (``bots.perudo.endgame.tied``)
    solved_two_v_two: bool = False
    #: read the opponents' bids through a likelihood model of their bidding, a posterior
    #: over their dice (``bots.perudo.expert.reading``), instead of virtual dice
    reading: bool = False


LEVELS: dict[str, Level] = {
    # No inference, a loose reliability threshold, eager to doubt, noisy choices.
    "easy": Level("easy", Thresholds(0.6, 0.6), 0, 0.2, False, False, 0.05),
    # The source's inference: one virtual roll per opponent bid. Its weight 1 - P
    # (trust 1) over-reads the bids of the bots measured here; 0.6 of it plays better.
    "normal": Level(
        "normal",
        Thresholds(0.4, 0.8),
        1,
        0.0,
        True,
        False,
        0.2,
        trust=0.6,
        solved_share=0.5,
        solved_one_v_two=True,
        solved_two_v_two=True,
    ),
    # The bids read as a probability (a posterior over each opponent's dice through a
    # likelihood model of its bidding) and the next player's readiness to challenge
    # weighed. No virtual dice (samples 0), so no ``trust`` either.
    "hard": Level(
        "hard",
        Thresholds(0.4, 0.8),
        0,
        0.0,
        True,
        True,
        0.2,
        solved_share=1.0,
        solved_one_v_two=True,
        solved_two_v_two=True,
        reading=True,
    ),
}


def level_named(name: str) -> Level:
    """The :class:`Level` called ``name`` (easy, normal or hard); a clear error otherwise."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}: use one of {', '.join(LEVEL_NAMES)}") from None
