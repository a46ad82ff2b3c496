"""Glicko-2, exactly as Glickman's paper describes it ("Example of the Glicko-2 system",
Mark E. Glickman, 2013-2022), pure and deterministic.

A rating is ``(rating, deviation, volatility)`` on the Glicko scale (a new player is
1500 / 350 / 0.06). :meth:`Glicko2.update` is the paper's steps 2 to 8 for one player and
one rating period: the opponents' ratings *before* the period and the scores (1 a win,
0.5 a draw, 0 a loss). umpire makes each game its own rating period (as lichess does), so
a game's two updates both read the ratings the players had when it started.

The paper's example (``tests/server/ratings/test_glicko2.py``): 1500/200/0.06 against
1400/30 (win), 1550/100 (loss) and 1700/300 (loss) gives 1464.06 / 151.52 / 0.05999.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The paper's conversion between the Glicko scale and Glicko-2's (step 2).
SCALE = 173.7178
#: Where the Glicko scale is centred: a new player's rating.
CENTRE = 1500.0


@dataclass(frozen=True, slots=True)
class Glicko:
    """One player's Glicko-2 rating on the Glicko scale: ``rating`` (r), ``deviation``
    (RD) and ``volatility`` (sigma)."""

    rating: float
    deviation: float
    volatility: float


def _g(phi: float) -> float:
    """The paper's g(phi): how much an opponent's uncertainty damps its result."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    """The paper's E(mu, mu_j, phi_j): the expected score against opponent j."""
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


@dataclass(frozen=True, slots=True)
class Glicko2:
    """The Glicko-2 system with its constants: ``tau`` (how much the volatility may
    change; the paper suggests 0.3 to 1.2, umpire uses 0.5), the convergence tolerance
    ``epsilon`` of step 5 (the paper's 0.000001) and a new player's rating."""

    tau: float = 0.5
    epsilon: float = 0.000001
    rating: float = CENTRE
    deviation: float = 350.0
    volatility: float = 0.06

    def new(self) -> Glicko:
        """A player's rating before its first rated game."""
        return Glicko(self.rating, self.deviation, self.volatility)

    def update(self, player: Glicko, results: Sequence[tuple[Glicko, float]]) -> Glicko:
        """``player``'s rating after one rating period in which it met each opponent of
        ``results`` (its rating at the period's start, and ``player``'s score: 1, 0.5 or
        0). With no games, only the deviation grows (step 6 alone)."""
        mu = (player.rating - CENTRE) / SCALE  # step 2
        phi = player.deviation / SCALE
        sigma = player.volatility
        if not results:
            phi_star = math.sqrt(phi * phi + sigma * sigma)
            return Glicko(player.rating, phi_star * SCALE, sigma)
        # step 3: the estimated variance v; step 4: the estimated improvement delta
        inverse_v = 0.0
        total = 0.0
        for opponent, score in results:
            if not 0.0 <= score <= 1.0:
                raise ValueError(f"a score is 0, 0.5 or 1 (between 0 and 1), not {score!r}")
            g_j = _g(opponent.deviation / SCALE)
            e_j = _expected(mu, (opponent.rating - CENTRE) / SCALE, g_j)
            inverse_v += g_j * g_j * e_j * (1.0 - e_j)
            total += g_j * (score - e_j)
        if inverse_v == 0.0:
            # every expected score is exactly 0 or 1 in floating point (ratings some 6,000
            # points apart): the games say nothing; only the deviation grows, as without games
            return self.update(player, [])
        v = 1.0 / inverse_v
        delta = v * total
        sigma_new = self._volatility(phi, sigma, v, delta)  # step 5
        phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)  # step 6
        phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
        mu_new = mu + phi_new * phi_new * total
        return Glicko(SCALE * mu_new + CENTRE, SCALE * phi_new, sigma_new)  # step 8

    def _volatility(self, phi: float, sigma: float, v: float, delta: float) -> float:
        """Step 5: the new volatility, by the Illinois algorithm as the paper gives it."""
        tau = self.tau
        a = math.log(sigma * sigma)
        phi2 = phi * phi
        delta2 = delta * delta

        def f(x: float) -> float:
            ex = math.exp(x)
            return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
                tau * tau
            )

        big_a = a
        if delta2 > phi2 + v:
            big_b = math.log(delta2 - phi2 - v)
        else:
            k = 1
            while f(a - k * tau) < 0:
                k += 1
            big_b = a - k * tau
        f_a = f(big_a)
        f_b = f(big_b)
        while abs(big_b - big_a) > self.epsilon:
            big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
            f_c = f(big_c)
            if f_c * f_b <= 0:
                big_a, f_a = big_b, f_b
            else:
                f_a = f_a / 2.0
            big_b, f_b = big_c, f_c
        return math.exp(big_a / 2.0)
