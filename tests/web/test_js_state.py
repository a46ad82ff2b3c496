"""The page's pure state logic (server/web/js/state.js), tested on its own: under Node's
built-in test runner when ``node`` is installed, else in Chromium."""

from __future__ import annotations

import mimetypes
import re
import shutil
import subprocess
from typing import Any

import pytest

from tests.web.conftest import ROOT

CASES = ROOT / "tests" / "web" / "js"


def test_state_module_under_node() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node: test_state_module_in_chromium runs the same cases")
    result = subprocess.run(
        [node, "--test", str(CASES / "state.test.mjs")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    passed = re.search(r"\bpass (\d+)", result.stdout)  # the tap and spec reporters alike
    assert passed and int(passed.group(1)) >= 14, result.stdout[-2000:]


def test_state_module_in_chromium(new_page: Any) -> None:
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
    page.goto("http://127.0.0.1:9/tests/web/js/runner.html")
    page.wait_for_selector("#done", state="attached")
    failures = page.locator("li.fail").all_inner_texts()
    assert not failures, failures
    assert page.locator("li.pass").count() >= 14
