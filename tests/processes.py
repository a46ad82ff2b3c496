"""Processes a test did not start itself (a server's house bot runner): Linux /proc."""

from __future__ import annotations

from pathlib import Path

__all__ = ["alive"]


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
