"""Reading events in the engine tests."""

from __future__ import annotations

from typing import Any

from server.games.base import Event, Viewer


def seen(event: Event, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` (a seat, or ``None`` for a spectator) is shown of ``event``, which
    the test expects it to be shown."""
    view = event.view(viewer)
    assert view is not None, f"viewer {viewer} is shown nothing of {event.truth}"
    return view
