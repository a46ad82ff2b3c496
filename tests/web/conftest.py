"""Fixtures for the browser client's tests: the server fixtures of tests/server, and a
real ``umpire serve`` subprocess with Chromium driven by Playwright (skipped cleanly when
Debian's ``chromium`` or the ``playwright`` package is missing)."""

from __future__ import annotations

from tests.server.conftest import db_path, make_server, no_error_logs

__all__ = ["db_path", "make_server", "no_error_logs"]
