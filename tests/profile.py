"""The test profile: how deep the property tests and seeded playouts go.

``UMPIRE_HYPOTHESIS_PROFILE`` names it, ``ci`` by default, so that a plain ``python -m
pytest`` is deterministic and fits CI's time: every hypothesis test runs the same examples
on every run, and every seeded playout loop its own count. ``explore`` is for local runs
that look for new failures: random hypothesis seeds with ten times the examples, and ten
times the playouts (``playouts``), each loop going on past CI's seeds into new ones.
``tests/conftest.py`` registers and loads the hypothesis profiles.
"""

from __future__ import annotations

import os

#: the environment variable that names the profile, and its default
PROFILE_VARIABLE = "UMPIRE_HYPOTHESIS_PROFILE"
DEFAULT_PROFILE = "ci"
#: how many times its own count a seeded playout loop plays, per profile
PLAYOUT_FACTOR = {"ci": 1, "explore": 10}


def profile_name() -> str:
    """The profile this run loads (``ci`` when the variable is unset or empty)."""
    return os.environ.get(PROFILE_VARIABLE) or DEFAULT_PROFILE


def playouts(count: int) -> int:
    """How many games a seeded playout loop whose CI count is ``count`` plays in this run:
    the first ``count`` are always CI's, so a failure CI met is met again."""
    return count * PLAYOUT_FACTOR.get(profile_name(), 1)
