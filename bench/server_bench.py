"""The game server under load: many live games, every seat played by a bot over HTTP and
a WebSocket, on loopback against `fibua serve` in its own process.

Each game of corner-shop has both sides given to people, here bots: each seat's bot keeps
a WebSocket open and, when its seat may act, waits a moment (a player thinking: up to
twice `think` seconds), picks one of its units, asks for its orders as the page does and
posts one at random (now and then it ends its phase). The offered load is then about
games / think orders a second. Measured: the time from an order's POST to the moment
every seat of the game whose view it changed has received its new message (a seat is
sent a message only when its view changed: its first message after the order and before
the game's next one is the order's), and the server's resident memory per live game (the
growth of its RSS from before the games were made, over their number). The server's CPU
time an order (all its threads, over the whole load), the bots' and the load average at
the end are given beside them: on a shared machine the latency grows with the other
work, the CPU time does not."""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

SCENARIO = "corner-shop"
SEATS = ("british", "germans")
HOST = "127.0.0.1"
#: the bound on any one wait (a stuck server fails the bench instead of hanging it)
PATIENCE = 120.0
#: units a bot asks the orders of before it ends its phase instead
UNITS_TRIED = 3


@dataclass
class SeatSocket:
    """One seat's WebSocket: its latest message and when each message arrived (a seat is
    sent one only when what it is told changes: an order it cannot see sends it none)."""

    name: str
    token: str
    latest: dict[str, Any] = field(default_factory=dict)
    arrivals: list[float] = field(default_factory=list)

    def note(self, message: dict[str, Any], now: float) -> None:
        self.latest = message
        self.arrivals.append(now)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    late: int = 0
    #: seats an order did not change the message of (so sent nothing)
    unseen: int = 0
    finished: int = 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def rss_bytes(pid: int) -> int | None:
    """The process's resident set (Linux: /proc), or None where it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """The CPU time the process has used, every thread, user and system (Linux: /proc):
    unlike the latency, it does not grow with the machine's other work."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # utime and stime, the 14th and 15th fields (the 2nd and 3rd after the name)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(db: Path, port: int, profile: str | None = None,
                 prepare: bool = True) -> subprocess.Popen[bytes]:
    """`fibua serve` on `port`; with `profile`, its engine thread under cProfile, the
    statistics written to that path when it stops (bench/profiled_server.py); without
    `prepare`, a cold engine compiles as games call it, not in the background."""
    src = Path(__file__).resolve().parent.parent / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src),
                                                        os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "fibua.cli.main", "serve", "--db", str(db), "--host",
               HOST, "--port", str(port), *([] if prepare else ["--no-prepare"])]
    if profile is not None:
        command = [sys.executable, str(Path(__file__).parent / "profiled_server.py"), str(db),
                   str(port), profile]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


