"""Machine instructions per acknowledged action of a real ``umpire serve``, by thread.

CPU time per action (``benchmarks/server_load.py``) moves by 10 to 15% from run to run
when other work shares the machine, which hides changes of a few percent. This counts
instructions instead, which do not depend on what else runs: the server runs under
Valgrind's callgrind (about fifty times slower, so the load is small: ``--rooms`` tables
of four raw seats from ``benchmarks/load_raw.py``, saturated), the counters are zeroed
after ``--warmup`` seconds and dumped ``--window`` seconds later, and the instructions of
each thread over that window are divided by the actions acknowledged in it (from
``/metrics``). Thread 1 is the event loop; the SQLite writer is another thread. Needs
``valgrind`` (Debian: ``apt-get install valgrind``). Only user-space instructions are
counted: system calls (the socket writes, ``fdatasync``) are not.

    python -m benchmarks.server_instructions --rooms 16 --warmup 40 --window 40
    python -m benchmarks.server_instructions --root /path/to/other/checkout   # A/B
"""

from __future__ import annotations

import asyncio
import glob
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks.common import LOAD_TEST_FLAGS, ROOT, arguments, machine, start_umpire
from benchmarks.load_raw import raw_worker


def accepted(port: int) -> float:
    """The server's count of accepted actions, from ``/metrics``."""
    url = f"http://127.0.0.1:{port}/metrics"
    with urllib.request.urlopen(url, timeout=300) as response:
        text = response.read().decode()
    found = re.search(r'umpire_actions_total\{result="accepted"\} (\S+)', text)
    if found is None:
        raise SystemExit("no umpire_actions_total in /metrics")
    return float(found.group(1))


def callgrind(pid: int, command: str) -> None:
    """Send ``callgrind_control`` ``command`` (``--zero``, ``--dump``) to ``pid``."""
    subprocess.run(["callgrind_control", command, str(pid)], check=True, capture_output=True)


async def measure(port: int, pid: int, rooms: int, warmup: float, window: float) -> float:
    """Load the server; zero the counters after ``warmup`` s, dump them ``window`` s later;
    return the actions acknowledged between the two."""
    start = time.monotonic()
    deadline = start + warmup + window + 10
    load = asyncio.create_task(raw_worker(port, range(rooms), 4, 0.0, start, deadline, 1))
    await asyncio.sleep(warmup)
    before = await asyncio.to_thread(accepted, port)
    await asyncio.to_thread(callgrind, pid, "--zero")
    await asyncio.sleep(window)
    await asyncio.to_thread(callgrind, pid, "--dump")
    after = await asyncio.to_thread(accepted, port)
    await load
    return after - before


def thread_totals(prefix: str) -> dict[int, int]:
    """Instructions per thread in the dump (callgrind's files ``prefix.1-NN``)."""
    out: dict[int, int] = {}
    for path in glob.glob(f"{prefix}.1-*"):
        text = Path(path).read_text(errors="replace")
        thread = re.search(r"^thread: (\d+)", text, re.M)
        total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        if thread and total:
            out[int(thread.group(1))] = int(total.group(1))
    return out


def main() -> None:
    """Run the measurement and print instructions per action."""
    parser = arguments(__doc__)
    parser.add_argument("--rooms", type=int, default=16)
    parser.add_argument("--warmup", type=float, default=40.0, help="seconds before counting")
    parser.add_argument("--window", type=float, default=40.0, help="seconds counted")
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose server runs")
    options = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("needs valgrind (callgrind and callgrind_control)")
    with tempfile.TemporaryDirectory() as tmp:
        prefix = str(Path(tmp) / "callgrind")
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={prefix}"]
        server, port = start_umpire(
            str(Path(tmp) / "load.db"),
            LOAD_TEST_FLAGS,
            launcher=[*valgrind, "--separate-threads=yes"],
            cwd=Path(options.root),
            quiet=True,
        )
        try:
            actions = asyncio.run(
                measure(port, server.pid, options.rooms, options.warmup, options.window)
            )
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(600)
        threads = thread_totals(prefix)
    if not actions or 1 not in threads:
        raise SystemExit(f"nothing measured ({actions} actions, threads {threads})")
    others = sum(count for thread, count in threads.items() if thread != 1)
    print(machine())
    print(
        f"{options.root}: {actions:.0f} actions in the window; instructions per action: "
        f"event loop {threads[1] / actions:,.0f}, other threads {others / actions:,.0f}, "
        f"whole process {(threads[1] + others) / actions:,.0f}"
    )


if __name__ == "__main__":
    main()
