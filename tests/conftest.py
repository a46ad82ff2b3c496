"""Fixtures for every test: a guard that fails any test which logs an ERROR.

PostgreSQL: ``pg_admin_dsn`` (one server for the whole session: ``UMPIRE_TEST_PG_DSN`` or
a throwaway cluster, tests/pgcluster.py) and ``pg_dsn`` (a new empty database on it).

Mark a test ``allow_errors`` when the error is the point of the test (the marker is
declared in ``pyproject.toml``). Server-specific fixtures live in ``tests/server/conftest.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from tests.pgcluster import Cluster, admin_dsn_from_env, create_database, find_bindir


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
