"""Goofspiel with hidden bids: a third game written only as an engine module.

It exists to prove the engine contract (``server.games.spec``): nothing outside this file
knows the game, yet it passes the engine conformance suite and plays through a real server
once registered (``server.games.register("goofspiel", "tests.games.goofspiel")``).

Rules: every seat holds the cards 1..``cards``. A prize deck of the same cards is shuffled
from the seed. Each round the top prize card is shown; then each seat bids one card from
its hand, in seat order, secretly (the others only hear *that* it bid: the interface has
one seat to move, so simultaneous bids are sequential hidden ones). When all have bid, the
bids are revealed; the single highest bid wins the prize's value, and a tie for highest
wins nothing. After ``cards`` rounds the highest score wins (ties share a place).

Events: ``game_started``, ``prize`` (public), ``bid`` (the bidder sees its card, the others
only its seat), ``reveal`` (public: every bid, the winner, the scores), ``forfeit``,
``game_over`` (``ranks``, ``winners``, ``scores``, ``seed``). Actions are card numbers as
text (``"5"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self

from server.games.base import (
    ConfigError,
    Event,
    Game,
    IllegalAction,
    Json,
    Outcome,
    Record,
    Viewer,
    draw,
    seed_commitment,
)
from server.games.spec import Engine, Option, Text, add, check_seat_count, result_stats

MAX_SEATS = 4
MAX_CARDS = 13


@dataclass(frozen=True, slots=True)
class GoofspielConfig:
    """Goofspiel options: ``seats`` (2..4) and ``cards`` (1..13, the hand and prize deck)."""

    seats: int = 2
    cards: int = 5

    #: Every option with its help (``umpire rules`` and the catalogue).
    OPTIONS: ClassVar[dict[str, Option]] = {
        "seats": Option(
            Text(en=f"players, 2 to {MAX_SEATS}", it=f"giocatori, da 2 a {MAX_SEATS}"),
            min=2,
            max=MAX_SEATS,
        ),
        "cards": Option(
            Text(
                en=f"cards in each hand and in the prize deck, 1 to {MAX_CARDS}",
                it=f"carte in ogni mano e nel mazzo dei premi, da 1 a {MAX_CARDS}",
            ),
            min=1,
            max=MAX_CARDS,
        ),
    }

    def __post_init__(self) -> None:
        for name in ("seats", "cards"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"option {name} must be a whole number, not {value!r}")
        check_seat_count("goofspiel", self.seats, 2, MAX_SEATS)
        if not 1 <= self.cards <= MAX_CARDS:
            raise ConfigError(f"cards must be 1 to {MAX_CARDS}, not {self.cards}")

    @classmethod
    def from_options(cls, options: Mapping[str, Json]) -> Self:
        """Build a config from room options; raise :class:`ConfigError` on unknown ones."""
        if not isinstance(options, Mapping):
            raise ConfigError("options must be an object of option names to values")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ConfigError(
                f"unknown Goofspiel option {unknown[0]!r}: the options are seats, cards"
            )
        return cls(**options)

    def to_options(self) -> dict[str, Json]:
        """Every option, explicitly."""
        return {"seats": self.seats, "cards": self.cards}


def prize_deck(seed: bytes, cards: int) -> list[int]:
    """The prize cards in the order they are shown: a Fisher-Yates shuffle from the seed."""
    deck = list(range(1, cards + 1))
    for i in range(cards - 1, 0, -1):
        j = draw(seed, f"goofspiel/prize/{i}", i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class Goofspiel(Game):
    """One game of Goofspiel in progress; create it with :func:`new_game`."""

    name = "goofspiel"

    def __init__(self, config: GoofspielConfig, seed: bytes) -> None:
        super().__init__(seed)
        self._config = config
        self.deck = prize_deck(seed, config.cards)
        self.hands = [set(range(1, config.cards + 1)) for _ in range(config.seats)]
        self.scores = [0] * config.seats
        self.round = 0  # 1-based once started
        self.bids: list[int | None] = [None] * config.seats
        self.reveals: list[dict[str, Json]] = []
        self.forfeited: list[int] = []
        self._outcome: Outcome | None = None

    @property
    def config(self) -> GoofspielConfig:
        return self._config

    @property
    def prize(self) -> int | None:
        """The prize card of the round in progress."""
        return None if self._outcome is not None else self.deck[self.round - 1]

    @property
    def to_move(self) -> int | None:
        if self._outcome is not None:
            return None
        return next(s for s, b in enumerate(self.bids) if b is None)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @classmethod
    def parse_action(cls, text: str) -> int:
        if not isinstance(text, str) or not text.isdigit() or len(text) > 2:
            raise IllegalAction(f"a Goofspiel action is a card number, not {text!r}", "malformed")
        card = int(text)
        if not 1 <= card <= MAX_CARDS or str(card) != text:
            raise IllegalAction(f"there is no card {text!r}", "malformed")
        return card

    def legal_actions(self, seat: int) -> list[int]:
        if seat != self.to_move:
            return []
        return sorted(self.hands[seat])

    def view(self, viewer: Viewer) -> dict[str, Json]:
        snapshot: dict[str, Json] = {
            "game": self.name,
            "seats": self._config.seats,
            "options": self._config.to_options(),
            "seed_sha256": seed_commitment(self.seed),
            "round": self.round,
            "prize": self.prize,
            "to_move": self.to_move,
            "bid": [b is not None for b in self.bids],
            "scores": list(self.scores),
            "reveals": list(self.reveals),
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }
        if viewer is not None:
            snapshot["seat"] = viewer
            snapshot["hand"] = sorted(self.hands[viewer])
            snapshot["my_bid"] = self.bids[viewer]
        if self._outcome is not None:
            snapshot["seed"] = self.seed.hex()
        return snapshot

    def _apply(self, seat: int, action: Any) -> list[Event]:
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(f"{action!r} is not a Goofspiel action", "malformed")
        if seat != self.to_move:
            raise IllegalAction(f"it is seat {self.to_move}'s turn to bid", "not_your_turn")
        if action not in self.hands[seat]:
            raise IllegalAction(f"card {action} is not in your hand")
        self.hands[seat].discard(action)
        self.bids[seat] = action
        n = self._config.seats
        public = {"type": "bid", "round": self.round, "seat": seat}
        mine = dict(public, card=action)
        seats = tuple(mine if s == seat else public for s in range(n))
        events = [Event(mine, seats, public)]
        if all(b is not None for b in self.bids):
            events.extend(self._reveal())
        return events

    def _reveal(self) -> list[Event]:
        bids = [int(b) for b in self.bids if b is not None]
        prize = self.deck[self.round - 1]
        top = max(bids)
        winner = bids.index(top) if bids.count(top) == 1 else None
        if winner is not None:
            self.scores[winner] += prize
        payload: dict[str, Json] = {
            "type": "reveal",
            "round": self.round,
            "prize": prize,
            "bids": bids,
            "winner": winner,
            "scores": list(self.scores),
        }
        self.reveals.append(payload)
        events = [Event.public(self._config.seats, payload)]
        if self.round == self._config.cards:
            return events + self._finish("all_cards_played")
        return events + self._next_round()

    def _next_round(self) -> list[Event]:
        self.round += 1
        self.bids = [None] * self._config.seats
        payload = {"type": "prize", "round": self.round, "card": self.deck[self.round - 1]}
        return [Event.public(self._config.seats, payload)]

    def _forfeit(self, seat: int, reason: str) -> list[Event]:
        self.forfeited.append(seat)
        payload = {"type": "forfeit", "seat": seat, "reason": reason, "round": self.round}
        return [Event.public(self._config.seats, payload), *self._finish("forfeit")]

    def _finish(self, reason: str) -> list[Event]:
        # The players still in, by score; then the forfeited ones, last out last.
        scores = self.scores
        ranks = [0] * self._config.seats
        staying = [s for s in range(self._config.seats) if s not in self.forfeited]
        for s in staying:
            ranks[s] = 1 + sum(1 for t in staying if scores[t] > scores[s])
        for place, s in enumerate(reversed(self.forfeited), start=len(staying) + 1):
            ranks[s] = place
        self._outcome = Outcome(tuple(ranks), reason)
        payload = {
            "type": "game_over",
            "round": self.round,
            **self._outcome.to_json(),
            "scores": list(scores),
            "seed": self.seed.hex(),
        }
        return [Event.public(self._config.seats, payload)]


def new_game(config: GoofspielConfig, seed: bytes) -> tuple[Goofspiel, list[Event]]:
    """Start a game: ``game_started`` (with the seed's commitment) and the first prize."""
    if not isinstance(config, GoofspielConfig):
        raise ConfigError(f"Goofspiel needs a GoofspielConfig, not {type(config).__name__}")
    if not seed:
        raise ConfigError("a game needs a non-empty seed")
    game = Goofspiel(config, seed)
    opening = Event.public(
        config.seats,
        {
            "type": "game_started",
            "game": Goofspiel.name,
            "seats": config.seats,
            "options": config.to_options(),
            "seed_sha256": seed_commitment(seed),
        },
    )
    return game, [opening, *game._next_round()]


def with_seats(config: GoofspielConfig, n: int) -> GoofspielConfig:
    """``config`` for ``n`` players (2 to 4)."""
    check_seat_count("goofspiel", n, 2, MAX_SEATS)
    return GoofspielConfig(n, config.cards)


def stats(
    public_events: Sequence[dict[str, Json]], outcome: Outcome, seats: int
) -> list[dict[str, float]]:
    """``prizes_won`` and ``points`` per seat, besides every game's result keys."""
    out = result_stats(outcome, seats)
    for event in public_events:
        if event.get("type") == "reveal" and isinstance(event.get("winner"), int):
            add(out[event["winner"]], "prizes_won")
            add(out[event["winner"]], "points", event["prize"])
    return out


def verify(
    config: GoofspielConfig,
    seed: bytes,
    records: Sequence[Record],
    truths: Sequence[dict[str, Json]],
) -> list[str]:
    """Every prize card shown must be the seed's."""
    deck = prize_deck(seed, config.cards)
    return [
        f"round {t['round']}: prize {t['card']} shown, the seed gives {deck[t['round'] - 1]}"
        for t in truths
        if t.get("type") == "prize" and deck[int(t["round"]) - 1] != t["card"]
    ]


def standin(game: Game, seat: int) -> str | None:
    """An absent player bids its lowest card."""
    legal = game.legal_actions(seat)
    return str(min(legal)) if legal else None


ENGINE = Engine(
    name=Goofspiel.name,
    config_type=GoofspielConfig,
    game_type=Goofspiel,
    new_game=new_game,
    min_seats=2,
    max_seats=MAX_SEATS,
    with_seats=with_seats,
    stats=stats,
    verify=verify,
    standin_policy=standin,
    title=Text(en="Goofspiel", it="Goofspiel"),
)
