"""Every game module speaks every language of the client, with the same slots."""

from __future__ import annotations

import string

import pytest

from client_cli import games
from client_cli.games.base import WORDS as BASE_WORDS
from client_cli.words import LANGUAGES, Table, Words

TABLES = {name: games.game(name).WORDS for name in games.names()} | {"(base)": BASE_WORDS}


def slots(template: str) -> set[str]:
    """The ``{slot}`` names of a template."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_sentence_is_in_every_language_with_the_same_slots(name: str) -> None:
    table: Table = TABLES[name]
    assert set(table) == set(LANGUAGES)
    english = table["en"]
    for lang in LANGUAGES:
        words = table[lang]
        assert set(english) <= set(words), f"{name}: {lang} lacks {set(english) - set(words)}"
        for key, template in words.items():
            base = key.removesuffix("_one").removesuffix("_you")
            assert base in english, f"{name}: {lang} has {key!r}, a key English lacks"
            assert slots(template) <= slots(english[base]) | {"who", "count"}, (name, lang, key)


def test_a_missing_translation_falls_back_to_english_and_the_singular_is_chosen() -> None:
    table = {"en": {"dice": "{count} dice", "dice_one": "{count} die", "x": "X"}, "it": {}}
    words = Words(table, "it")
    assert words("x") == "X"
    assert words("dice", count=1) == "1 die" and words("dice", count=2) == "2 dice"
    assert Words({"en": {}}, "fr").lang == "en"
