"""`fibua serve`: games in the browser, each seat with its own link, fog of war kept by the
server, every order committed to SQLite before the reply."""

from __future__ import annotations

from pathlib import Path


def serve(db: Path | None, host: str, port: int, echo: bool = True) -> None:
    """Run the server until stopped (Ctrl-C), printing its address first."""
    import uvicorn

    from fibua.server.app import create_app
    from fibua.server.store import default_db_path

    path = db if db is not None else default_db_path()
    app = create_app(path)
    shown = f"[{host}]" if ":" in host else host
    if echo:
        print(f"fibua server: http://{shown}:{port}/  (games kept in {path})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio")
