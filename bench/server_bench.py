"""The game server under load: many live games, every seat played by a bot over HTTP and
a WebSocket, on loopback against `fibua serve` in its own process.

Each game of corner-shop has both sides given to people, here bots: each seat's bot keeps
a WebSocket open and, when its seat may act, waits a moment (a player thinking: up to
twice `think` seconds) and posts one of its legal orders at random. The offered load is
then about games / think orders a second. Measured: the time from an order's POST to the moment
every seat of the game (both sides, each told of the change from its own view) has
received its new message, and the server's resident memory per live game (the growth of
its RSS from before the games were made, over their number). The server's CPU time an order
(all its threads, over the whole load) and the load average at the end are given beside
them: on a shared machine the latency grows with the other work, the CPU time does not."""

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


@dataclass
class SeatSocket:
    """One seat's WebSocket: its latest message and when each version of it arrived (a
    seat's version grows only when its message changes: an order it cannot see sends it
    nothing)."""

    name: str
    token: str
    latest: dict[str, Any] = field(default_factory=dict)
    #: version -> when a message of at least that version was first received
    arrived: dict[int, float] = field(default_factory=dict)
    top: int = -1

    def note(self, message: dict[str, Any], now: float) -> None:
        self.latest = message
        version = int(message.get("version", 0))
        for n in range(self.top + 1, version + 1):
            self.arrived[n] = now
        self.top = max(self.top, version)


async def told(client: httpx.AsyncClient, game_id: str, seat: SeatSocket) -> int:
    """The seat's version now, as its link fetches it (after an order: whether the order
    changed what the seat is told, so whether its socket is to hear of it)."""
    answer = await client.get(f"/api/games/{game_id}",
                              headers={"authorization": f"Bearer {seat.token}"})
    return int(answer.json()["version"])


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


def start_server(db: Path, port: int, profile: str | None = None) -> subprocess.Popen[bytes]:
    """`fibua serve` on `port`; with `profile`, its engine thread under cProfile, the
    statistics written to that path when it stops (bench/profiled_server.py)."""
    src = Path(__file__).resolve().parent.parent / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src),
                                                        os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "fibua.cli.main", "serve", "--db", str(db), "--host",
               HOST, "--port", str(port)]
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


async def seats_told(client: httpx.AsyncClient, game_id: str, seats: list[SeatSocket],
                     acting: SeatSocket, told_events: bool,
                     before: dict[str, int]) -> list[SeatSocket]:
    """The seats whose message an order changed (so whose sockets are to hear of it): the
    actor's when its answer told it of events; every other's, and an actor told none, as
    its link fetches it after the answer (by then the server has queued the pushes)."""
    asked = [s for s in seats if s is not acting or not told_events]
    versions = await asyncio.gather(*(told(client, game_id, s) for s in asked))
    found = [s for s, v in zip(asked, versions, strict=True) if v > before[s.name]]
    return [*found, acting] if told_events else found


async def listen(ws: ClientConnection, seat: SeatSocket, changed: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    async for raw in ws:
        seat.note(json.loads(raw), loop.time())
        changed.set()


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
            # the orders, asked for as the page asks for them (they are not in the message)
            offered = (await client.get(f"/api/games/{game_id}/orders", headers={
                "authorization": f"Bearer {acting.token}"})).json()
            legal = offered["legal"]
            if not legal:
                continue  # the server moved on meanwhile
            moves = [o for o in legal if o["kind"] != "end"]
            # mostly a real order, now and then the end of the phase (as people play)
            order = rng.choice(moves) if moves and rng.random() < 0.85 else \
                next((o for o in legal if o["kind"] == "end"), rng.choice(legal))
            before = {s.name: s.top for s in seats}
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
            waited = await seats_told(client, game_id, seats, acting,
                                      bool(answer.json()["events"]), before)
            deadline = loop.time() + PATIENCE
            while not all(s.top > before[s.name] for s in waited):
                changed.clear()
                await asyncio.wait_for(changed.wait(), max(0.0, deadline - loop.time()))
            if waited:
                tally.latencies.append(max(s.arrived[before[s.name] + 1] for s in waited)
                                       - start)
            tally.unseen += len(seats) - len(waited)
    finally:
        for task in readers:
            task.cancel()
        for ws in sockets:
            await ws.close()


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
    numbers = [float(a) for a in args[:3]]
    print(json.dumps(measure_server(int(numbers[0]) if numbers else 100, *numbers[1:],
                                    profile=out), sort_keys=True))
