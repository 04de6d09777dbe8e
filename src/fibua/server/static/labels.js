// Map labels that never overlap: after each draw, every SVG text of class "label" (building
// names from the server, section states, unit labels) is put at the first of several places
// round the thing it names where its box meets no other label and covers no figure, counter
// or objective symbol; the most important first (data-priority, higher first). A label that
// fits nowhere is hidden, its words kept in a title where it was. Boxes are worked out in the
// map's own units, so zooming and panning leave the placing as it is.
"use strict";

const LABEL_NS = "http://www.w3.org/2000/svg";
// what a label must not cover: figures and counters (less their own labels), the models'
// places, objective symbols
const AVOID = "#overlay g.figure, #overlay .counter, #overlay g.model-spots, [data-avoid], "
  + "g.objective-mark, g.scale-bar, text.mark-tags";
// a label with no data-priority: a unit's (an overlay's counters may not set one)
const DEFAULT_PRIORITY = 25;
// rings of places round the anchor, each this many label heights further out
const RINGS = [0.15, 0.8, 1.8, 3.2];
// a label this many of its heights or more from its anchor gets a leader line
const LEADER_AT = 1.2;

// -- the pure part: plain boxes {x, y, w, h} in, choices out --------------------------------

function boxesMeet(a, b, pad) {
  return a.x < b.x + b.w + pad && b.x < a.x + a.w + pad
    && a.y < b.y + b.h + pad && b.y < a.y + a.h + pad;
}

function inside(box, bounds) {
  return box.x >= bounds.x && box.y >= bounds.y && box.x + box.w <= bounds.x + bounds.w
    && box.y + box.h <= bounds.y + bounds.h;
}

// Where a label of box `drawn` may go round `anchor` (a box, or a point: w = h = 0): first
// as drawn, then right, left, above, below and the four corners, ring after ring further
// out (round a point, such as a building's middle, above and below come first: the name
// stays over its building). Each place is the label's box there.
function candidateBoxes(drawn, anchor) {
  const { w, h } = drawn;
  const out = [{ x: drawn.x, y: drawn.y, w, h }];
  const cx = anchor.x + anchor.w / 2, cy = anchor.y + anchor.h / 2;
  const point = anchor.w === 0 && anchor.h === 0;
  for (const ring of RINGS) {
    const g = ring * h;
    const right = anchor.x + anchor.w + g, left = anchor.x - g - w;
    const above = anchor.y - g - h, below = anchor.y + anchor.h + g;
    const sides = [[right, cy - h / 2], [left, cy - h / 2]];
    const ends = [[cx - w / 2, above], [cx - w / 2, below]];
    const corners = [[right, above], [left, above], [right, below], [left, below]];
    const order = point ? [...ends, ...sides, ...corners] : [...sides, ...ends, ...corners];
    for (const [x, y] of order) out.push({ x, y, w, h });
  }
  return out;
}

// The gap between a box and an anchor (0 when they touch or overlap).
function gapBetween(box, anchor) {
  const dx = Math.max(anchor.x - (box.x + box.w), box.x - (anchor.x + anchor.w), 0);
  const dy = Math.max(anchor.y - (box.y + box.h), box.y - (anchor.y + anchor.h), 0);
  return Math.hypot(dx, dy);
}

// Greedy placing: items ({priority, candidates: [box...]}) in priority order (higher first,
// ties in the given order) each take their first candidate inside `bounds` that meets no
// box already taken and no obstacle. Returns, per item in the given order, the index of
// its candidate, or -1 where none fits (the label is dropped).
function chooseSpots(items, obstacles, bounds, pad) {
  const order = items.map((item, i) => i)
    .sort((a, b) => (items[b].priority - items[a].priority) || (a - b));
  const taken = [];
  const chosen = items.map(() => -1);
  for (const i of order) {
    const spot = items[i].candidates.findIndex((box) => inside(box, bounds)
      && !taken.some((t) => boxesMeet(box, t, pad))
      && !obstacles.some((o) => boxesMeet(box, o, pad)));
    if (spot < 0) continue;
    chosen[i] = spot;
    taken.push(items[i].candidates[spot]);
  }
  return chosen;
}

// -- the page: measuring, moving, hiding ----------------------------------------------------

// an element's box in the map's own units (the root svg's user space)
function mapBox(svg, node) {
  const r = node.getBoundingClientRect();
  const back = svg.getScreenCTM().inverse();
  const p = new DOMPoint(r.left, r.top).matrixTransform(back);
  const q = new DOMPoint(r.right, r.bottom).matrixTransform(back);
  return { x: Math.min(p.x, q.x), y: Math.min(p.y, q.y), w: Math.abs(q.x - p.x),
    h: Math.abs(q.y - p.y) };
}

function union(boxes) {
  if (!boxes.length) return null;
  const x = Math.min(...boxes.map((b) => b.x)), y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.w));
  const bottom = Math.max(...boxes.map((b) => b.y + b.h));
  return { x, y, w: right - x, h: bottom - y };
}

