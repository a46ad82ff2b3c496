"""Glicko-2 (server/ratings/glicko2.py): the paper's worked example, and properties."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from server.ratings.glicko2 import CENTRE, SCALE, Glicko, Glicko2

SYSTEM = Glicko2()


def test_the_papers_example() -> None:
    """Glickman's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300,
    and ends at 1464.06 / 151.52 / 0.05999.

    The paper works on rounded intermediate values: its step 8 converts mu' = -0.2069 and
    phi' = 0.8722 (rounded to 4 decimals), which gives 1464.06 and 151.52. Unrounded, the
    rating is 1464.0507; so the Glicko-2 scale values are checked to the paper's 4
    decimals, their conversion to its 2, and the exact result to within the paper's own
    rounding (0.01). The volatility, 0.0599960, is given by its first five decimals."""
    player = Glicko(1500.0, 200.0, 0.06)
    results = [
        (Glicko(1400.0, 30.0, 0.06), 1.0),
        (Glicko(1550.0, 100.0, 0.06), 0.0),
        (Glicko(1700.0, 300.0, 0.06), 0.0),
    ]
    after = SYSTEM.update(player, results)
    mu = (after.rating - CENTRE) / SCALE
    phi = after.deviation / SCALE
    assert (round(mu, 4), round(phi, 4)) == (-0.2069, 0.8722)
    assert math.floor(after.volatility * 100_000) / 100_000 == 0.05999  # 0.0599960
    assert round(SCALE * round(mu, 4) + CENTRE, 2) == 1464.06
    assert round(SCALE * round(phi, 4), 2) == 151.52
    assert abs(after.rating - 1464.06) < 0.01
    assert round(after.deviation, 2) == 151.52


def test_a_period_without_games_only_widens_the_deviation() -> None:
    player = Glicko(1500.0, 200.0, 0.06)
    after = SYSTEM.update(player, [])
    assert after.rating == 1500.0 and after.volatility == 0.06
    assert round(after.deviation, 2) == round(math.sqrt(200.0**2 + (0.06 * 173.7178) ** 2), 2)


def test_a_new_player() -> None:
    assert SYSTEM.new() == Glicko(1500.0, 350.0, 0.06)


ratings = st.builds(
    Glicko,
    st.floats(600.0, 2800.0),
    st.floats(30.0, 350.0),
    st.floats(0.03, 0.1),
)


@given(ratings, ratings)
def test_winning_raises_and_losing_lowers(a: Glicko, b: Glicko) -> None:
    win = SYSTEM.update(a, [(b, 1.0)])
    loss = SYSTEM.update(a, [(b, 0.0)])
    draw = SYSTEM.update(a, [(b, 0.5)])
    assert win.rating > a.rating > loss.rating
    assert win.rating > draw.rating > loss.rating
    for after in (win, loss, draw):
        assert math.isfinite(after.rating) and after.deviation > 0 and after.volatility > 0
        # step 7 never widens the deviation past step 6's
        widened = math.sqrt(a.deviation**2 + (after.volatility * 173.7178) ** 2)
        assert after.deviation <= widened + 1e-9


@given(ratings)
def test_equal_players_move_symmetrically(a: Glicko) -> None:
    win = SYSTEM.update(a, [(a, 1.0)])
    loss = SYSTEM.update(a, [(a, 0.0)])
    draw = SYSTEM.update(a, [(a, 0.5)])
    assert math.isclose(win.rating - a.rating, a.rating - loss.rating, abs_tol=1e-9)
    assert math.isclose(draw.rating, a.rating, abs_tol=1e-9)
    assert math.isclose(win.deviation, loss.deviation, abs_tol=1e-9)


@given(ratings, ratings)
def test_the_same_inputs_give_the_same_numbers(a: Glicko, b: Glicko) -> None:
    assert SYSTEM.update(a, [(b, 1.0)]) == SYSTEM.update(a, [(b, 1.0)])


@given(ratings, st.floats(600.0, 2700.0), st.floats(30.0, 350.0))
def test_beating_a_stronger_opponent_gains_more(a: Glicko, r: float, rd: float) -> None:
    weaker = Glicko(r, rd, 0.06)
    stronger = Glicko(r + 100.0, rd, 0.06)
    assert SYSTEM.update(a, [(stronger, 1.0)]).rating > SYSTEM.update(a, [(weaker, 1.0)]).rating


def test_results_that_say_nothing_in_floating_point() -> None:
    """Ratings so far apart that the expected score is exactly 1: no division by zero;
    the rating stays, only the deviation grows."""
    strong, weak = Glicko(9000.0, 30.0, 0.06), Glicko(500.0, 30.0, 0.06)
    after = SYSTEM.update(strong, [(weak, 0.0)])
    assert after.rating == 9000.0 and after.deviation > 30.0
