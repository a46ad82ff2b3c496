"""``umpire serve`` as the accounts browser tests want it: a leaderboard shows a player
after one rated game (``--leaderboard-min-games 1``). tests/web/test_accounts_flow.py runs
this module instead of ``server.cli`` (``Served(module=...)``)."""

from __future__ import annotations

import sys

from server.cli import main

if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] == ["serve"]:
        argv += ["--leaderboard-min-games", "1"]
    sys.exit(main(argv))
