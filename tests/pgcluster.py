"""A throwaway PostgreSQL cluster for tests and benchmarks, from Debian's binaries.

:func:`find_bindir` finds ``initdb`` and ``postgres`` (``/usr/lib/postgresql/<v>/bin``,
or on the ``PATH``). :class:`Cluster` initialises a data directory in a temporary folder
and starts ``postgres`` as a child process (killed if we die) on a free loopback port
with its unix socket in that folder; :func:`create_database` makes a fresh database on
it; :meth:`Cluster.stop` stops the server and deletes the folder. PostgreSQL refuses to
run as root: as root, the cluster runs as the ``postgres`` user (Debian's package creates
it) or ``nobody``.

``UMPIRE_TEST_PG_DSN`` (an existing server where the DSN's user may create databases)
replaces the throwaway cluster: see :func:`admin_dsn_from_env`.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from tests.ports import free_port

ENV_DSN = "UMPIRE_TEST_PG_DSN"


def find_bindir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or ``None``."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name)
    )
    for folder in reversed(candidates):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def admin_dsn_from_env() -> str | None:
    """``UMPIRE_TEST_PG_DSN`` when set (a server the tests may create databases on)."""
    return os.environ.get(ENV_DSN) or None


class Cluster:
    """One throwaway PostgreSQL server: ``start()``, ``new_database()``, ``stop()``."""

    def __init__(self, bindir: Path, *, fsync: bool = False) -> None:
        self.bindir = bindir
        self.fsync = fsync
        self.root = Path(tempfile.mkdtemp(prefix="umpire-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user = "umpire"
        self._run_as: list[str] = []
        self._proc: subprocess.Popen[bytes] | None = None
        if os.geteuid() == 0:
            account = "postgres"
            try:
                pwd.getpwnam(account)
            except KeyError:
                account = "nobody"
            entry = pwd.getpwnam(account)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
            self._run_as = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}"]
            self._run_as += ["--clear-groups", "--"]

    @property
    def admin_dsn(self) -> str:
        """A DSN of the maintenance database (to create and drop databases)."""
        return self.dsn("postgres")

    def dsn(self, database: str) -> str:
        """The URL of ``database`` on this cluster (TCP on loopback)."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._run_as, *args],
            check=True,
            cwd=self.root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def start(self) -> None:
        """Initialise and start the cluster (fsync off unless asked: tests kill
        processes, not the power; benchmarks ask for it, to compare with SQLite FULL)."""
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            self.user,
            "--auth=trust",
            "--no-locale",
            "-E",
            "UTF8",
        )
        options = ["-p", str(self.port), "-k", str(self.root)]
        options += ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"]
        if not self.fsync:
            options += ["-c", "fsync=off", "-c", "full_page_writes=off"]
        # postgres runs as our child, in the foreground, and is SIGKILLed if we die
        # (--pdeathsig, in the same setpriv as the change of user, which would clear
        # it): a killed test run never leaves a server behind.
        guard = self._run_as[:-1] or (["setpriv"] if shutil.which("setpriv") else [])
        if guard:
            guard += ["--pdeathsig", "KILL", "--"]
        with open(self.root / "postgres.log", "wb") as logfile:
            self._proc = subprocess.Popen(
                [
                    *guard,
                    str(self.bindir / "postgres"),
                    "-D",
                    str(self.data),
                    *options,
                ],
                cwd=self.root,
                stdout=logfile,
                stderr=subprocess.STDOUT,
            )
        ready = [str(self.bindir / "pg_isready"), "-q", "-h", str(self.root), "-p", str(self.port)]
        deadline = time.monotonic() + 60
        while subprocess.run(ready, check=False).returncode != 0:
            if self._proc.poll() is not None or time.monotonic() > deadline:
                log = (self.root / "postgres.log").read_text(errors="replace")
                self.stop()
                raise RuntimeError(f"PostgreSQL did not start:\n{log}")
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its folder; idempotent."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            # setpriv execs (it never forks): our child is the postmaster itself
            os.kill(proc.pid, signal.SIGINT)  # PostgreSQL's "fast" shutdown
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)


async def create_database(admin_dsn: str) -> str:
    """Create a new empty database on the server of ``admin_dsn``; return its URL."""
    import asyncpg

    name = "t_" + uuid.uuid4().hex[:16]
    conn = await asyncpg.connect(admin_dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base, _, query = admin_dsn.partition("?")
    prefix = base.rsplit("/", 1)[0] if base.count("/") > 2 else base
    return f"{prefix}/{name}" + (f"?{query}" if query else "")
