"""From an order given on the page to the seat's map drawn anew, in a real headless
Chromium against `fibua serve` in its own process.

A person plays one side of a few games (one of each rule set) through the game page, the
computer the other: the bench picks one of the seat's units as a click on it would
(`select`), one of the orders the page then lists (`chosen`: the preview), and clicks
Commit. Timed in the page (`performance.now`, by a script added before the page's own,
which wraps `fetch` and the WebSocket): from the order's POST to the first state message
the seat receives after it (the server's part: the order carried out, committed and each
seat's message built and pushed), to the end of the page's handling of it (the redraw),
to the frame after it (painted). Now and then the bench ends the phase and the computer
plays; those orders are not timed.

CPU time is given beside the wall time as everywhere in the bench: the server's (all its
threads) and the browser's (every Chromium process), over the timed orders, per order
(read from /proc, whose clock ticks are too coarse for one order alone)."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from server_bench import HOST, PATIENCE, cpu_seconds, free_port, percentile, start_server

#: one scenario of each rule set, the side a person plays in it (its first seat)
GAMES = (("corner-shop", "british"), ("anti-tank-screen", "british"),
         ("village-street", "germans"), ("ramp-houses", "british"))
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]
#: orders a phase before the bench ends it (fewer at random)
ORDERS_A_PHASE = 6
#: a page's wait, in ms (a bound, not a measure)
WAIT_MS = int(PATIENCE * 1000)
#: how often the bench looks whether an order's map is drawn, in ms (looking every frame
#: would add its own work to the browser's CPU time; the times are stamped in the page)
POLL_MS = 50

#: added before the page's scripts: stamps the POST of an order and the state message
#: that follows it, its handling's end and the next frame after it
STAMPS = """
(() => {
  const bench = { posted: null, answered: null, received: null, rendered: null,
                  painted: null };
  window.__clickBench = bench;
  const plainFetch = window.fetch;
  window.fetch = function (path, options) {
    const order = options && options.method === "POST" && String(path).endsWith("/orders");
    if (order) {
      Object.assign(bench, { posted: performance.now(), answered: null, received: null,
                             rendered: null, painted: null });
    }
    const answer = plainFetch.apply(this, arguments);
    if (order) answer.then(() => { bench.answered = performance.now(); });
    return answer;
  };
  const PlainSocket = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const socket = new PlainSocket(url, protocols);
    // first of the listeners: the page's own runs after it, in the same task
    socket.addEventListener("message", (event) => {
      if (bench.posted === null || bench.received !== null) return;
      if (!String(event.data).startsWith('{"version"')) return;  // a state message
      bench.received = performance.now();
      setTimeout(() => { bench.rendered = performance.now(); }, 0);
      requestAnimationFrame(() => setTimeout(() => { bench.painted = performance.now(); }, 0));
    });
    return socket;
  };
  window.WebSocket.prototype = PlainSocket.prototype;
})();
"""


@dataclass
class Timed:
    """The timed orders' parts, in seconds of wall time, and the CPU spent over them."""

    click_to_map: list[float] = field(default_factory=list)
    to_push: list[float] = field(default_factory=list)
    redraw: list[float] = field(default_factory=list)
    paint: list[float] = field(default_factory=list)
    server_cpu: float = 0.0
    browser_cpu: float = 0.0
    #: orders whose seat was sent no new message (nothing of it changed), or none in time
    untold: int = 0
    refused: int = 0


def descendants(root: int) -> list[int]:
    """Every process under `root` (Linux: /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def browser_pids(server: int) -> list[int]:
    """The Chromium processes this process started (through Playwright's driver)."""
    out = []
    for pid in descendants(os.getpid()):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        if pid != server and name.startswith("chrom"):
            out.append(pid)
    return out


def tree_cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) or 0.0 for pid in pids)


class Person:
    """One seat's page, played through its own functions and buttons."""

    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng

    def read(self, script: str, arg: Any = None) -> Any:
        return self.page.evaluate(script, arg)

    def wait(self, script: str, arg: Any = None) -> None:
        self.page.wait_for_function(script, arg=arg, timeout=WAIT_MS)

    def over(self) -> bool:
        return bool(self.read("() => !!(state && state.status.over)"))

    def wait_turn(self) -> None:
        """Until the seat may give orders, or the game is over."""
        self.wait("() => state && (state.status.over || state.seat.may_act)")

    def end_phase(self) -> None:
        """Click the phase's end, and wait for the message that says so (the computer
        may have played its phase too by then)."""
        version = self.read("() => state.version")
        self.page.click("#done")
        self.wait("(v) => state.version !== v || state.status.over", version)

    def pick(self) -> dict[str, Any] | None:
        """An order of one of the seat's units, as the page lists it once the unit is
        clicked (a few units tried); None when none has any."""
        units = self.read("() => (state.view.own || []).filter((u) => !state.seat.units "
                          "|| state.seat.units.includes(u.id)).map((u) => u.id)")
        self.rng.shuffle(units)
        for unit in units[:3]:
            self.read("(id) => select(id)", unit)
            self.wait("(id) => !state || !state.seat.may_act || (selected === id "
                      "&& state.ordersLoaded)", unit)
            legal = self.read("() => state.seat.may_act ? state.legal : []")
            orders = [o for o in legal if o["kind"] != "end"]
            if orders:
                order: dict[str, Any] = self.rng.choice(orders)
                return order
        return None

    def give(self, order: dict[str, Any], pids: list[int], server: int,
             timed: Timed) -> None:
        """Preview the order, click Commit and time what follows."""
        self.read("(o) => chosen(o)", order)
        self.page.wait_for_selector("#commit, #preview .error", timeout=WAIT_MS)
        if self.page.locator("#commit").count() == 0:
            timed.refused += 1
            self.page.click("#cancel")
            return
        cpu = cpu_seconds(server) or 0.0, tree_cpu(pids)
        self.page.click("#commit")
        try:
            self.page.wait_for_function(
                "() => __clickBench.answered !== null && (__clickBench.painted !== null "
                "|| performance.now() - __clickBench.answered > 3000)", timeout=WAIT_MS,
                polling=POLL_MS)
        finally:
            timed.server_cpu += (cpu_seconds(server) or 0.0) - cpu[0]
            timed.browser_cpu += tree_cpu(pids) - cpu[1]
        stamps = self.read("() => __clickBench")
        if stamps["painted"] is None:
            timed.untold += 1
            return
        posted = stamps["posted"]
        timed.click_to_map.append((stamps["painted"] - posted) / 1000)
        timed.to_push.append((stamps["received"] - posted) / 1000)
        timed.redraw.append((stamps["rendered"] - stamps["received"]) / 1000)
        timed.paint.append((stamps["painted"] - stamps["rendered"]) / 1000)


