"""A Perudo bot that kills its own worker process once (tests/bots/test_ray_games.py).

On its first decision in a process that finds no marker file (its path in
``UMPIRE_TEST_CRASH_MARKER``), it creates the marker and ends the process at once, as a
lost machine would; everywhere else it plays exactly as ``perudo-random``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import ClassVar

from bots.baseline import PerudoRandom
from bots.sdk.bot import Decision

MARKER = "UMPIRE_TEST_CRASH_MARKER"


class CrashOnce(PerudoRandom):
    """``perudo-random`` that kills its worker the first time it decides anywhere."""

    name: ClassVar[str] = "perudo-crash-once"

    async def decide(self, decision: Decision) -> str:
        marker = os.environ.get(MARKER)
        if marker and not Path(marker).exists():
            Path(marker).touch()
            os._exit(1)  # no cleanup, no exception: the process is simply gone
        return await super().decide(decision)
