"""Perudo (Liar's dice): the dice master's rules engine.

The rules are those of ``shared/rules/perudo.md``: the ``piatnik`` preset (the source's
rules, the default) and ``classic``, with the options ``calza``, ``reveal``,
``show_dice_counts``, ``dice_per_player``, ``max_players`` and ``palifico``.

Dice come only from the game seed: die ``d`` of seat ``s`` in round ``r`` is
``draw(seed, "perudo/round/r/seat/s/die/d", 6) + 1`` and the first round's starter is
``draw(seed, "perudo/starter", seats)``, so :func:`verify` can recompute every roll from a
log once the seed is revealed.

Seats are numbered clockwise: play passes from seat ``s`` to the next seat still in the
game after it. Face 1 is the ace.

Events (``truth["type"]``; each viewer's projection is documented in docs/perudo.md):
``game_started``, ``round_started``, ``bid``, ``challenge``, ``reveal``, ``dice_changed``,
``forfeit``, ``game_over``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, Self

from server.games.base import (
    ConfigError,
    Event,
    Game,
    IllegalAction,
    Json,
    Outcome,
    Record,
    Viewer,
    replay,
    seed_commitment,
)
from server.games.perudo_actions import (
    BIDS,
    CALZA,
    DUDO,
    FACES,
    Action,
    Bid,
    Calza,
    Dudo,
    count_matching,
    ordinary_raise_error,
    ordinary_raises,
    parse_action,
    raise_error,
    raises,
)
from server.games.perudo_dice import first_starter, roll_dice, verify
from server.games.perudo_standin import standin
from server.games.perudo_stats import stats
from server.games.spec import Engine, Option, Text, check_seat_count

# -- configuration -----------------------------------------------------------------------

Reveal = Literal["until_proven", "all"]
PalificoAces = Literal["ordinary", "wild_conversion"]

PRESETS: dict[str, dict[str, Any]] = {
    "piatnik": {
        "calza": False,
        "reveal": "until_proven",
        "show_dice_counts": False,
        "palifico": True,
    },
    "classic": {"calza": False, "reveal": "all", "show_dice_counts": True, "palifico": True},
}


#: legal_texts by situation (total dice, last bid, palifico, one die left, calza, aces rule)
_LEGAL_TEXTS: dict[tuple[object, ...], tuple[str, ...]] = {}


@dataclass(frozen=True, slots=True)
class PerudoConfig:
    """Perudo options: presets piatnik (default) and classic; seats 2..max_players (<= 8),
    dice_per_player 1..10, calza, reveal (until_proven | all), show_dice_counts, palifico,
    palifico_aces (ordinary | wild_conversion: how a one-die player may bid aces in a
    palifico round; see docs/perudo.md)."""

    seats: int = 4
    preset: str = "piatnik"
    dice_per_player: int = 5
    max_players: int = 6
    calza: bool = False
    reveal: Reveal = "until_proven"
    show_dice_counts: bool = False
    palifico: bool = True
    palifico_aces: PalificoAces = "ordinary"

    _BOOLS: ClassVar[tuple[str, ...]] = ("calza", "show_dice_counts", "palifico")

    #: The presets by name: the values a preset gives (``umpire rules`` prints them).
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = PRESETS
    #: What a client may say of each preset (``server.wire.catalogue``), in every language.
    PRESET_HELP: ClassVar[dict[str, Text]] = {
        "piatnik": Text(
            en="the Piatnik rules (the default): cups are shown until the bid is proven, "
            "dice counts are hidden",
            it="le regole Piatnik (predefinite): si scoprono i bicchieri fino alla prova, "
            "quanti dadi ha ciascuno resta nascosto",
        ),
        "classic": Text(
            en="the classic rules: every cup is shown, everyone sees the dice counts",
            it="le regole classiche: si scoprono tutti i bicchieri, tutti vedono quanti "
            "dadi ha ciascuno",
        ),
    }
    #: Every option with its help, in plain text (``umpire rules`` and the catalogue).
    OPTIONS: ClassVar[dict[str, Option]] = {
        "seats": Option(
            Text(en="players, 2 to max_players", it="giocatori, da 2 a max_players"),
            min=2,
            max=8,
        ),
        "preset": Option(
            Text(
                en="piatnik (the Piatnik rules, the default) or classic; other options "
                "override the preset's values",
                it="piatnik (le regole Piatnik, predefinite) o classic; le altre opzioni "
                "prevalgono sui valori della variante",
            ),
            choices=tuple(PRESETS),
        ),
        "dice_per_player": Option(
            Text(
                en="dice each player starts with, 1 to 10",
                it="dadi con cui comincia ogni giocatore, da 1 a 10",
            ),
            min=1,
            max=10,
        ),
        "max_players": Option(
            Text(
                en="the most players the room takes, 2 to 8 (8 when seats > 6)",
                it="il massimo di giocatori al tavolo, da 2 a 8 (8 se seats > 6)",
            ),
            min=2,
            max=8,
        ),
        "calza": Option(
            Text(
                en="true: instead of raising or doubting, a player may call the bid exactly "
                "right (right: a die back; wrong: a die lost)",
                it="true: invece di rilanciare o dubitare, un giocatore può dire che la "
                "puntata è esatta (giusto: riprende un dado; sbagliato: ne perde uno)",
            )
        ),
        "reveal": Option(
            Text(
                en="until_proven (cups are shown from the challenger clockwise until the "
                "bid is proven true) or all (every cup is shown)",
                it="until_proven (si scoprono i bicchieri dallo sfidante in senso orario "
                "finché la puntata è provata vera) o all (si scoprono tutti)",
            ),
            choices=("until_proven", "all"),
        ),
        "show_dice_counts": Option(
            Text(
                en="true: everyone sees how many dice each player holds",
                it="true: tutti vedono quanti dadi ha ciascun giocatore",
            )
        ),
        "palifico": Option(
            Text(
                en="true: a player down to one die for the first time opens a Palifico "
                "round (aces not wild, the face locked); never with two players left",
                it="true: chi resta con un dado per la prima volta apre un giro Palifico "
                "(i paco non sono jolly, la faccia è bloccata); mai con due giocatori",
            )
        ),
        "palifico_aces": Option(
            Text(
                en="ordinary (in a Palifico round aces are an ordinary, lowest face: the "
                "source's rule) or wild_conversion (a one-die player may switch to aces "
                "with the halving and doubling of normal rounds)",
                it="ordinary (in un giro Palifico i paco sono una faccia normale, la più "
                "bassa: la regola della fonte) o wild_conversion (chi ha un dado può "
                "passare ai paco dimezzando e raddoppiando come nei giri normali)",
            ),
            choices=("ordinary", "wild_conversion"),
        ),
    }
    _INTS: ClassVar[tuple[str, ...]] = ("seats", "dice_per_player", "max_players")

    def __post_init__(self) -> None:
        for name in self._INTS:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"option {name} must be a whole number, not {value!r}")
        for name in self._BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"option {name} must be true or false")
        if self.preset not in PRESETS:
            raise ConfigError(f"unknown preset {self.preset!r}: choose one of {', '.join(PRESETS)}")
        if not 2 <= self.max_players <= 8:
            raise ConfigError(f"max_players must be 2 to 8, not {self.max_players}")
        if not 2 <= self.seats <= self.max_players:
            raise ConfigError(
                f"seats must be 2 to max_players ({self.max_players}), not {self.seats}"
            )
        if not 1 <= self.dice_per_player <= 10:
            raise ConfigError(f"dice_per_player must be 1 to 10, not {self.dice_per_player}")
        if self.reveal not in ("until_proven", "all"):
            raise ConfigError(f"reveal must be 'until_proven' or 'all', not {self.reveal!r}")
        if self.palifico_aces not in ("ordinary", "wild_conversion"):
            raise ConfigError(
                f"palifico_aces must be 'ordinary' or 'wild_conversion', not {self.palifico_aces!r}"
            )

    @classmethod
    def from_options(cls, options: Mapping[str, Json]) -> Self:
        """Build a config from room options: the preset's values, then the given options.

        Raises :class:`ConfigError` naming any unknown option or bad value.
        """
        if not isinstance(options, Mapping):
            raise ConfigError("options must be an object of option names to values")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ConfigError(
                f"unknown Perudo option {unknown[0]!r}: the options are {', '.join(sorted(known))}"
            )
        preset = options.get("preset", "piatnik")
        if preset not in PRESETS:
            raise ConfigError(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
        values = {**PRESETS[preset], **options}
        seats = values.get("seats")
        if "max_players" not in options and isinstance(seats, int) and seats > 6:
            values["max_players"] = 8
        return cls(**values)

    @classmethod
    def from_stored(cls, options: Mapping[str, Json]) -> Self:
        """The config of a logged game: a stored config has every option of its day, so
        one without ``palifico_aces`` was played before that option existed, when a
        one-die player converted aces in palifico rounds; it replays under that rule."""
        if "palifico_aces" not in options:
            options = {**options, "palifico_aces": "wild_conversion"}
        return cls.from_options(options)

    def to_options(self) -> dict[str, Json]:
        """Every option, explicitly, so the config rebuilds even if a preset changes."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def total_dice(self) -> int:
        """The dice at the start of the game: the most there can ever be in play."""
        return self.seats * self.dice_per_player


