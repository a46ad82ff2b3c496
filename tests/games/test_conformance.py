"""One conformance suite for every engine: Perudo, Kriegspiel and Goofspiel (a game that
lives only in the tests, registered through ``server.games.register``).

Everything here goes through the engine contract (``server.games.engine(name)``) and the
shared ``Game`` interface, never through a game's own classes, so a new engine passes or
fails it as it is. Seeded random playouts (OpenSpiel's ``random_sim_test``), per engine
and config:

- every action ``legal_actions`` offers any seat is accepted, and a seat to move always has
  one;
- refusals change nothing: garbage, stale actions, other seats' actions, bad seats and
  forfeit spellings raise ``IllegalAction`` (with a known code) and leave every viewer's
  ``view``, every seat's ``legal_actions``, the history and the outcome unchanged;
- replay equality: ``replay(config, seed, history)`` gives identical events (truth and
  every projection) and identical views;
- no projection leaks, checked generically:
  * a spectator hears only what every seat hears (each spectator projection is part of
    every seat's projection of the same event);
  * a projection is a function of the event's truth and the viewer (nothing outside the
    log reaches a viewer);
  * non-interference of snapshots: two games in which a viewer received exactly the same
    projections (the seed's public commitment aside) must show that viewer the same
    ``view`` and, for a seat, the same ``legal_actions`` while the game goes on; random
    games of small configs collide often, and the test asserts that they did.
  The event streams themselves are checked against what each viewer may know by the
  engines' structural checkers (``kriegspiel_leakcheck.py``, the Perudo hidden-dice
  properties), which need each game's notion of a secret.
- the engine contract: seat range and ``with_seats``, statistics from public events
  (every game's result keys), ``verify`` passes on an honest log and a record when the
  engine has a format.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from server.games import engine, engine_names, register
from server.games.base import ILLEGAL_CODES, ConfigError, Event, Game, IllegalAction
from server.games.spec import Engine

register("goofspiel", "tests.games.goofspiel")

#: (engine, options, games, max actions per game): small configs make snapshot collisions.
CASES: list[tuple[str, dict[str, Any], int, int]] = [
    ("perudo", {"seats": 2, "dice_per_player": 1}, 150, 60),
    ("perudo", {"seats": 3, "dice_per_player": 2, "preset": "classic", "calza": True}, 40, 120),
    ("kriegspiel", {"rules": "wild16"}, 40, 60),
    ("kriegspiel", {"rules": "english"}, 25, 60),
    ("kriegspiel", {"rules": "rand"}, 25, 60),
    ("goofspiel", {"seats": 2, "cards": 3}, 150, 40),
    ("goofspiel", {"seats": 3, "cards": 5}, 40, 60),
]

GARBAGE: list[Any] = [
    "",
    " ",
    "x",
    "0",
    "-1",
    "99",
    "1x",
    "x1",
    "0x0",
    "e9e9",
    "a1",
    "??",
    "ü",
    "forfeit:timeout",
    "forfeit:abandoned",
    "DUDO ",
    None,
    3.5,
]

_COMMITMENT = "<commitment>"


def _strip(value: Any, commitment: str) -> Any:
    """``value`` with the seed's public commitment blanked (it reveals nothing)."""
    if isinstance(value, dict):
        return {k: _strip(v, commitment) for k, v in value.items()}
    if isinstance(value, list):
        return [_strip(v, commitment) for v in value]
    return _COMMITMENT if value == commitment else value


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _events_key(events: list[Event]) -> list[tuple[str, tuple[str, ...], str]]:
    return [(_dump(e.truth), tuple(_dump(s) for s in e.seats), _dump(e.spectator)) for e in events]


def _viewers(game: Game) -> list[int | None]:
    return [*range(game.num_seats), None]


def _snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a refusal must leave untouched."""
    return (
        tuple(_dump(game.view(v)) for v in _viewers(game)),
        tuple(tuple(str(a) for a in game.legal_actions(s)) for s in range(game.num_seats)),
        tuple(game.history),
        game.to_move,
        game.outcome,
    )


@dataclass
class Tally:
    """What one case's playouts saw (so that no check is vacuous)."""

    actions: int = 0
    refusals: int = 0
    codes: set[str] = field(default_factory=set)
    collisions: int = 0
    games_over: int = 0
    by_truth: dict[tuple[str, int | None], str] = field(default_factory=dict)
    by_stream: dict[tuple[int | None, bytes], str] = field(default_factory=dict)


