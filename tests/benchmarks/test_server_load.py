"""The load test's helpers (benchmarks.server_load, benchmarks.load_raw): how tables are
dealt over the nodes, the throwaway PostgreSQL cluster's removal, SIGTERM as Ctrl-C."""

from __future__ import annotations

import os
import signal
from collections import Counter

import pytest

from benchmarks.load_raw import node_port
from benchmarks.server_load import (
    Sample,
    over_time,
    parent_postgres,
    terminate_as_interrupt,
    throwaway_postgres,
)


def test_tables_are_dealt_over_every_node_whatever_the_processes() -> None:
    ports = [7001, 7002]
    # one load-generator process with every table (the --raw command's --procs 1)
    assert Counter(node_port(n, ports) for n in range(250)) == {7001: 125, 7002: 125}
    # two processes (tables 0-124 and 125-249): each still uses both nodes
    for tables in (range(0, 125), range(125, 250)):
        assert set(Counter(node_port(n, ports) for n in tables)) == {7001, 7002}
    assert {node_port(n, [7001]) for n in range(10)} == {7001}


class FakeCluster:
    """What throwaway_postgres uses of tests.pgcluster.Cluster, with what was done."""

    admin_dsn = "postgresql://umpire@127.0.0.1:1/postgres"

    def __init__(self, fail_start: bool = False) -> None:
        self.fail_start = fail_start
        self.calls: list[str] = []

    def start(self) -> None:
        self.calls.append("start")
        if self.fail_start:
            raise KeyboardInterrupt  # Ctrl-C while initdb runs

    def stop(self) -> None:
        self.calls.append("stop")


def test_the_throwaway_cluster_is_removed_however_the_run_ends() -> None:
    made = FakeCluster()
    with throwaway_postgres(made, lambda admin: admin + "/t_1") as dsn:
        assert dsn == FakeCluster.admin_dsn + "/t_1"
        assert made.calls == ["start"]
    assert made.calls == ["start", "stop"]

    failed = FakeCluster()
    with pytest.raises(RuntimeError), throwaway_postgres(failed, lambda admin: admin):
        raise RuntimeError("the server did not start")
    assert failed.calls == ["start", "stop"]

    def refused(admin: str) -> str:
        raise OSError("connection refused")

    no_database = FakeCluster()
    with pytest.raises(OSError), throwaway_postgres(no_database, refused):
        pass
    assert no_database.calls == ["start", "stop"]

    interrupted = FakeCluster(fail_start=True)
    with pytest.raises(KeyboardInterrupt), throwaway_postgres(interrupted, lambda a: a):
        pass
    assert interrupted.calls == ["start", "stop"]


def test_sigterm_interrupts_like_ctrl_c_and_the_handler_is_restored() -> None:
    before = signal.getsignal(signal.SIGTERM)
    reached = False
    with pytest.raises(KeyboardInterrupt), terminate_as_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
        reached = True  # (the handler runs before the next bytecode)
    assert not reached
    assert signal.getsignal(signal.SIGTERM) is before


def test_only_a_postgres_process_here_names_a_postmaster() -> None:
    # this test's own process is python, not postgres: the server of a DSN whose backend
    # pid is not a postgres process here runs elsewhere
    assert parent_postgres(os.getpid()) is None
    assert parent_postgres(2**22 + 1) is None  # (above Linux's pid_max default)


def test_each_interval_shows_its_own_cost_per_action() -> None:
    samples = [
        Sample(at=100.0, cpu=10.0, actions=0.0, rss=100.0, loop=5.0),
        Sample(at=130.0, cpu=17.5, actions=30_000.0, rss=120.0, loop=11.0),
        Sample(at=160.0, cpu=26.5, actions=60_000.0, rss=121.0, loop=17.0),
    ]
    lines = over_time(samples, start=100.0)
    assert len(lines) == 2
    assert lines[0].split()[:6] == ["30", "s", "1000", "actions/s", "250", "us"]
    assert "300 us per action (event loop 200)" in lines[1] and "RSS   121 MB" in lines[1]
