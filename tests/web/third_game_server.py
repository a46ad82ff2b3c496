"""``umpire serve`` with the tests' third game registered: Goofspiel
(``tests/games/goofspiel.py``), which the server learns of only at run time. The browser
test that plays it runs this module instead of ``server.cli`` (``Served(module=...)``)."""

from __future__ import annotations

import sys

from server.cli import main
from server.games import register

register("goofspiel", "tests.games.goofspiel")

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