async def wait_ready(client: httpx.AsyncClient, process: subprocess.Popen[bytes]) -> None:
    end = time.monotonic() + PATIENCE
    while True:
        try:
            if (await client.get("/api/games")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > end:
            raise RuntimeError("the server did not start")
        await asyncio.sleep(0.1)


async def listen(ws: ClientConnection, seat: SeatSocket, changed: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    async for raw in ws:
        seat.note(json.loads(raw), loop.time())
        changed.set()


async def choose(client: httpx.AsyncClient, game_id: str, acting: SeatSocket,
                 rng: random.Random) -> dict[str, Any] | None:
    """What a player does: mostly picks one of its units and one of the orders the page
    then asks for (a few units tried), now and then ends the phase; None when the orders
    came for another version of its message (the bot looks again)."""
    end: dict[str, Any] = {"kind": "end", "unit": None, "params": {}}
    if rng.random() >= 0.85:
        return end
    units = [str(u["id"]) for u in acting.latest.get("view", {}).get("own", [])]
    rng.shuffle(units)
    for unit in units[:UNITS_TRIED]:
        offered = (await client.get(f"/api/games/{game_id}/orders", params={"unit": unit},
                                    headers={"authorization": f"Bearer {acting.token}"})).json()
        if offered["version"] != acting.latest.get("version"):
            return None
        if offered["legal"]:
            order: dict[str, Any] = rng.choice(offered["legal"])
            return order
    return end


def order_latencies(starts: list[float], seats: list[SeatSocket], tally: Tally) -> None:
    """For each order: from its POST to the first message each seat received after it
    (before the game's next order), over the seats that received one; a seat that got
    none was not told of the order (its view did not change)."""
    bounds = [*starts[1:], float("inf")][: len(starts)]  # (no order given: none to time)
    for start, stop in zip(starts, bounds, strict=True):
        firsts = [next((t for t in s.arrivals if start <= t < stop), None) for s in seats]
        got = [t for t in firsts if t is not None]
        tally.unseen += len(seats) - len(got)
        if got:
            tally.latencies.append(max(got) - start)


async def play_game(client: httpx.AsyncClient, base: str, made: dict[str, Any],
                    think: float, until: float, tally: Tally, rng: random.Random) -> None:
    """Both seats' bots of one game, until `until` (loop time) or the game's end."""
    loop = asyncio.get_running_loop()
    game_id = made["id"]
    seats = [SeatSocket(name, made["seat_tokens"][name]) for name in SEATS]
    changed = asyncio.Event()
    sockets = [await connect(f"{base}/api/games/{game_id}/ws", max_size=None)
               for _ in seats]
    readers = []
    starts: list[float] = []
    for ws, seat in zip(sockets, seats, strict=True):
        await ws.send(json.dumps({"token": seat.token}))
        readers.append(asyncio.create_task(listen(ws, seat, changed)))
    try:
        while loop.time() < until:
            acting = next((s for s in seats if s.latest.get("seat", {}).get("may_act")), None)
            if any(s.latest.get("status", {}).get("over") for s in seats):
                tally.finished += 1
                return
            if acting is None:
                changed.clear()
                await asyncio.wait_for(changed.wait(), PATIENCE)
                continue
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if not acting.latest["seat"]["may_act"]:
                continue  # the server moved on meanwhile (it ends a phase with no choice)
            order = await choose(client, game_id, acting, rng)
            if order is None:
                continue
            start = loop.time()
            answer = await client.post(
                f"/api/games/{game_id}/orders",
                headers={"authorization": f"Bearer {acting.token}"},
                json={"kind": order["kind"], "unit": order["unit"], "params": order["params"]})
            if answer.status_code == 409:
                # the server had moved on (it ends a phase with no choice left) before the
                # bot's message said so: the bot looks again
                tally.late += 1
                continue
            if answer.status_code != 200:
                # a listed legal order refused by the rules: a fault (none is expected)
                tally.refused += 1
                continue
            starts.append(start)
            if answer.json()["events"]:
                # told of events, its message changed: it acts again on the new one
                deadline = loop.time() + PATIENCE
                while not acting.arrivals or acting.arrivals[-1] < start:
                    changed.clear()
                    await asyncio.wait_for(changed.wait(), max(0.0, deadline - loop.time()))
    finally:
        for task in readers:
            task.cancel()
        for ws in sockets:
            await ws.close()
        order_latencies(starts, seats, tally)


async def run_load(port: int, process: subprocess.Popen[bytes], games: int, seconds: float,
                   think: float, seed: int) -> dict[str, Any]:
    base = f"http://{HOST}:{port}"
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=games + 10, max_keepalive_connections=games + 10)
    async with httpx.AsyncClient(base_url=base, timeout=PATIENCE, limits=limits) as client:
        await wait_ready(client, process)
        body = {"scenario": SCENARIO, "seats": dict.fromkeys(SEATS, "human")}
        # one game played a little first: the scenario, its caches and kernels are loaded
        warm = (await client.post("/api/games", json={**body, "seed": 0})).json()
        warm_tally = Tally()
        loop = asyncio.get_running_loop()
        await play_game(client, f"ws://{HOST}:{port}", warm, 0.0, loop.time() + 2.0,
                        warm_tally, random.Random(0))
        await client.delete(f"/api/games/{warm['id']}",
                            headers={"authorization": f"Bearer {warm['creator_token']}"})
        before = rss_bytes(process.pid)
        cpu_before = cpu_seconds(process.pid)
        bots_before = time.process_time()
        made = [(await client.post("/api/games", json={**body, "seed": i + 1})).json()
                for i in range(games)]
        tally = Tally()
        until = loop.time() + seconds
        await asyncio.gather(*(play_game(client, f"ws://{HOST}:{port}", m, think, until, tally,
                                         random.Random(rng.getrandbits(64))) for m in made))
        after = rss_bytes(process.pid)
        cpu_after = cpu_seconds(process.pid)
        bots_cpu = time.process_time() - bots_before
    latencies = sorted(tally.latencies)
    cpu_per_order = None
    if cpu_before is not None and cpu_after is not None and latencies:
        # the games' making is in it too (small beside the orders)
        cpu_per_order = 1000 * (cpu_after - cpu_before) / len(latencies)
    per_game = (after - before) / games if after is not None and before is not None else None
    return {
        "games": games,
        "think_s": think,
        "orders": len(latencies),
        "orders_per_s": len(latencies) / seconds,
        "refused": tally.refused,
        "late": tally.late,
        # seat messages an order did not change (each such seat was sent nothing)
        "seats_not_told": tally.unseen,
        "finished": tally.finished,
        "p50_ms": 1000 * percentile(latencies, 0.50),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "max_ms": 1000 * latencies[-1] if latencies else float("nan"),
        "mb_per_game": per_game / 2**20 if per_game is not None else None,
        "server_cpu_ms_per_order": cpu_per_order,
        # the bots' own process shares the machine: its CPU time is part of the latency
        "bots_cpu_ms_per_order": 1000 * bots_cpu / len(latencies) if latencies else None,
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def percentile(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted values (nearest rank); NaN when there are none."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def measure_server(games: int = 100, seconds: float = 40.0, think: float = 5.0,
                   seed: int = 1, profile: str | None = None) -> dict[str, Any]:
    """Run the server in its own process over a fresh database and load it with `games`
    bot-played games for `seconds`; each bot waits about `think` seconds an order."""
    with tempfile.TemporaryDirectory(prefix="fibua-bench-") as folder:
        port = free_port()
        process = start_server(Path(folder) / "games.sqlite3", port, profile)
        try:
            return asyncio.run(run_load(port, process, games, seconds, think, seed))
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stderr:
                process.stderr.close()


if __name__ == "__main__":
    # python bench/server_bench.py [GAMES [SECONDS [THINK]]] [--profile OUT]
    args = sys.argv[1:]
    out = None
    if "--profile" in args:
        at = args.index("--profile")
        out = args[at + 1]
        del args[at : at + 2]
    numbers = [float(a) for a in args[:3]] + [100.0, 40.0, 5.0][len(args[:3]):]
    print(json.dumps(measure_server(int(numbers[0]), numbers[1], numbers[2], profile=out),
                     sort_keys=True))
