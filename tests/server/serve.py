"""``umpire serve`` as a real subprocess, for the tests that kill, restart or fail it over.

One way to start the server process for every test that needs one (crash recovery, chaos,
failover, house runners): the same command line a user types, generous rate limits, a
readable log level, and the port read back from the ``listening on`` line.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


#: the per-address caps (docs/protocol.md, "Limits") raised: every test client comes from
#: 127.0.0.1, and a test may say hello as many guests and make many rooms
MANY_FROM_LOOPBACK = (
    "--guests-per-ip",
    "1000000",
    "--max-rooms-per-ip",
    "1000000",
)


async def spawn_serve(
    db: str | Path,
    *,
    port: int = 0,
    grace: float = 30,
    extra: tuple[str, ...] = (),
    startup: float = 30,
    module: tuple[str, ...] = ("server.cli",),
) -> tuple[asyncio.subprocess.Process, int]:
    """Start ``umpire serve`` on ``port`` (0: a free one); return the process and its port.

    ``extra`` adds options (``("--synchronous", "NORMAL")``, ``("--node-name", "n1")``...);
    ``module`` is the module run with ``python -m`` and its first arguments
    (``("tests.server.kill_point", "before")``: a server that kills itself).
    Fails the test if the server does not say where it listens within ``startup`` seconds.
    """
    if str(db).startswith("postgresql://") and "--signing-key" not in extra:
        # (PostgreSQL needs the cluster's key file: one per database, shared by its nodes)
        digest = hashlib.sha256(str(db).encode()).hexdigest()[:16]
        key = Path(tempfile.gettempdir()) / f"umpire-test-{digest}.key"
        extra = (*extra, "--signing-key", str(key))
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        *module,
        "serve",
        "--port",
        str(port),
        "--db",
        str(db),
        "--grace",
        str(grace),
        "--autopilot-delay",
        "0",
        "--rate",
        "1000",
        "--burst",
        "1000",
        *MANY_FROM_LOOPBACK,
        "--log-level",
        "WARNING",
        *extra,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    try:
        line = await asyncio.wait_for(proc.stdout.readline(), startup)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    assert b"listening on" in line, line
    return proc, int(line.decode().rsplit(":", 1)[1])
