"""OpenSkill's Plackett-Luce model (Weng and Lin), on a scale where a new player is 1500.

The ``openskill`` package's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) are
multiplied by 60 (written out exactly, as 25/3*60 is not exactly 500 in floating point),
so that a new player is mu 1500, sigma 500, with beta 250 and tau 5;
``kappa`` (a floor on a ratio of variances, without a unit) keeps its default. A seat is a
team of one; its placing is the outcome's rank (1 best; ties share a rank).

The numbers depend on the package's arithmetic: ``umpire ratings rebuild`` gives the
same numbers only with the same ``openskill`` version (pyproject.toml pins its range).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce


@dataclass(frozen=True, slots=True)
class Skill:
    """One player's skill: ``mu`` (the rating) and ``sigma`` (its deviation)."""

    mu: float
    sigma: float


class Placings:
    """Ratings from the placings of many-player games (Perudo)."""

    def __init__(
        self,
        mu: float = 1500.0,
        sigma: float = 500.0,
        beta: float = 250.0,
        tau: float = 5.0,
    ) -> None:
        self.mu = mu
        self.sigma = sigma
        self._model = PlackettLuce(mu=mu, sigma=sigma, beta=beta, tau=tau)

    def new(self) -> Skill:
        """A player's skill before its first rated game."""
        return Skill(self.mu, self.sigma)

    def rate(self, skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
        """Every seat's skill after one game in which seat ``i`` placed ``ranks[i]``."""
        if len(skills) != len(ranks) or len(skills) < 2:
            raise ValueError(f"{len(skills)} skills for {len(ranks)} ranks: need 2 or more of each")
        teams = [[self._model.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
        rated = self._model.rate(teams, ranks=[float(r) for r in ranks])
        return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]
