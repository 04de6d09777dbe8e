"""`fibua serve --open` (what `make play` runs): the lobby is opened in the user's browser
once the server listens, and a machine with no browser still gets a running server. The
browser here is a stand-in named by BROWSER (Python's webbrowser honours it) that writes
down the address it was given and whether the server answered there."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import webbrowser
from pathlib import Path

import httpx
import pytest

import fibua.server
from server_helpers import HOST, PATIENCE, free_port

#: the stand-in browser: fetches the page it is asked to open and notes what it got
FAKE_BROWSER = textwrap.dedent("""\
    #!{python}
    import sys, urllib.request
    url = sys.argv[1]
    with urllib.request.urlopen(url, timeout=30) as page:
        status = page.status
    with open({out!r}, "w") as out:
        out.write(f"{{url}} {{status}}")
""")


def serve_open(tmp_path: Path, browser: str) -> tuple[str, str]:
    """Run `fibua serve --open` with BROWSER set; what the stand-in wrote (or "") and what
    the server printed."""
    port = free_port()
    env = {**os.environ, "BROWSER": browser, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).parent.parent / "src"), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(
        [sys.executable, "-m", "fibua.cli.main", "serve", "--no-prepare", "--open", "--db",
         str(tmp_path / "games.sqlite3"), "--host", HOST, "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = tmp_path / "opened.txt"
    try:
        end = time.monotonic() + PATIENCE
        while True:
            try:
                if httpx.get(f"http://{HOST}:{port}/api/games").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.1)
        if "fake" in browser:
            while not seen.exists() or not seen.read_text():
                assert time.monotonic() < end, "the browser was never opened"
                time.sleep(0.05)
        else:
            time.sleep(0.5)  # time for the (failed) opening to be reported
        assert process.poll() is None  # still serving
    finally:
        process.terminate()
        printed = process.communicate(timeout=PATIENCE)[0]
    return (seen.read_text() if seen.exists() else ""), printed


def test_serve_open_opens_the_lobby_once_the_server_answers(tmp_path: Path) -> None:
    # webbrowser runs BROWSER as one program given the address, so the stand-in is a script
    script = tmp_path / "fake_browser"
    script.write_text(FAKE_BROWSER.format(python=sys.executable,
                                          out=str(tmp_path / "opened.txt")))
    script.chmod(0o755)
    opened, printed = serve_open(tmp_path, str(script))
    url, status = opened.split()
    assert status == "200"
    assert url.startswith(f"http://{HOST}:") and url.endswith("/")
    assert url in printed


def test_serve_open_without_a_browser_keeps_serving(tmp_path: Path) -> None:
    opened, printed = serve_open(tmp_path, str(tmp_path / "no-such-browser"))
    assert opened == ""
    assert "no browser found here" in printed


def test_serve_without_open_touches_no_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: calls.append(url) or True)
    assert fibua.server.open_browser("http://127.0.0.1:1/")
    assert calls == ["http://127.0.0.1:1/"]

    def broken(url: str, *args: object, **kwargs: object) -> bool:
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "open", broken)
    assert not fibua.server.open_browser("http://127.0.0.1:1/")
