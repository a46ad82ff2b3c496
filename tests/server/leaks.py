"""What no projection of a Perudo game may show: another seat's dice before the reveal.

(Kriegspiel's squares are checked by :func:`tests.games.kriegspiel_leakcheck.squares_named`.)
"""

from __future__ import annotations

from typing import Any


def hidden_dice_leaks(frame: dict[str, Any], viewer: int | None) -> list[str]:
    """Every place in ``frame`` that shows dice ``viewer`` may not see (empty: none)."""
    problems: list[str] = []

    def walk(node: Any, path: str, public_reveal: bool) -> None:
        if isinstance(node, dict):
            if "dice" in node and not public_reveal:
                dice = node["dice"]
                if dice and isinstance(dice[0], list):
                    problems.append(f"{path}: every seat's dice")
                elif dice and node.get("seat") != viewer:
                    problems.append(f"{path}: dice of seat {node.get('seat')}")
            for key, value in node.items():
                walk(value, f"{path}.{key}", public_reveal or key == "revealed")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]", public_reveal)

    walk(frame, "$", False)
    return problems
