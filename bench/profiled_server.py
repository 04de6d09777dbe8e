"""`fibua serve` with its engine thread under cProfile (for `server_bench.py --profile`):
the engine thread runs every game's rules and builds every message, so its profile is
where an order's time goes. The statistics are written to OUT when the server stops.

python bench/profiled_server.py DB PORT OUT
"""

from __future__ import annotations

import cProfile
import signal
import sys
from concurrent.futures import ThreadPoolExecutor

import uvicorn

from fibua.server.app import create_app

HOST = "127.0.0.1"


def main(db: str, port: int, out: str) -> None:
    profile = cProfile.Profile()
    app = create_app(db, own_process=True)
    server = app.state.server
    # cProfile follows the thread that enables it: the engine's one worker
    server.engine = ThreadPoolExecutor(1, thread_name_prefix="fibua-engine",
                                       initializer=profile.enable)
    config = uvicorn.Config(app, host=HOST, port=port, log_level="warning",
                            ws="websockets-sansio")
    # uvicorn raises the stopping signal again once it has shut down: as SystemExit here,
    # so the statistics are still written
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(0))
    try:
        uvicorn.Server(config).run()
    finally:
        profile.disable()
        profile.dump_stats(out)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
