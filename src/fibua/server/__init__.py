"""`fibua serve`: games in the browser, each seat with its own link, fog of war kept by the
server, every order committed to SQLite before the reply."""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Sequence
from pathlib import Path


def open_browser(url: str) -> bool:
    """Open `url` in the user's browser; False (and nothing raised) where there is none."""
    try:
        return webbrowser.open(url)
    except webbrowser.Error:
        return False


def serve(db: Path | None, host: str, port: int, echo: bool = True,
          open_page: bool = False, prepare: bool = True,
          allow_hosts: Sequence[str] = ()) -> None:
    """Run the server until stopped (Ctrl-C), printing its address first; with `open_page`,
    the lobby is opened in a browser once the server listens; with `prepare`, the rules
    engine's kernels are compiled in the background if they are not. It answers to the
    address it is bound to (every loopback name on loopback) and the names in
    `allow_hosts`."""
    import uvicorn

    from fibua.server.app import create_app
    from fibua.server.guard import served
    from fibua.server.store import default_db_path

    path = db if db is not None else default_db_path()
    app = create_app(path, own_process=True, prepare=prepare,
                     hosts=served(host, port, allow_hosts))
    shown = f"[{host}]" if ":" in host else host
    # a browser is pointed at a reachable address even when listening on every interface
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else shown}:{port}/"
    if echo:
        print(f"fibua server: {url}  (games kept in {path})", flush=True)

    class Opening(uvicorn.Server):
        """Opens the browser once the socket listens (not before: the page would fail)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if open_page and self.started:
                # in a thread: some browsers' launchers wait until the page is fetched
                threading.Thread(target=opening, daemon=True).start()

    def opening() -> None:
        if not open_browser(url) and echo:
            print(f"no browser found here: open {url} yourself", flush=True)

    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws="websockets-sansio")
    Opening(config).run()
