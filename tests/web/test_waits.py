"""Waiting in the page under its Content-Security-Policy.

Playwright's ``wait_for_function`` evaluates a plain string expression with ``eval`` on
every poll; the page's policy (``script-src 'self'``, no ``unsafe-eval``) refuses that, so
a string condition not already true at the first check failed with an EvalError instead
of waiting (CI, ``test_kriegspiel_board_turn_signals_and_final_position``, on a slow run).
A function (``"() => ..."``) is evaluated once and then called: it waits."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Served, serving


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    yield from serving(tmp_path)


def test_a_function_condition_waits_under_the_pages_policy(server: Served, new_page: Any) -> None:
    page = new_page()
    page.goto(server.url)
    page.evaluate("setTimeout(() => { document.title = 'later' }, 300)")
    page.wait_for_function("() => document.title === 'later'")
    assert page.title() == "later"


#: ``wait_for_function(`` followed by a string literal that does not start a function.
PLAIN = re.compile(r"wait_for_function\(\s*f?[\"'](?!\(\)\s*=>|\w+\s*=>|function)")


def test_every_wait_in_the_browser_tests_passes_a_function() -> None:
    found = [
        f"{path.name}:{text[: match.start()].count(chr(10)) + 1}"
        for path in sorted(Path(__file__).parent.glob("*.py"))
        for text in [path.read_text()]
        for match in PLAIN.finditer(text)
        if path.name != Path(__file__).name
    ]
    assert found == [], f"wait_for_function with a plain string (pass '() => ...'): {found}"
