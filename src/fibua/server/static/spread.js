// Counters that would cover one another (two sections in one building, a rider in its
// vehicle, figures a step apart) are spread apart after each draw: a counter that meets no
// other stays on its unit's spot; the others, the least crowded first, each go to the
// nearest place where they meet no counter already placed, with a thin leader line from a
// dot on the unit's true spot. So every counter shows whole and is clicked where it shows,
// with nothing behind a hover or a second click (a fanned stack would hide its lower
// counters until opened, and a wargamer reads a leader line at a glance). Places are worked
// out in the map's own units from the units' spots alone, so the same troops are always
// spread the same way, whatever the zoom, the selection or the order they were drawn in.
"use strict";

// the places tried round a counter: a grid this fine (in counter heights), this far out
const SPREAD_STEP = 0.2;
const SPREAD_REACH = 10;
// the gap left between counters (in counter heights), and the least move worth a leader
const SPREAD_GAP = 0.08;
const SPREAD_LEAST = 0.05;

// -- the pure part: boxes round centres in, centres out ---------------------------------------

function boxesOverlap(a, b, pad) {
  return a.x < b.x + b.w + pad && b.x < a.x + a.w + pad
    && a.y < b.y + b.h + pad && b.y < a.y + a.h + pad;
}

// an item's box with its centre at (x, y): `box` is relative to the centre
function boxAround(item, x, y) {
  return { x: x + item.box.x, y: y + item.box.y, w: item.box.w, h: item.box.h };
}

// the grid's offsets (whole steps) within `reach` steps, nearest first; among those as
// near, round from straight up clockwise, so ties always fall the same way
function gridOffsets(reach) {
  const out = [];
  for (let i = -reach; i <= reach; i++) {
    for (let j = -reach; j <= reach; j++) {
      if (i * i + j * j <= reach * reach) out.push([i, j]);
    }
  }
  const turn = ([i, j]) => (Math.atan2(i, -j) + 2 * Math.PI) % (2 * Math.PI);
  return out.sort((a, b) => (a[0] ** 2 + a[1] ** 2) - (b[0] ** 2 + b[1] ** 2) || turn(a) - turn(b));
}

let offsetsMade = null;

function keyOrder(a, b) {
  return a === b ? 0 : String(a) < String(b) ? -1 : 1;
}

// Where each item goes: items are {x, y, box: {x, y, w, h} about the centre, rank, key} (a
// higher rank gives way first: a rider to its vehicle; the key, a unit's id, settles the
// rest); `bounds` a box the counters stay inside, `pad` the gap kept between them. Returns
// a centre {x, y} per item, in the items' order.
function spreadSpots(items, bounds, pad) {
  const reach = Math.round(SPREAD_REACH / SPREAD_STEP);
  if (!offsetsMade || offsetsMade.reach !== reach) offsetsMade = { reach, list: gridOffsets(reach) };
  const there = items.map((item) => boxAround(item, item.x, item.y));
  const crowd = there.map((a, i) => there.filter((b, j) => j !== i && boxesOverlap(a, b, pad)).length);
  const order = items.map((_, i) => i)
    .sort((a, b) => (crowd[a] > 0) - (crowd[b] > 0) || items[a].rank - items[b].rank
      || crowd[a] - crowd[b] || keyOrder(items[a].key, items[b].key) || a - b);
  const placed = [];
  const spots = items.map((item) => ({ x: item.x, y: item.y }));
  for (const i of order) {
    const item = items[i];
    const step = SPREAD_STEP * item.box.h;
    for (const [dx, dy] of offsetsMade.list) {
      const x = item.x + dx * step, y = item.y + dy * step;
      const box = boxAround(item, x, y);
      if (bounds && !(box.x >= bounds.x && box.y >= bounds.y && box.x + box.w <= bounds.x + bounds.w
          && box.y + box.h <= bounds.y + bounds.h) && (dx || dy)) continue;
      if (placed.some((other) => boxesOverlap(box, other, pad))) continue;
      spots[i] = { x, y };
      break;
    }
    placed.push(boxAround(item, spots[i].x, spots[i].y));
  }
  return spots;
}

// -- the page ----------------------------------------------------------------------------------

// the counter as printed: its frame, strength tab and badges, as counters.js drew them (a
// facing tick or a halo may reach over a neighbour: they are thin, and show through).
// Read from the drawing, not measured: nothing here waits for the page's layout.
function counterBox(g) {
  const [x, y, w, h] = (g.dataset.box || "").split(" ").map(Number);
  return [x, y, w, h].every(Number.isFinite) && w > 0 && h > 0 ? { x, y, w, h } : null;
}

// Spreads the overlay's counters (after each draw, before the labels are placed).
function spreadCounters() {
  if (!overlay) return;
  for (const old of overlay.querySelectorAll(":scope > g.counter-leaders")) old.remove();
  const items = [];
  for (const g of overlay.querySelectorAll(":scope > g.counter")) {
    const body = g.querySelector(":scope > g.counter-body");
    if (g.dataset.spread) moveLabelBy(g, -1);  // spread before without a new draw: undone
    const box = body && counterBox(g);
    if (!box) continue;
    const x = Number(g.dataset.cx), y = Number(g.dataset.cy);
    items.push({ g, body, x, y, box: { x: box.x - x, y: box.y - y, w: box.w, h: box.h },
      rank: g.classList.contains("carried") ? 1 : 0, key: g.dataset.id });
  }
  if (!items.length) return;
  const height = Math.min(...items.map((item) => item.box.h));
  const spots = spreadSpots(items, counterRoom, height * SPREAD_GAP);
  const leaders = svgEl("g", { class: "counter-leaders", "pointer-events": "none" });
  items.forEach((item, i) => {
    const dx = spots[i].x - item.x, dy = spots[i].y - item.y;
    if (Math.hypot(dx, dy) < SPREAD_LEAST * item.box.h) return;
    item.body.setAttribute("transform", `translate(${dx} ${dy})`);
    item.g.classList.add("spread");
    item.g.dataset.spread = `${dx} ${dy}`;
    moveLabelBy(item.g, 1);
    leaders.append(leaderTo(item, spots[i], height));
  });
  overlay.prepend(leaders);
}

// the counter's label moved with it (or back, `sign` -1); the label placer moves it further
function moveLabelBy(g, sign) {
  const [dx, dy] = g.dataset.spread.split(" ").map(Number);
  if (sign < 0) {
    g.querySelector(":scope > g.counter-body").removeAttribute("transform");
    g.classList.remove("spread");
    delete g.dataset.spread;
  }
  const label = g.querySelector(":scope > text.label");
  if (!label) return;
  for (const [name, by] of [["x", dx], ["y", dy], ["data-anchor-x", dx], ["data-anchor-y", dy]]) {
    label.setAttribute(name, Number(label.getAttribute(name)) + sign * by);
  }
}

// a dot on the unit's spot and a line from it to the nearest point of its counter's box
function leaderTo(item, spot, height) {
  const box = boxAround(item, spot.x, spot.y);
  const tx = Math.min(Math.max(item.x, box.x), box.x + box.w);
  const ty = Math.min(Math.max(item.y, box.y), box.y + box.h);
  const g = svgEl("g", { class: "counter-leader", "data-unit": item.g.dataset.id,
    opacity: item.g.getAttribute("opacity") || 1 });
  g.append(svgEl("line", { x1: item.x, y1: item.y, x2: tx, y2: ty, stroke: "#222",
    "stroke-width": height * 0.05 }));
  g.append(svgEl("circle", { cx: item.x, cy: item.y, r: height * 0.09, fill: "#222" }));
  return g;
}