// the box of a figure or counter without its labels (what a label must leave uncovered)
function bodyBox(svg, group) {
  if (!group.children.length) return mapBox(svg, group);
  const parts = [...group.children].filter((c) => !c.classList.contains("label")
    && c.tagName !== "title" && !c.querySelector(".label"));
  return union(parts.map((c) => mapBox(svg, c)).filter((b) => b.w > 0 || b.h > 0));
}

// a point of the label's own coordinates (its data-anchor-x/y) in the map's units
function anchorPoint(svg, label) {
  const x = Number(label.dataset.anchorX), y = Number(label.dataset.anchorY);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  const m = svg.getScreenCTM().inverse().multiply(label.parentNode.getScreenCTM());
  const p = new DOMPoint(x, y).matrixTransform(m);
  return { x: p.x, y: p.y, w: 0, h: 0 };
}

function resetLabels(svg) {
  for (const old of svg.querySelectorAll(".label-extras")) old.remove();
  for (const title of svg.querySelectorAll("title.dropped-label")) title.remove();
  const labels = [...svg.querySelectorAll("text.label")];
  for (const label of labels) {
    label.removeAttribute("transform");
    label.removeAttribute("display");
    label.classList.remove("label-dropped", "label-moved");
  }
  return labels;
}

// the label's place moved by (dx, dy) map units: a translation in its parent's units
function moveLabel(svg, label, dx, dy) {
  const m = svg.getScreenCTM().inverse().multiply(label.parentNode.getScreenCTM());
  label.setAttribute("transform", `translate(${dx / (m.a || 1)} ${dy / (m.d || 1)})`);
  label.classList.add("label-moved");
}

function leader(extras, from, box, width) {
  // from the anchor's middle to the nearest point of the label's box
  const ax = from.x + from.w / 2, ay = from.y + from.h / 2;
  const tx = Math.min(Math.max(ax, box.x), box.x + box.w);
  const ty = Math.min(Math.max(ay, box.y), box.y + box.h);
  extras.append(svgNode("line", { class: "label-leader", x1: ax, y1: ay, x2: tx, y2: ty,
    stroke: "#333", "stroke-width": width, "stroke-opacity": 0.7 }));
}

function svgNode(tag, attrs) {
  const node = document.createElementNS(LABEL_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// a dropped label's words, kept as a title: on its figure, else on a clear spot where it was
function keepTitle(extras, label, anchor, box) {
  const words = label.textContent;
  const owner = label.parentNode.closest && label.parentNode.closest("g.figure, .counter");
  const title = svgNode("title", { class: "dropped-label" });
  title.textContent = words;
  if (owner) {
    owner.prepend(title);
    return;
  }
  const spot = svgNode("circle", { class: "dropped-spot", cx: anchor.x + anchor.w / 2,
    cy: anchor.y + anchor.h / 2, r: box.h / 2, fill: "transparent" });
  spot.append(title);
  extras.append(spot);
}

function labelPriority(label) {
  const given = Number(label.dataset.priority);
  return Number.isFinite(given) && label.dataset.priority !== undefined ? given : DEFAULT_PRIORITY;
}

// Places every label of the map `svg` (call after each draw).
function placeLabels(svg) {
  if (!svg || !svg.getScreenCTM()) return;
  const labels = resetLabels(svg);
  const table = svg.querySelector("rect.table");
  const bounds = table ? mapBox(svg, table) : mapBox(svg, svg);
  const owners = new Map();
  const obstacles = [];
  for (const group of svg.querySelectorAll(AVOID)) {
    const box = group.tagName === "text" ? mapBox(svg, group) : bodyBox(svg, group);
    if (box) obstacles.push(box);
    owners.set(group, box);
  }
  const items = labels.map((label) => {
    const drawn = mapBox(svg, label);
    const owner = label.parentNode.closest && label.parentNode.closest("g.figure, .counter");
    const anchor = (owner && owners.get(owner)) || anchorPoint(svg, label)
      || { x: drawn.x + drawn.w / 2, y: drawn.y + drawn.h / 2, w: 0, h: 0 };
    const visible = drawn.w > 0 && drawn.h > 0;
    return { label, drawn, anchor, priority: labelPriority(label),
      candidates: visible ? candidateBoxes(drawn, anchor) : [] };
  });
  const pad = Math.min(...items.map((i) => i.drawn.h).filter((h) => h > 0), Infinity) * 0.06;
  const chosen = chooseSpots(items, obstacles, bounds, Number.isFinite(pad) ? pad : 0);
  const extras = svgNode("g", { class: "label-extras" });
  items.forEach((item, i) => {
    const { label, drawn, anchor } = item;
    if (!item.candidates.length) return;
    if (chosen[i] < 0) {
      label.setAttribute("display", "none");
      label.classList.add("label-dropped");
      keepTitle(extras, label, anchor, drawn);
      return;
    }
    const box = item.candidates[chosen[i]];
    if (chosen[i] > 0) moveLabel(svg, label, box.x - drawn.x, box.y - drawn.y);
    if (gapBetween(box, anchor) >= LEADER_AT * drawn.h) leader(extras, anchor, box, drawn.h * 0.06);
  });
  // under the labels and figures: a leader never strikes through another label
  const first = svg.querySelector(":scope > g.objective-mark, :scope > text.label, #overlay");
  svg.insertBefore(extras, first);
}