class Playout:
    """One random game, driven only through the engine contract, checked as it goes."""

    def __init__(self, eng: Engine, config: Any, seed: bytes, rng: random.Random, tally: Tally):
        self.eng = eng
        self.config = config
        self.seed = seed
        self.rng = rng
        self.tally = tally
        self.game, opening = eng.new_game(config, seed)
        self.events: list[Event] = list(opening)
        self.commitment = hashlib.sha256(seed).hexdigest()
        viewers = _viewers(self.game)
        self.streams = {v: hashlib.sha256() for v in viewers}
        self._heard(opening)
        self._check_snapshots()

    # -- driving ---------------------------------------------------------------------

    def run(self, max_actions: int) -> None:
        for step in range(max_actions):
            if self.rng.random() < 0.3:
                self.probe()  # a probe accepted after all may end the game
            if self.game.is_over:
                break
            if step % 7 == 3:
                self.check_all_legal_accepted()
            self.step(keep_going=step < max_actions // 2)
        self.check_replay()

    def step(self, keep_going: bool) -> None:
        game = self.game
        mover = game.to_move
        assert mover is not None, "a game not over must wait for a seat"
        legal = game.legal_actions(mover)
        assert legal, f"seat {mover} is to move but has no legal action"
        seat = mover
        if self.rng.random() < 0.1:  # sometimes a seat not to move acts, where it may
            others = [s for s in range(game.num_seats) if s != mover and game.legal_actions(s)]
            if others:
                seat = self.rng.choice(others)
                legal = game.legal_actions(seat)
        action = self.rng.choice(legal)
        events = game.apply(seat, action)
        if game.is_over and keep_going and self.rng.random() < 0.8:
            # Ending early (a resignation, say) cuts the playout short: take it back by
            # replaying the history without it, and play on.
            self.game, _ = self.eng.replay(self.config, self.seed, game.history[:-1])
            return
        self.tally.actions += 1
        self.tally.games_over += game.is_over
        self._accept(events)

    def _accept(self, events: list[Event]) -> None:
        self.events.extend(events)
        self._heard(events)
        self._check_snapshots()

    # -- refusals --------------------------------------------------------------------

    def probe(self) -> None:
        """Send something probably refused; a refusal must change nothing at all."""
        game = self.game
        if game.is_over:
            return
        n = game.num_seats
        pool: list[tuple[Any, Any]] = [(self.rng.randrange(n), g) for g in GARBAGE]
        pool += [(self.rng.randrange(n), r.action) for r in game.history[-4:]]
        for seat in range(n):
            for other in range(n):
                if other != seat:
                    offered = game.legal_actions(other)
                    if offered:
                        pool.append((seat, str(self.rng.choice(offered))))
        pool += [(-1, "x"), (n, "x"), (True, "x"), ("0", "x"), (None, "x")]
        seat, action = self.rng.choice(pool)
        before = _snapshot(game)
        try:
            events = game.apply(seat, action)
        except IllegalAction as exc:
            assert exc.code in ILLEGAL_CODES
            assert _snapshot(game) == before, f"refused {action!r} for seat {seat} changed state"
            self.tally.refusals += 1
            self.tally.codes.add(exc.code)
            return
        # Accepted after all (another seat's offer may be legal for this one too): it is a
        # move like any other.
        assert isinstance(seat, int) and isinstance(action, str), (seat, action)
        self.tally.actions += 1
        self._accept(events)

    def check_all_legal_accepted(self) -> None:
        """Every action ``legal_actions`` offers any seat is accepted (tried on copies)."""
        game = self.game
        for seat in range(game.num_seats):
            offered = game.legal_actions(seat)
            for action in self.rng.sample(offered, min(len(offered), 4)):
                twin = copy.deepcopy(game)
                twin.apply(seat, str(action))  # raises if refused
                self.tally.actions += 1

    # -- replay and leaks ------------------------------------------------------------

    def check_replay(self) -> None:
        game = self.game
        again, events = self.eng.replay(self.config, self.seed, list(game.history))
        assert _events_key(events) == _events_key(self.events)
        assert again.history == game.history
        assert again.outcome == game.outcome and again.to_move == game.to_move
        for viewer in _viewers(game):
            assert again.view(viewer) == game.view(viewer)

    def _heard(self, events: list[Event]) -> None:
        n = self.game.num_seats
        for event in events:
            truth = event.truth
            assert len(event.seats) == n
            _dump(truth)  # JSON-compatible
            spectator = event.spectator
            for viewer in _viewers(self.game):
                projection = event.view(viewer)
                if projection is None:
                    continue
                assert projection["type"] == truth["type"], (projection, truth)
                key = (_dump(truth), viewer)
                text = _dump(projection)
                seen = self.tally.by_truth.setdefault(key, text)
                assert seen == text, f"one truth, two projections for {viewer}: {seen} / {text}"
                if viewer is not None and spectator is not None:
                    for name, value in spectator.items():
                        assert projection.get(name) == value, (
                            f"the spectator hears {name}={value!r}, seat {viewer} does not: "
                            f"{projection}"
                        )
                self.streams[viewer].update(_dump(_strip(projection, self.commitment)).encode())

    def _check_snapshots(self) -> None:
        """A viewer's snapshot and legal actions are a function of what it received
        (while the game goes on: at its end the views reveal everything)."""
        game = self.game
        if game.is_over:
            return
        for viewer in _viewers(game):
            legal = [] if viewer is None else [str(a) for a in game.legal_actions(viewer)]
            seen = _dump([_strip(game.view(viewer), self.commitment), legal])
            key = (viewer, self.streams[viewer].digest())
            known = self.tally.by_stream.setdefault(key, seen)
            if known is not seen:
                self.tally.collisions += 1
                assert known == seen, (
                    f"viewer {viewer} received the same projections in two games but is "
                    f"shown {known} and {seen}"
                )


def _cases() -> Iterator[Any]:
    for name, options, games, steps in CASES:
        label = f"{name}-" + "-".join(f"{k}={v}" for k, v in options.items())
        yield pytest.param(name, options, games, steps, id=label)


@pytest.mark.parametrize(("name", "options", "games", "steps"), list(_cases()))
def test_random_playouts(name: str, options: dict[str, Any], games: int, steps: int) -> None:
    eng = engine(name)
    config = eng.make_config(options)
    rng = random.Random(f"conformance/{name}/{_dump(options)}")
    tally = Tally()
    for index in range(games):
        seed = rng.randbytes(8) if rng.random() < 0.5 else bytes([index % 3 + 1])
        Playout(eng, config, seed, rng, tally).run(steps)
    assert tally.actions >= games * 3
    assert tally.refusals >= games // 2
    assert {"malformed", "not_your_turn"} <= tally.codes
    assert tally.games_over >= games // 3
    assert tally.collisions >= 10, f"only {tally.collisions} snapshot collisions: weak check"


# -- the contract itself ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["perudo", "kriegspiel", "goofspiel"])
def test_engine_contract(name: str) -> None:
    assert name in engine_names()
    eng = engine(name)
    assert eng.name == name == eng.game_type.name
    assert 1 <= eng.min_seats <= eng.max_seats
    config = eng.make_config({})
    for n in range(eng.min_seats, eng.max_seats + 1):
        assert eng.with_seats(config, n).seats == n
        assert eng.make_config(eng.with_seats(config, n).to_options()).seats == n
    for n in (eng.min_seats - 1, eng.max_seats + 1):
        with pytest.raises(ConfigError, match=f"{name} needs"):
            eng.with_seats(config, n)
    assert (eng.record_format is None) or isinstance(eng.record_format, str)
    assert eng.standin_bot is None or eng.standin_policy is not None


@pytest.mark.parametrize("name", ["perudo", "kriegspiel", "goofspiel"])
def test_stats_verify_record_and_standin(name: str) -> None:
    """A game played by the stand-in policy (or the first legal action) to its end."""
    eng = engine(name)
    config = eng.with_seats(eng.make_config({}), eng.min_seats)
    seed = b"contract"
    game, events = eng.new_game(config, seed)
    for _ in range(2000):
        mover = game.to_move
        if mover is None:
            break
        action = eng.standin_policy(game, mover) if eng.standin_policy else None
        if action is None:
            action = str(game.legal_actions(mover)[0])
        events += game.apply(mover, action)
    else:
        events += game.forfeit(0, "abandoned")
    outcome = game.outcome
    assert outcome is not None
    public = eng.public_record(events)
    for event in events:  # after the game, only what some participant saw becomes public
        shown = eng.after_game(event)
        assert shown is None or shown is event.spectator or any(shown is p for p in event.seats)
    stats = eng.stats(public, outcome, config.seats)
    assert len(stats) == config.seats
    for seat, values in enumerate(stats):
        assert values["games"] == 1
        assert sum(values.get(k, 0) for k in ("wins", "draws", "losses")) == 1, values
        assert all(isinstance(v, int | float) for v in values.values())
        assert (values.get("wins", 0) == 1) == (outcome.ranks[seat] == 1 and not outcome.is_draw)
    truths = [e.truth for e in events]
    assert eng.verify(config, seed, list(game.history), truths) == []
    text = eng.record_text(game, ["ana", None], None)
    assert (text is None) == (eng.record_format is None)


def test_perudo_verify_catches_a_loaded_die() -> None:
    eng = engine("perudo")
    config = eng.make_config({"seats": 2})
    game, events = eng.new_game(config, b"fair")
    truths = [copy.deepcopy(e.truth) for e in events]
    rolled = next(t for t in truths if t["type"] == "round_started")
    rolled["dice"][0][0] = rolled["dice"][0][0] % 6 + 1
    assert eng.verify(config, b"fair", list(game.history), truths)


def test_goofspiel_verify_catches_a_stacked_deck() -> None:
    eng = engine("goofspiel")
    config = eng.make_config({"cards": 5})
    game, events = eng.new_game(config, b"fair")
    truths = [dict(e.truth) for e in events]
    prize = next(t for t in truths if t["type"] == "prize")
    prize["card"] = prize["card"] % 5 + 1
    assert eng.verify(config, b"fair", list(game.history), truths)


def test_register_refuses_a_taken_name_and_a_module_without_engine() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register("perudo", "tests.games.goofspiel")
    with pytest.raises(TypeError, match="exports no ENGINE"):
        register("nothing", "tests.games.test_base")
    assert "nothing" not in engine_names()
    with pytest.raises(ValueError, match="not 'chess'"):
        register("chess", "tests.games.goofspiel")
    assert register("goofspiel", "tests.games.goofspiel") is engine("goofspiel")
