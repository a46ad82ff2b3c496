"""Issue 29: ``umpire play --server notaurl`` says so in one line and exits 2 at once
(it printed an error and never exited)."""

from __future__ import annotations

import pytest

from client_cli.cli import main


@pytest.mark.parametrize("url", ["notaurl", "http://localhost:8765", "ws://", "ws:///x"])
@pytest.mark.parametrize("plain", [True, False])
def test_a_bad_server_url_exits_2_with_one_line(
    url: str, plain: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--server", url, "--name", "ana", *(["--plain"] if plain else [])]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err == f"umpire play: --server must be a ws:// or wss:// address, not {url!r}\n"
