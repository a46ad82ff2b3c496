"""The pure parts of the accounts, leaderboard and player pages (state.js, chart.js,
leaderboard.js, account.js), tested on their own: under Node's test runner when ``node``
is installed, and always in Chromium."""

from __future__ import annotations

import mimetypes
import shutil
import subprocess
from typing import Any

import pytest

from tests.web.conftest import ROOT

CASES = ROOT / "tests" / "web" / "js"
#: how many cases accounts_cases.mjs holds (a case lost would go unnoticed otherwise)
COUNT = 10


def test_account_cases_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node: test_account_cases_in_chromium runs the same cases")
    result = subprocess.run(
        [node, "--test", str(CASES / "accounts.test.mjs")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert f"# pass {COUNT}" in result.stdout, result.stdout[-2000:]


def test_account_cases_in_chromium(new_page: Any) -> None:
    """The same cases in the browser, the files served straight from the checkout."""
    page = new_page()

    def serve(route: Any) -> None:
        path = route.request.url.split("://", 1)[1].split("/", 1)[1].split("?", 1)[0]
        file = (ROOT / path).resolve()
        if ROOT not in file.parents or not file.is_file():
            route.fulfill(status=404, body="")
            return
        kind = (
            "text/javascript" if file.suffix in (".js", ".mjs") else mimetypes.guess_type(file)[0]
        )
        route.fulfill(status=200, body=file.read_bytes(), content_type=kind or "text/plain")

    page.route("http://127.0.0.1:9/**", serve)
    page.goto("http://127.0.0.1:9/tests/web/js/accounts_runner.html")
    page.wait_for_selector("#done", state="attached")
    assert page.locator("li.fail").all_inner_texts() == []
    assert page.locator("li.pass").count() == COUNT
