"""Fixtures for every test: a guard that fails any test which logs an ERROR.

Mark a test ``allow_errors`` when the error is the point of the test (the marker is
declared in ``pyproject.toml``). Server-specific fixtures live in ``tests/server/conftest.py``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


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