# -- the game ------------------------------------------------------------------------------


@dataclass(slots=True)
class _Round:
    """The state of the round in progress."""

    number: int
    starter: int
    palifico: int | None  # the seat that declared palifico, if this is a palifico round
    dice: list[list[int]]  # every seat's dice this round (empty for seats out)
    bids: list[tuple[int, Bid]] = field(default_factory=list)

    @property
    def aces_wild(self) -> bool:
        return self.palifico is None

    @property
    def last(self) -> tuple[int, Bid] | None:
        return self.bids[-1] if self.bids else None


class Perudo(Game):
    """A game of Perudo in progress. Create it with :func:`new_game`."""

    name = "perudo"

    def __init__(self, config: PerudoConfig, seed: bytes) -> None:
        super().__init__(seed)
        self._config = config
        #: a view's options and seed commitment never change: built once per game
        self._options = config.to_options()
        self._commitment = seed_commitment(seed)
        self.counts: list[int] = [config.dice_per_player] * config.seats
        self.palifico_used: set[int] = set()
        self.out_order: list[int] = []  # seats in the order they left the game
        self.round: _Round = _Round(0, 0, None, [])
        self.turn: int | None = None
        self._outcome: Outcome | None = None

    # -- interface -----------------------------------------------------------------------

    @property
    def config(self) -> PerudoConfig:
        return self._config

    @property
    def to_move(self) -> int | None:
        return self.turn

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text)

    def in_play(self, seat: int) -> bool:
        """A seat is in play while it holds dice (a forfeit takes them all)."""
        return super().in_play(seat) and self.counts[seat] > 0

    def active_seats(self) -> list[int]:
        """The seats still holding dice, in seat order."""
        return [s for s, n in enumerate(self.counts) if n > 0]

    def next_active(self, seat: int) -> int:
        """The first seat to the left of ``seat`` (clockwise) that still has dice."""
        n = self.num_seats
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.counts[candidate] > 0:
                return candidate
        raise AssertionError("no seat has dice")

    def legal_actions(self, seat: int) -> list[Action]:
        """Every bid that raises the current one (or may open the round), dudo and calza."""
        if self._outcome is not None or seat != self.turn:
            return []
        cap = self._config.total_dice
        last = self.round.last
        if last is None:
            faces = FACES if self.round.palifico is not None else range(2, 7)
            return [BIDS[q][f] for q in range(1, cap + 1) for f in faces]
        previous = last[1]
        actions: list[Action] = []
        if self.round.palifico is not None and self.counts[seat] != 1:
            actions.extend(BIDS[q][previous.face] for q in range(previous.quantity + 1, cap + 1))
        elif self._ordinary_aces():
            actions.extend(ordinary_raises(previous, cap))
        else:
            actions.extend(raises(previous, cap))
        actions.append(DUDO)
        if self._config.calza:
            actions.append(CALZA)
        return actions

    def _ordinary_aces(self) -> bool:
        """True when aces are an ordinary face in this round's raises (palifico, by default)."""
        return self.round.palifico is not None and self._config.palifico_aces == "ordinary"

    def legal_texts(self, seat: int) -> list[str]:
        """The texts of :meth:`legal_actions`, built once per situation (a turn frame lists
        up to ~180 bids, and the same situations come back again and again)."""
        if self._outcome is not None or seat != self.turn:
            return []
        last = self.round.last
        key = (
            self._config.total_dice,
            None if last is None else str(last[1]),
            self.round.palifico is not None,
            self.counts[seat] == 1,
            self._config.calza,
            self._config.palifico_aces,
        )
        texts = _LEGAL_TEXTS.get(key)
        if texts is None:
            texts = _LEGAL_TEXTS[key] = tuple(str(a) for a in self.legal_actions(seat))
        return list(texts)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if seat != self.turn:
            raise IllegalAction(
                f"not your turn: it is seat {self.turn}'s turn to bid", "not_your_turn"
            )
        if isinstance(action, Bid):
            return self._bid(seat, action)
        last = self.round.last
        if last is None:
            raise IllegalAction("there is no bid to challenge: open the round with a bid")
        if isinstance(action, Dudo):
            return self._challenge(seat, "dudo", last)
        if isinstance(action, Calza):
            if not self._config.calza:
                raise IllegalAction("calza is not allowed in this room")
            return self._challenge(seat, "calza", last)
        raise IllegalAction(f"{action!r} is not a Perudo action", "malformed")

    def _forfeit(self, seat: int, reason: str) -> list[Event]:
        if self.counts[seat] == 0:
            raise IllegalAction(f"seat {seat} is already out of the game")
        n = self.num_seats
        self.counts[seat] = 0
        self.out_order.append(seat)
        events = [
            Event.public(
                n,
                {"type": "forfeit", "seat": seat, "reason": reason, "round": self.round.number},
            )
        ]
        if self._ended():
            return events + self._finish("last_player_standing")
        # The round in progress is void; nothing of it is revealed. A new round is rolled,
        # started by this round's starter if still in, else the next player to its left.
        starter = self.round.starter
        if self.counts[starter] == 0:
            starter = self.next_active(starter)
        palifico = self.round.palifico
        if palifico is not None and (self.counts[palifico] == 0 or len(self.active_seats()) <= 2):
            palifico = None
        if palifico is not None:
            starter = palifico
        return events + self._start_round(starter, palifico)

    def view(self, viewer: Viewer) -> dict[str, Json]:
        """What ``viewer`` may know now: own dice, the round's bids, counts if shown."""
        cfg = self._config
        rnd = self.round
        snapshot: dict[str, Json] = {
            "game": self.name,
            "seats": cfg.seats,
            "options": dict(self._options),
            "seed_sha256": self._commitment,
            "round": rnd.number,
            "starter": rnd.starter,
            "palifico": rnd.palifico,
            "aces_wild": rnd.aces_wild,
            "to_move": self.turn,
            "bids": [{"seat": s, "bid": str(b)} for s, b in rnd.bids],
            "out": list(self.out_order),
            "outcome": self._outcome.to_json() if self._outcome else None,
        }
        if cfg.show_dice_counts:
            snapshot["counts"] = list(self.counts)
            snapshot["total_dice"] = sum(self.counts)
        if viewer is not None:
            snapshot["seat"] = viewer
            snapshot["dice"] = list(rnd.dice[viewer]) if self._outcome is None else []
            snapshot["dice_left"] = self.counts[viewer]
        if self._outcome is not None:
            snapshot["seed"] = self.seed.hex()
        return snapshot

    # -- the rules -----------------------------------------------------------------------

    def _bid(self, seat: int, bid: Bid) -> list[Event]:
        rnd = self.round
        cap = self._config.total_dice
        if bid.quantity > cap:
            raise IllegalAction(f"{bid}: there are never more than {cap} dice in this game")
        last = rnd.last
        if last is None:
            if bid.is_aces and rnd.palifico is None:
                raise IllegalAction("a round cannot open on aces outside palifico")
        else:
            previous = last[1]
            if rnd.palifico is not None and self.counts[seat] != 1:
                if bid.face != previous.face:
                    raise IllegalAction(
                        f"{bid}: in a palifico round the face stays {previous.face} "
                        "(only a player holding one die may change it)"
                    )
                if bid.quantity <= previous.quantity:
                    raise IllegalAction(
                        f"{bid} does not raise {previous}: bid more than {previous.quantity}"
                    )
            else:
                check = ordinary_raise_error if self._ordinary_aces() else raise_error
                error = check(previous, bid)
                if error is not None:
                    raise IllegalAction(error)
        rnd.bids.append((seat, bid))
        self.turn = self.next_active(seat)
        payload = {
            "type": "bid",
            "round": rnd.number,
            "seat": seat,
            "bid": str(bid),
            "quantity": bid.quantity,
            "face": bid.face,
            "next": self.turn,
        }
        return [Event.public(self.num_seats, payload)]

    def _challenge(self, seat: int, kind: str, last: tuple[int, Bid]) -> list[Event]:
        n = self.num_seats
        rnd = self.round
        bidder, bid = last
        events = [
            Event.public(
                n,
                {
                    "type": "challenge",
                    "round": rnd.number,
                    "kind": kind,
                    "seat": seat,
                    "bidder": bidder,
                    "bid": str(bid),
                },
            )
        ]
        # Reveal clockwise from the challenger; under until_proven stop once the bid is
        # proven true. A calza needs the exact count, so every cup is shown.
        order = [seat] + [s for s in self._clockwise_from(seat) if s != seat]
        reveal_all = kind == "calza" or self._config.reveal == "all"
        revealed: list[dict[str, Json]] = []
        count = 0
        for s in order:
            revealed.append({"seat": s, "dice": list(rnd.dice[s])})
            count += count_matching(rnd.dice[s], bid, rnd.aces_wild)
            if not reveal_all and count >= bid.quantity:
                break
        total = sum(count_matching(d, bid, rnd.aces_wild) for d in rnd.dice)
        complete = len(revealed) == len(order)
        public = {
            "type": "reveal",
            "round": rnd.number,
            "bid": str(bid),
            "aces_wild": rnd.aces_wild,
            "revealed": revealed,
            "count": count,
            "complete": complete,
            "bid_true": total >= bid.quantity,
        }
        truth = {**public, "dice": [list(d) for d in rnd.dice], "total": total}
        events.append(Event(truth, (public,) * n, public))

        # The one player whose dice change starts the next round (or, if out, the next
        # player to the left).
        if kind == "dudo":
            starter = seat if total >= bid.quantity else bidder
            delta, reason = -1, "lost_dudo"
        elif total == bid.quantity:
            starter = seat
            delta = 1 if self.counts[seat] < self._config.dice_per_player else 0
            reason = "won_calza"
        else:
            starter, delta, reason = seat, -1, "lost_calza"
        first_time_on_one = self.counts[starter] == 2 and starter not in self.palifico_used
        events.extend(self._change_dice(starter, delta, reason))
        if self._ended():
            return events + self._finish("last_player_standing")
        palifico: int | None = None
        if first_time_on_one and self.counts[starter] == 1:
            self.palifico_used.add(starter)
            if self._config.palifico and len(self.active_seats()) > 2:
                palifico = starter
        if self.counts[starter] == 0:
            starter = self.next_active(starter)
        return events + self._start_round(starter, palifico)

    def _change_dice(self, seat: int, delta: int, reason: str) -> list[Event]:
        """Apply a loss (-1), gain (+1) or nothing (0, a calza at full dice) to ``seat``."""
        after = self.counts[seat] + delta
        self.counts[seat] = after
        out = after == 0
        if out:
            self.out_order.append(seat)
        public: dict[str, Json] = {
            "type": "dice_changed",
            "round": self.round.number,
            "seat": seat,
            "change": delta,
            "reason": reason,
            "out": out,
        }
        truth = {**public, "dice_left": after}
        if self._config.show_dice_counts:
            public = truth
        seats = tuple(truth if s == seat else public for s in range(self.num_seats))
        return [Event(truth, seats, public)]

    def _clockwise_from(self, seat: int) -> list[int]:
        n = self.num_seats
        return [(seat + i) % n for i in range(n) if self.counts[(seat + i) % n] > 0]

    def _ended(self) -> bool:
        return len(self.active_seats()) <= 1

    def _start_round(self, starter: int, palifico: int | None) -> list[Event]:
        number = self.round.number + 1
        dice = [roll_dice(self.seed, number, s, self.counts[s]) for s in range(self.num_seats)]
        self.round = _Round(number, starter, palifico, dice)
        self.turn = starter
        return [self._round_started()]

    def _round_started(self) -> Event:
        rnd, cfg = self.round, self._config
        public: dict[str, Json] = {
            "type": "round_started",
            "round": rnd.number,
            "starter": rnd.starter,
            "palifico": rnd.palifico,
            "aces_wild": rnd.palifico is None,
        }
        if cfg.show_dice_counts:
            public["counts"] = list(self.counts)
            public["total_dice"] = sum(self.counts)
        dice = rnd.dice
        truth = {**public, "dice": [list(d) for d in dice], "counts": list(self.counts)}
        seats = tuple({**public, "seat": s, "dice": list(dice[s])} for s in range(cfg.seats))
        return Event(truth, seats, public)

    def redeal(self, dice: Sequence[Sequence[int]]) -> Event:
        """Replace the dice of the round just started (no bid yet) with ``dice`` and return
        its ``round_started`` event again, with them.

        For simulators that own chance (the OpenSpiel game draws each die as a chance
        node); a served game never calls it, and ``verify`` would refuse a log whose dice
        are not the seed's."""
        rnd = self.round
        if self._outcome is not None or rnd.number == 0 or rnd.bids:
            raise IllegalAction("dice can be dealt again only before a round's first bid")
        if [len(d) for d in dice] != [len(d) for d in rnd.dice]:
            raise IllegalAction(f"this round's dice counts are {[len(d) for d in rnd.dice]}")
        if any(not (isinstance(f, int) and 1 <= f <= 6) for d in dice for f in d):
            raise IllegalAction(f"dice show 1 to 6, not {[list(d) for d in dice]}")
        rnd.dice = [list(d) for d in dice]
        return self._round_started()

    def _finish(self, reason: str) -> list[Event]:
        winner = self.active_seats()
        placing = winner + list(reversed(self.out_order))
        ranks = [0] * self.num_seats
        for place, seat in enumerate(placing, start=1):
            ranks[seat] = place
        self._outcome = Outcome(tuple(ranks), reason)
        self.turn = None
        payload = {
            "type": "game_over",
            "round": self.round.number,
            **self._outcome.to_json(),
            "placing": placing,
            "seed": self.seed.hex(),
        }
        return [Event.public(self.num_seats, payload)]


