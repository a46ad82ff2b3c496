"""Issue 29: the help names every house bot of each game (it omitted perudo-search)."""

from __future__ import annotations

from client_cli.catalogue import Catalogue
from client_cli.help import commands_help


def test_the_help_lists_each_games_bots(catalogue: Catalogue) -> None:
    text = commands_help(catalogue)
    perudo = catalogue.game("perudo")
    assert perudo is not None
    for bot in perudo.bots:
        assert bot.name in text
    assert "perudo-search" in text
