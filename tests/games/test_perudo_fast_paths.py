"""Perudo's hot paths rewritten for speed give exactly what the plain versions gave.

``parse_action`` reads canonical texts from a table before its regular expression, and
``stats`` tallies without a helper call per count (docs/benchmarks-history.md, "Speed, round 3");
the reference implementations below are the versions they replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games.base import IllegalAction, Json, Outcome
from server.games.perudo import PerudoConfig
from server.games.perudo_actions import BIDS, Bid, parse_action
from server.games.perudo_stats import stats
from server.games.spec import add, result_stats
from tests.games.test_perudo_properties import options_strategy, play_random_game


def reference_stats(
    public_events: Sequence[dict[str, Json]], outcome: Outcome, seats: int
) -> list[dict[str, float]]:
    """``perudo_stats.stats`` as it was before it was made faster."""
    out = result_stats(outcome, seats)
    for seat in range(seats):
        add(out[seat], "players", seats)
    challenge: dict[str, Any] | None = None
    round_bids: list[tuple[int, int, int]] = []
    aces_wild = True
    for event in public_events:
        kind = event.get("type")
        if kind == "bid":
            add(out[event["seat"]], "bids")
            round_bids.append((event["seat"], event["quantity"], event["face"]))
            if isinstance(event.get("next"), int):
                add(out[event["next"]], "dudo_chances")
        elif kind == "challenge":
            challenge = event
            if event["kind"] == "dudo":
                add(out[event["seat"]], "dudo_calls")
                add(out[event["bidder"]], "bids_challenged")
            else:
                add(out[event["seat"]], "calza_calls")
        elif kind == "reveal":
            shown = {cup["seat"]: cup["dice"] for cup in event.get("revealed", [])}
            wild = bool(event.get("aces_wild", aces_wild))
            for seat, _, face in round_bids:
                if seat in shown:
                    add(out[seat], "bids_revealed")
                    held = any(d == face or (wild and face != 1 and d == 1) for d in shown[seat])
                    if not held:
                        add(out[seat], "bluffs")
        if kind == "reveal" and challenge is not None:
            if challenge["kind"] == "dudo":
                if event.get("bid_true"):
                    add(out[challenge["bidder"]], "bids_true_challenged")
                else:
                    add(out[challenge["seat"]], "dudo_correct")
        elif kind == "dice_changed" and event.get("reason") == "won_calza":
            add(out[event["seat"]], "calza_correct")
        elif kind == "round_started":
            challenge = None
            round_bids = []
            aces_wild = bool(event.get("aces_wild", True))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy(), seed=st.binary(min_size=1, max_size=32), rng=st.randoms())
def test_stats_equal_the_reference(options: dict[str, Any], seed: bytes, rng: Any) -> None:
    config = PerudoConfig.from_options({**options, "max_players": 8})
    game, events = play_random_game(config, seed, rng, forfeit_rate=rng.choice([0.0, 0.01]))
    public = [e.spectator for e in events if e.spectator is not None]
    assert game.outcome is not None
    expected = reference_stats(public, game.outcome, config.seats)
    got = stats(public, game.outcome, config.seats)
    assert got == expected
    assert [list(seat) for seat in got] == [list(seat) for seat in expected]  # key order too


def reference_parse(text: Any) -> Any:
    """``parse_action``'s answer without its table of canonical texts: the action, or the
    refusal's code and message."""
    if not isinstance(text, str):
        return ("malformed", f"an action is a string, not {type(text).__name__}")
    word = text.strip().lower()
    if word in ("dudo", "calza"):
        return word
    if len(text) > 16:
        return ("malformed", "an action is a bid like 5x4, dudo or calza")
    try:
        return Bid.parse(text)
    except IllegalAction as exc:
        return (exc.code, exc.reason)


def answer(text: Any) -> Any:
    try:
        action = parse_action(text)
    except IllegalAction as exc:
        return (exc.code, exc.reason)
    return action if isinstance(action, Bid) else str(action)


CANONICAL = ["dudo", "calza"] + [str(bid) for row in BIDS[1:] for bid in row[1:]]


def test_every_canonical_text_parses_as_before() -> None:
    for text in CANONICAL:
        assert answer(text) == reference_parse(text)
        if text[0].isdigit():
            assert str(parse_action(text)) == text


@given(st.sampled_from(CANONICAL).map(lambda t: t.upper()) | st.text(max_size=20) | st.integers())
def test_any_input_parses_as_before(text: Any) -> None:
    assert answer(text) == reference_parse(text)
