"""Goofspiel, the tests' third game, played to its end in Chromium by clicking: the server
learns of the game at run time, the lobby offers it from the catalogue, and the client
shows it with one module (server/web/js/games/goofspiel.js) and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Served, serving, shot
from tests.web.test_browser import add_bots, assert_named, choose_game

CARDS = 5


@pytest.fixture
def served_with_goofspiel(tmp_path: Path) -> Iterator[Served]:
    """``umpire serve`` with Goofspiel registered (stopped, its log checked, after)."""
    yield from serving(tmp_path, "tests.web.third_game_server")


def test_goofspiel_is_played_to_its_end_by_clicking(
    served_with_goofspiel: Served, new_page: Any, tmp_path: Path
) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    # the create form is the catalogue's: Goofspiel's own options, typed and bounded
    choose_game(page, served_with_goofspiel.url, "ana", "goofspiel")
    page.wait_for_selector("#f-cards")
    assert page.get_attribute("#f-cards", "max") == "13"
    assert page.input_value("#f-cards") == str(CARDS)
    assert page.locator("#f-rules, #f-dice_per_player").count() == 0
    page.fill("#f-seats", "2")
    page.click("#f-create")
    page.wait_for_selector(".seats")
    # the only bot for a game no bot knows: the autopilot (it bids its lowest card)
    options = page.locator("#bot-kind-1 option").all_inner_texts()
    assert options == ["autopilot"]
    add_bots(page, range(1, 2), "autopilot")
    bot = page.locator(".seat[data-seat='1'] .name").inner_text()
    prizes = []
    for round_number in range(1, CARDS + 1):
        prize = page.locator(f".prize[data-round='{round_number}']")
        prize.wait_for()
        prizes.append(int(prize.get_attribute("data-card") or 0))
        playable = page.locator(".hand button:enabled")
        playable.first.wait_for()
        assert playable.count() == CARDS - round_number + 1  # every card still in hand
        if round_number == 1:
            assert_named(page)
            shot(page, "goofspiel", tmp_path)
        playable.last.click()  # the highest card left
    page.wait_for_selector(".placings")
    # ana bid 5, 4, 3, 2, 1 and the autopilot 1, 2, 3, 4, 5: ana wins the first two
    # prizes, the third is a tie, the autopilot wins the last two
    mine, theirs = prizes[0] + prizes[1], prizes[3] + prizes[4]
    assert page.locator(".scores li[data-seat='0']").inner_text() == f"ana: {mine} points"
    points = [mine, theirs]
    ranks = [1 + sum(other > own for other in points) for own in points]  # ties share a place
    names = ["ana", bot]
    assert page.locator(".placings li").all_inner_texts() == [
        f"{ranks[seat]}. {names[seat]} ({points[seat]} points)"
        for seat in sorted(range(2), key=lambda seat: (ranks[seat], seat))
    ]
    log = page.locator(".log-lines").inner_text()
    assert f"Bids: ana 5, {bot} 1. ana wins {prizes[0]}." in log
    assert f"Bids: ana 3, {bot} 3. A tie: nobody wins {prizes[2]}." in log
    assert page.locator(".hand").count() == 0
    assert page.locator(".room-state").get_attribute("data-state") == "finished"
    page.wait_for_selector("#seed-check:has-text('✓')")
    assert page.locator(".replay").count() == 0  # no replay module: the log tells it all
    shot(page, "goofspiel-end", tmp_path)
    # the game's words come in Italian too, and the catalogue is asked for again in Italian
    page.click("#lang")
    page.wait_for_selector(f".scores li[data-seat='0']:has-text('ana: {mine} punti')")
    assert_named(page)
    page.click("a.back")
    page.select_option("#f-game", "goofspiel")
    page.click("#f-cards-help")
    page.wait_for_selector(".help:has-text('carte in ogni mano e nel mazzo dei premi')")
    assert page.locator("label[for=f-cards]").inner_text() == "Carte"