def new_game(config: PerudoConfig, seed: bytes) -> tuple[Perudo, list[Event]]:
    """Start a game: return it and its opening events (``game_started``, ``round_started``).

    ``seed`` is the game's secret (32 random bytes from ``secrets``); the first event
    publishes its SHA-256 and the last one reveals it.
    """
    if not isinstance(config, PerudoConfig):
        raise ConfigError(f"a Perudo game needs a PerudoConfig, not {type(config).__name__}")
    if not seed:
        raise ConfigError("a game needs a non-empty seed")
    game = Perudo(config, seed)
    starter = first_starter(seed, config.seats)
    opening = Event.public(
        config.seats,
        {
            "type": "game_started",
            "game": Perudo.name,
            "seats": config.seats,
            "options": config.to_options(),
            "seed_sha256": seed_commitment(seed),
        },
    )
    return game, [opening, *game._start_round(starter, None)]


def replay_game(
    config: PerudoConfig, seed: bytes, records: Iterable[Record | Sequence[Any]]
) -> tuple[Perudo, list[Event]]:
    """:func:`~server.games.base.replay` typed for Perudo."""
    game, events = replay(new_game, config, seed, records)
    assert isinstance(game, Perudo)
    return game, events


def with_seats(config: PerudoConfig, n: int) -> PerudoConfig:
    """``config`` for ``n`` players (2 to 8). As with the ``seats`` option, ``max_players``
    rises to 8 by itself when it is at its default (6) and ``n`` is more."""
    check_seat_count("perudo", n, 2, 8)
    options = config.to_options()
    options["seats"] = n
    if n > config.max_players and config.max_players == 6:
        options["max_players"] = 8
    return PerudoConfig.from_options(options)


def _verify(
    config: PerudoConfig, seed: bytes, records: Sequence[Record], truths: Sequence[dict[str, Json]]
) -> list[str]:
    return verify(config.seats, seed, list(truths))


#: The Perudo engine: what the server needs to know about the game (server.games.spec).
ENGINE = Engine(
    name=Perudo.name,
    config_type=PerudoConfig,
    game_type=Perudo,
    new_game=new_game,
    min_seats=2,
    max_seats=8,
    with_seats=with_seats,
    stats=stats,
    verify=_verify,
    standin_policy=standin,
    standin_bot="perudo-simple",
    title=Text(en="Perudo", it="Perudo"),
)

__all__ = [
    "CALZA",
    "DUDO",
    "ENGINE",
    "PRESETS",
    "Action",
    "Bid",
    "Calza",
    "Dudo",
    "Perudo",
    "PerudoConfig",
    "count_matching",
    "new_game",
    "parse_action",
    "raise_error",
    "replay_game",
    "roll_dice",
    "standin",
    "stats",
    "verify",
    "with_seats",
]