def play(person: Person, orders: int, pids: list[int], server: int, timed: Timed) -> None:
    """Up to `orders` timed orders of the seat, ending its phase now and then."""
    given = in_phase = 0
    while given < orders:
        person.wait_turn()
        if person.over():
            return
        order = None
        if in_phase < person.rng.randint(1, ORDERS_A_PHASE):
            order = person.pick()
        if order is None:
            person.end_phase()
            in_phase = 0
            continue
        person.give(order, pids, server, timed)
        given += 1
        in_phase += 1


def seats_for(client: httpx.Client, scenario: str, side: str) -> dict[str, str]:
    """The side's first seat a person's, every other seat the computer's (a side of
    several seats: the others are its computer seats)."""
    listed = next(s for s in client.get("/api/scenarios").json() if s["name"] == scenario)
    person = next(s["name"] for s in listed["seats"] if s["side"] == side)
    return {s["name"]: "human" if s["name"] == person else "computer" for s in listed["seats"]}


def chromium_missing() -> str | None:
    """Why the browser part cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed"
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        return "Chromium is not installed (tools/install-browser.sh)"
    return None


def run(port: int, process: Any, games: tuple[tuple[str, str], ...], orders_a_game: int,
        seed: int) -> Timed:
    from playwright.sync_api import sync_playwright

    timed, warm = Timed(), Timed()
    rng = random.Random(seed)
    base = f"http://{HOST}:{port}"
    with httpx.Client(base_url=base, timeout=PATIENCE) as client, \
            sync_playwright() as driver:
        end = time.monotonic() + PATIENCE
        while True:
            try:
                if client.get("/api/games").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > end:
                raise RuntimeError("the server did not start")
            time.sleep(0.1)
        # a server whose engine was not ready prepares it first: timed once it is
        while not client.get("/api/engine").json()["ready"]:
            if process.poll() is not None or time.monotonic() > end + 10 * PATIENCE:
                raise RuntimeError("the server's engine never got ready")
            time.sleep(0.5)
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.add_init_script(STAMPS)
        pids = browser_pids(process.pid)
        for n, (scenario, side) in enumerate(games):
            made = client.post("/api/games", json={
                "scenario": scenario, "seed": seed + n,
                "seats": seats_for(client, scenario, side)}).json()
            seat = next(iter(made["seat_tokens"]))
            page.goto(f"{base}/play/{made['id']}#token={made['seat_tokens'][seat]}")
            person = Person(page, random.Random(rng.getrandbits(64)))
            play(person, 2, pids, process.pid, warm)  # the page's first draws, untimed
            play(person, orders_a_game, pids, process.pid, timed)
        browser.close()
    return timed


def ms(values: list[float], q: float) -> float:
    return 1000 * percentile(sorted(values), q)


def measure_click_to_map(orders_a_game: int = 25, seed: int = 1,
                         games: tuple[tuple[str, str], ...] = GAMES,
                         prepare: bool = True) -> dict[str, Any]:
    """The figures: wall p50 and p95 of each part, CPU per order; `skipped` says why
    there are none where Chromium cannot run. With `prepare` (as `fibua serve` runs), a
    server whose engine is not ready compiles it first and the timing waits for that;
    without, the untimed first orders of each game compile what they call."""
    missing = chromium_missing()
    if missing is not None:
        return {"skipped": missing}
    with tempfile.TemporaryDirectory(prefix="fibua-click-") as folder:
        port = free_port()
        process = start_server(Path(folder) / "games.sqlite3", port, prepare=prepare)
        try:
            timed = run(port, process, games, orders_a_game, seed)
        finally:
            process.terminate()
            process.wait(timeout=30)
            if process.stderr:
                process.stderr.close()
    count = len(timed.click_to_map)
    figures: dict[str, Any] = {
        "games": len(games), "orders": count, "untold": timed.untold,
        "refused": timed.refused,
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}
    for name, values in (("click_to_map", timed.click_to_map), ("to_push", timed.to_push),
                         ("redraw", timed.redraw), ("paint", timed.paint)):
        figures[f"{name}_p50_ms"] = ms(values, 0.50)
        figures[f"{name}_p95_ms"] = ms(values, 0.95)
    figures["server_cpu_ms_per_order"] = 1000 * timed.server_cpu / count if count else None
    figures["browser_cpu_ms_per_order"] = 1000 * timed.browser_cpu / count if count else None
    return figures


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(measure_click_to_map(*(int(a) for a in sys.argv[1:2])), sort_keys=True))
