"""docs/architecture.md's layout names every package of the tree, and only paths that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def layout_paths() -> list[str]:
    """Every path in the layout tree of docs/architecture.md, from the root."""
    text = DOC.read_text()
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    paths: list[str] = []
    stack: list[tuple[int, str]] = []
    for line in block.splitlines():
        match = re.match(r"( *)((?:[\w.*/]+, )*[\w.*/]+)", line)
        if not match:
            continue
        indent, names = len(match.group(1)), match.group(2).split(", ")
        if not all(name.endswith("/") or re.search(r"\.\w+$", name) for name in names):
            continue  # a continuation line of a description
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ""
        paths += [parent + name for name in names]
        if names[0].endswith("/"):
            stack.append((indent, parent + names[0]))
    return paths


def test_every_package_is_in_the_layout() -> None:
    named = set(layout_paths())
    packages = [
        str(init.parent.relative_to(ROOT)) + "/"
        for top in ("server", "bots", "client_cli")
        for init in (ROOT / top).rglob("__init__.py")
    ]
    missing = [
        package
        for package in packages
        if package not in named and not any(name.startswith(package) for name in named)
    ]
    assert not missing, f"docs/architecture.md's layout does not name {missing}"


def test_every_path_in_the_layout_exists() -> None:
    absent = []
    for path in layout_paths():
        pattern = path.rstrip("/")
        if not list(ROOT.glob(pattern)):
            absent.append(path)
    assert not absent, f"docs/architecture.md names paths that do not exist: {absent}"
