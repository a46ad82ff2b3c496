"""Knowledge about opponents: persistent profiles and statistics gathered in play.

The source keeps, for every player, *persistent* information (games, bids made, exact
bids, bluff percentage...) saved between sessions, and *temporary* information gathered
during a game. Here both are an :class:`OpponentProfile`: the server's ``profile``
request gives the persistent one (:meth:`OpponentProfile.from_json`), and
:class:`TableStats` counts the same things from the public events of the game in
progress; :meth:`OpponentProfile.combined` adds the two.

Every rate uses a small prior (Laplace-style pseudo-counts), so a player never seen is
"average" and a handful of observations moves the estimate only a little.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from server.games.perudo_actions import Bid, count_matching

#: Priors: (rate, weight in pseudo-observations).
BLUFF_PRIOR = (0.25, 8.0)
DUDO_ACCURACY_PRIOR = (0.55, 6.0)
BID_TRUTH_PRIOR = (0.5, 6.0)
DUDO_RATE_PRIOR = (0.3, 6.0)


def _rate(hits: float, trials: float, prior: tuple[float, float]) -> float:
    rate, weight = prior
    return (hits + rate * weight) / (trials + weight)


@dataclass(frozen=True, slots=True)
class OpponentProfile:
    """What is known of one player: counts, from which the rates are derived.

    ``bluffs`` / ``bids_revealed``: bids made on a face the bidder held none of (nor
    aces, when wild), among bids whose bidder's dice were later shown: the source's
    "percentuale di bluff". ``dudos_correct`` / ``dudos``: challenges that caught a false
    bid. ``challenged_true`` / ``challenged``: this player's bids that stood when
    challenged. ``dudo_chances``: turns this player faced a bid (so ``dudos /
    dudo_chances`` is how readily it challenges).
    """

    name: str = ""
    human: bool = False  #: a person rather than a bot (level ``auto`` looks at humans)
    games: int = 0
    wins: int = 0
    mean_players: float = 4.0  #: average table size of its games (chance = 1 / this)
    bids: int = 0
    bids_revealed: int = 0
    bluffs: int = 0
    challenged: int = 0
    challenged_true: int = 0
    dudos: int = 0
    dudos_correct: int = 0
    dudo_chances: int = 0
    calzas: int = 0
    calzas_correct: int = 0

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OpponentProfile:
        """Read a profile as the server's ``profile`` request returns it.

        Unknown keys are ignored and missing ones default to zero, so the bot keeps
        working while the server's format grows; a value of the wrong type is an error.
        """
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            spec = known.get(key)
            if spec is None:
                continue
            kind = {"str": str, "bool": bool, "int": int, "float": float}[str(spec.type)]
            if kind is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise ValueError(f"profile field {key!r} must be {kind.__name__}, not {value!r}")
            values[key] = value
        return cls(**values)

    @classmethod
    def from_server(cls, frame: Mapping[str, Any]) -> OpponentProfile:
        """Read the server's ``profile`` frame (docs/protocol.md): the player and its
        summed Perudo statistics (``server/store/stats.py``) become a profile."""
        player = frame.get("player") or {}
        stats = (frame.get("stats") or {}).get("perudo") or {}

        def count(key: str) -> int:
            return int(stats.get(key, 0))

        games = count("games")
        return cls(
            name=str(player.get("name", "")),
            human=not bool(player.get("bot", False)),
            games=games,
            wins=count("wins"),
            mean_players=(float(stats["players"]) / games) if games and "players" in stats else 4.0,
            bids=count("bids"),
            bids_revealed=count("bids_revealed"),
            bluffs=count("bluffs"),
            challenged=count("bids_challenged"),
            challenged_true=count("bids_true_challenged"),
            dudos=count("dudo_calls"),
            dudos_correct=count("dudo_correct"),
            dudo_chances=count("dudo_chances"),
            calzas=count("calza_calls"),
            calzas_correct=count("calza_correct"),
        )

    def to_json(self) -> dict[str, Any]:
        """The profile as a JSON object (the inverse of :meth:`from_json`)."""
        return asdict(self)

    def combined(self, other: OpponentProfile) -> OpponentProfile:
        """This profile plus ``other``'s counts (persistent + this game's)."""
        sums = {
            f.name: getattr(self, f.name) + getattr(other, f.name)
            for f in fields(self)
            if f.type == "int"
        }
        return replace(self, **sums)

    # -- derived rates -----------------------------------------------------------------

    @property
    def bluff_rate(self) -> float:
        """How often its bids name a face it does not hold (prior 0.25)."""
        return _rate(self.bluffs, self.bids_revealed, BLUFF_PRIOR)

    @property
    def dudo_accuracy(self) -> float:
        """How often its dudos catch a false bid (prior 0.55)."""
        return _rate(self.dudos_correct, self.dudos, DUDO_ACCURACY_PRIOR)

    @property
    def bid_truth(self) -> float:
        """How often its challenged bids were true (prior 0.5)."""
        return _rate(self.challenged_true, self.challenged, BID_TRUTH_PRIOR)

    @property
    def dudo_rate(self) -> float:
        """How readily it challenges a bid it faces (prior 0.3)."""
        return _rate(self.dudos, self.dudo_chances, DUDO_RATE_PRIOR)

    @property
    def trust(self) -> float:
        """How much its risky bids tell about its dice, 0 to 1 (1 for an honest player).

        A player who bluffs at the prior rate gets 1; one who always bluffs gets 0.
        """
        base = BLUFF_PRIOR[0]
        return max(0.0, min(1.0, (1.0 - self.bluff_rate) / (1.0 - base)))

    def skill(self) -> float | None:
        """A skill estimate in 0..1 for the trainer (level ``auto``), or ``None`` when
        too little is known (fewer than 3 games and 30 bids).

        Half from wins relative to chance (winning twice as often as chance or more
        counts fully), a quarter from dudo accuracy, a quarter from bids standing up.
        """
        if self.games < 3 and self.bids < 30:
            return None
        if self.games:
            relative = (self.wins / self.games) * max(self.mean_players, 2.0)
            win_part = max(0.0, min(1.0, relative / 2.0))
        else:
            win_part = 0.5
        return 0.5 * win_part + 0.25 * self.dudo_accuracy + 0.25 * self.bid_truth


#: Skill below which ``auto`` plays easy, and at or above which it plays hard.
AUTO_EASY_BELOW = 0.4
AUTO_HARD_FROM = 0.6
#: The level ``auto`` plays when no human opponent's skill is known.
AUTO_FALLBACK = "normal"


def auto_level(profiles: Iterable[OpponentProfile]) -> str:
    """The source's trainer: pick the difficulty from the human opponents' statistics.

    Looks at the human profiles with a known :meth:`~OpponentProfile.skill`, takes the
    strongest (the table should challenge its best human), and plays ``easy`` below
    0.4, ``hard`` from 0.6, ``normal`` between. With no such profile: ``normal``.
    """
    skills = [s for p in profiles if p.human for s in [p.skill()] if s is not None]
    if not skills:
        return AUTO_FALLBACK
    best = max(skills)
    if best < AUTO_EASY_BELOW:
        return "easy"
    if best >= AUTO_HARD_FROM:
        return "hard"
    return "normal"


@dataclass(slots=True)
class TableStats:
    """Statistics of every seat, counted from the public events of one game.

    Feed it every projection (:meth:`observe`) in order; :meth:`profile` gives a seat's
    counts as an :class:`OpponentProfile` to combine with its persistent one.
    """

    seats: int
    counts: dict[int, dict[str, int]] = field(default_factory=dict)
    _round_bids: list[tuple[int, Bid]] = field(default_factory=list)
    _challenge: dict[str, Any] | None = None

    def _add(self, seat: int, key: str, amount: int = 1) -> None:
        seat_counts = self.counts.setdefault(seat, {})
        seat_counts[key] = seat_counts.get(key, 0) + amount

    def profile(self, seat: int) -> OpponentProfile:
        """This game's counts for ``seat``."""
        return OpponentProfile.from_json(self.counts.get(seat, {}))

    def observe(self, event: Mapping[str, Any]) -> None:
        """Count one public projection (bids, challenges, reveals)."""
        kind = event.get("type")
        if kind == "round_started":
            self._round_bids = []
            self._challenge = None
        elif kind == "bid":
            seat = int(event["seat"])
            self._add(seat, "bids")
            if self._round_bids:
                self._add(seat, "dudo_chances")
            self._round_bids.append((seat, Bid.parse(str(event["bid"]))))
        elif kind == "challenge":
            self._challenge = dict(event)
            self._add(int(event["seat"]), "dudo_chances")
        elif kind == "reveal":
            self._reveal(event)

    def _reveal(self, event: Mapping[str, Any]) -> None:
        challenge = self._challenge or {}
        caller, bidder = challenge.get("seat"), challenge.get("bidder")
        wild = bool(event.get("aces_wild", True))
        if challenge.get("kind") == "dudo" and caller is not None and bidder is not None:
            true = bool(event["bid_true"])
            self._add(int(caller), "dudos")
            self._add(int(caller), "dudos_correct", 0 if true else 1)
            self._add(int(bidder), "challenged")
            self._add(int(bidder), "challenged_true", 1 if true else 0)
        elif challenge.get("kind") == "calza" and caller is not None:
            bid = Bid.parse(str(event["bid"]))
            self._add(int(caller), "calzas")
            exact = bool(event.get("complete")) and int(event["count"]) == bid.quantity
            self._add(int(caller), "calzas_correct", 1 if exact else 0)
        for shown in event.get("revealed", []):
            seat, dice = int(shown["seat"]), list(shown["dice"])
            for bidder_seat, bid in self._round_bids:
                if bidder_seat == seat:
                    self._add(seat, "bids_revealed")
                    if count_matching(dice, bid, wild) == 0:
                        self._add(seat, "bluffs")
