"""The hypothesis profile (tests/conftest.py): CI's is deterministic, and so is every test's
own ``@settings``, unless ``UMPIRE_HYPOTHESIS_PROFILE`` asks for another profile."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis.internal.conjecture import engine

from tests.conftest import SHRINK_SECONDS
from tests.profile import DEFAULT_PROFILE, PROFILE_VARIABLE, playouts

ROOT = Path(__file__).resolve().parents[1]


def _expected_profile() -> str:
    return os.environ.get(PROFILE_VARIABLE) or DEFAULT_PROFILE


def _settings_of(test: Any) -> settings | None:
    """The settings a hypothesis test runs with (``None``: not a hypothesis test)."""
    inner = getattr(test, "hypothesis", None)
    if inner is None:
        return None
    found: settings = test._hypothesis_internal_use_settings
    return found


def test_the_expected_profile_is_loaded() -> None:
    name = _expected_profile()
    assert settings.get_current_profile_name() == name
    assert SHRINK_SECONDS[name] == engine.MAX_SHRINKING_SECONDS
    if name == "ci":
        current = settings()
        assert current.derandomize and current.database is None
        assert current.deadline is None and current.print_blob


def test_a_plain_run_loads_the_deterministic_profile() -> None:
    """With the variable unset (the README's ``python -m pytest``), ``ci`` is loaded."""
    env = {k: v for k, v in os.environ.items() if k not in (PROFILE_VARIABLE, "CI")}
    code = (
        "import tests.conftest\n"
        "from hypothesis import settings\n"
        "print(settings.get_current_profile_name(), settings().derandomize)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["ci", "True"]


def test_tests_with_their_own_settings_follow_the_profile(request: pytest.FixtureRequest) -> None:
    """A test's ``@settings(max_examples=...)`` is made when its module is imported, after
    the conftest loaded the profile: it inherits the profile's other settings. Checked on
    every hypothesis test of this run, and on one known module with its own settings."""
    from tests.games import test_kriegspiel_properties as known

    derandomize = settings().derandomize
    tests = [item.obj for item in request.session.items if hasattr(item, "obj")]
    tests.append(known.test_opponent_hears_only_announcements)
    checked = 0
    for test in tests:
        own = _settings_of(test)
        if own is None:
            continue
        assert own.derandomize == derandomize, f"{test.__qualname__} sets its own derandomize"
        if derandomize:
            assert own.database is None, test.__qualname__
        checked += 1
    assert checked > 0


def test_the_seeded_playouts_follow_the_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI's count by default; ten times as many when exploring, CI's seeds first."""
    monkeypatch.delenv(PROFILE_VARIABLE, raising=False)
    assert playouts(16) == 16
    monkeypatch.setenv(PROFILE_VARIABLE, "")
    assert playouts(16) == 16
    monkeypatch.setenv(PROFILE_VARIABLE, "explore")
    assert playouts(16) == 160
    monkeypatch.setenv(PROFILE_VARIABLE, "ci")
    assert playouts(500) == 500
