"""The page says so when the server cannot save (issue 34, item 1), in English and in
Italian, and the notice goes away when the game goes on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Served, serving
from tests.web.test_browser import add_bots, create_perudo, enter


@pytest.fixture
def full_served(tmp_path: Path) -> Iterator[Served]:
    yield from serving(tmp_path, module="tests.web.disk_full_server")


def test_the_paused_notice_in_both_languages(full_served: Served, new_page: Any) -> None:
    page = new_page()
    enter(page, full_served.url, "ana")
    create_perudo(page, seats=2, dice=3)
    add_bots(page, range(1, 2), "perudo-random")
    page.wait_for_selector("#bid, #dudo")
    flag = Path(f"{full_served.db}.full")
    flag.touch()  # the disk is full from here
    page.click("#dudo" if page.locator("#dudo").count() else "#bid")
    notice = page.locator(".paused")
    notice.wait_for()
    assert notice.inner_text().startswith("The server cannot save: the game is paused.")
    assert notice.get_attribute("role") == "status"
    page.click("#lang")  # Italiano
    assert notice.inner_text().startswith("Il server non riesce a salvare")
    page.click("#lang")
    flag.unlink()  # space is freed: the game goes on by itself
    notice.wait_for(state="detached")
    page.wait_for_selector("#bid, #dudo, .bid-list li, .reveal, .placings")
    assert page.locator(".room-state").get_attribute("data-state") in ("playing", "finished")
