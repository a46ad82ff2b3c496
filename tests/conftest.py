"""Fixtures for every test: a guard that fails any test which logs an ERROR; and the
hypothesis profile.

Hypothesis: ``UMPIRE_HYPOTHESIS_PROFILE`` names the profile (``tests/profile.py``), ``ci``
by default, so that a plain ``python -m pytest`` is deterministic: every property test runs
the same examples on every run (``derandomize``), with no deadline, a bounded shrink and the
reproducing blob printed on failure. ``explore`` is for local runs that look for new
failures: random seeds, 1,000 examples where a test does not set its own count (ten times
the default), the example database (``.hypothesis/``) that replays what failed before, and
ten times the seeded playouts (``tests.profile.playouts``). The profile is loaded
here, before any test module is imported, so that a test's own
``@settings(max_examples=...)`` inherits the rest from it (tests/test_hypothesis_profile.py).

PostgreSQL: ``pg_admin_dsn`` (one server for the whole session: ``UMPIRE_TEST_PG_DSN`` or
a throwaway cluster, tests/pgcluster.py) and ``pg_dsn`` (a new empty database on it).

Mark a test ``allow_errors`` when the error is the point of the test (the marker is
declared in ``pyproject.toml``). Server-specific fixtures live in ``tests/server/conftest.py``.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.internal.conjecture import engine as _hypothesis_engine

from tests.connections import abort_leftovers
from tests.pgcluster import Cluster, admin_dsn_from_env, create_database, find_bindir
from tests.profile import profile_name

#: seconds hypothesis may spend shrinking one failure, per profile (its own default is 300,
#: longer than the tests' 120 s timeout, which then hides the failing example)
SHRINK_SECONDS = {"ci": 20, "explore": 60}

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore",
    max_examples=1000,
    derandomize=False,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def load_profile() -> str:
    """Load the profile ``UMPIRE_HYPOTHESIS_PROFILE`` names (``ci`` if unset); return it."""
    name = profile_name()
    settings.load_profile(name)  # an unknown name fails here, before any test runs
    # hypothesis documents this module constant as the way to bound the shrink phase
    _hypothesis_engine.MAX_SHRINKING_SECONDS = SHRINK_SECONDS.get(name, 60)
    return name


load_profile()


class _ErrorCollector(logging.Handler):
    """Collects every record at ERROR or above."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_error_logs(request: pytest.FixtureRequest) -> Iterator[_ErrorCollector]:
    """Fail the test if anything logged at ERROR or above (unless marked allow_errors)."""
    collector = _ErrorCollector()
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        yield collector
    finally:
        root.removeHandler(collector)
    if collector.records and request.node.get_closest_marker("allow_errors") is None:
        messages = "\n".join(f"{r.name}: {r.getMessage()}" for r in collector.records)
        pytest.fail(f"the test logged errors:\n{messages}")


@pytest.fixture(autouse=True)
def no_leftover_connections(request: pytest.FixtureRequest) -> None:
    """In an asyncio test, abort the test clients' connections it left open
    (``tests/connections.py``). Set up before the test's other fixtures, it is torn
    down after them (its servers), on the test's own loop. A sync test is left alone:
    it may run a loop of its own (Playwright's) where a fixture's loop cannot run."""
    if inspect.iscoroutinefunction(request.function):
        request.getfixturevalue("_abort_leftover_connections")


@pytest.fixture
async def _abort_leftover_connections() -> AsyncIterator[None]:
    yield
    await abort_leftovers()


@pytest.fixture(scope="session")
def pg_admin_dsn() -> Iterator[str]:
    """A PostgreSQL server for the whole session: ``UMPIRE_TEST_PG_DSN``, or a throwaway
    cluster from the installed binaries (tests/pgcluster.py); skipped if neither."""
    env = admin_dsn_from_env()
    if env is not None:
        yield env
        return
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(
            "PostgreSQL is not installed (apt-get install postgresql) and "
            "UMPIRE_TEST_PG_DSN is not set"
        )
    cluster = Cluster(bindir)
    try:
        cluster.start()
        yield cluster.admin_dsn
    finally:
        cluster.stop()


@pytest.fixture
async def pg_dsn(pg_admin_dsn: str) -> str:
    """The URL of a new, empty database on the session's PostgreSQL server."""
    return await create_database(pg_admin_dsn)
