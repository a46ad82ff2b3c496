"""Sentences in the player's language: a table of templates per language, looked up by key.

Each game's client module keeps its own tables (``WORDS = {"en": {...}, "it": {...}}``);
:class:`Words` reads one of them in one language, fills the ``{slots}``, and falls back to
English for a key a translation lacks. ``key_one`` is the singular form used when the
``count`` argument is 1 (``"1 player"`` against ``"2 players"``).
"""

from __future__ import annotations

from collections.abc import Mapping

#: The languages the client speaks (the server's catalogue and hints speak them too).
LANGUAGES = ("en", "it")

Table = Mapping[str, Mapping[str, str]]


class Words:
    """One table of sentences read in one language; call it with a key and the slots."""

    def __init__(self, tables: Table, lang: str = "en") -> None:
        if "en" not in tables:
            raise ValueError("a table of words needs English, the fallback")
        self.tables = tables
        self.lang = lang if lang in tables else "en"

    def __call__(self, key: str, /, **slots: object) -> str:
        """The sentence ``key`` with its slots filled (``key_one`` when ``count`` is 1)."""
        if slots.get("count") == 1 and self.has(key + "_one"):
            key += "_one"
        return self._template(key).format(**slots)

    def get(self, key: str, default: str) -> str:
        """The word ``key`` if the table has it, else ``default`` (for the server's own
        words, such as reasons, that the table may or may not translate)."""
        return self._template(key) if self.has(key) else default

    def has(self, key: str) -> bool:
        """Whether the table has ``key`` (in this language or in English)."""
        return key in self.tables[self.lang] or key in self.tables["en"]

    def _template(self, key: str) -> str:
        template = self.tables[self.lang].get(key)
        return template if template is not None else self.tables["en"][key]
