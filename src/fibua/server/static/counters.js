// Counters on the map, after NATO's APP-6: a frame (own units a rectangle in the side's
// colour, enemies the hostile diamond in red, dashed when only remembered), the symbol of
// what the unit is inside, its strength on a tab below, its states as badges along the
// top, a facing tick for vehicles and guns, a grey cross when out of action, and a tooltip
// with its statistics. What is written comes from the message's `counters` (built by the
// server from the seat's view alone, `RuleSet.counters`); a unit without one is drawn as a
// plain counter from the view.
"use strict";

// the frame's width in the page's unit size (a fraction of the table's longer side)
const COUNTER_WIDTH = 9;
const COUNTER_RATIO = 0.68;  // height over width, as APP-6's friendly frame
const HOSTILE_FILL = "#f6b3b3";
const OUT_FILL = "#c4c4c4";
const BADGE_COLOURS = {
  pinned: "#dd6b20", pins: "#dd6b20", shaken: "#dd6b20", "shot-at": "#c53030",
  down: "#744210", ducked: "#744210", stance: "#5a6b7d",
  overwatch: "#2f855a", ambush: "#2f855a", react: "#2f855a", cover: "#285e61",
  aiming: "#b7791f", observing: "#6b46c1", loading: "#2c7a7b",
  order: "#4a5568", acted: "#4a5568", moved: "#4a5568", fired: "#4a5568",
  "seen-step": "#4a5568", aboard: "#2b6cb0", carrying: "#2b6cb0",
  sheltering: "#9b2c2c", "falling-back": "#9b2c2c", demoralised: "#9b2c2c",
  immobilised: "#9b2c2c",
};

// the room round the table (svg units): where spread.js may move a counter
let counterRoom = null;

// Room round the table so a counter at its edge shows whole, and the scale bar moved
// below the table (it would hide the counters of a side set up along the south edge).
// Returns the viewBox to start from.
function makeRoom(svg, view) {
  const [x, y, width, height] = view;
  const margin = Math.max(width, height) / 22;
  const bar = svg.querySelector("g.scale-bar");
  if (bar) {
    const box = bar.getBBox();
    bar.setAttribute("transform", `translate(0 ${y + height + margin * 0.1 - box.y})`);
  }
  const room = [x - margin, y - margin, width + 2 * margin, height + 2 * margin];
  counterRoom = { x: room[0], y: room[1], w: room[2], h: room[3] };
  svg.setAttribute("viewBox", room.join(" "));
  return room;
}

// The counter's data sent for a unit drawn as `kind` ("own", "enemy ...", "troop side-X").
function counterData(info, kind) {
  if (!state) return null;
  if (kind.includes("troop")) {
    const sides = (state.revealed && state.revealed.counters) || {};
    return (sides[info.side] || {})[info.id] || null;
  }
  const sets = state.counters || {};
  const found = kind.includes("enemy") ? sets.enemies : sets.own;
  return (found || {})[info.id] || null;
}

// What the view alone says, for a unit the server sent no counter for.
function plainCounter(info, hostile) {
  return { id: info.id, hostile, symbol: "unknown", strength: null, marks: [], facing: null,
    out_of_action: outOfAction(info), age: null, in_sight: info.visible_now !== false,
    carried_by: null, spots: [], stats: [info.name || info.id] };
}

function tint(hex, share) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(c + (255 - c) * share);
  return `rgb(${mix(n >> 16)}, ${mix((n >> 8) & 255)}, ${mix(n & 255)})`;
}

// Draws one unit's counter into the overlay (the page's `figure`): clickable as before,
// with the classes and data attributes the page and its tests read. The counter itself
// (frame, symbol, strength, badges, facing) is one group, `counter-body`, drawn on the
// unit's spot; spread.js moves it off any other counter it would cover once all are drawn,
// the models' own places (their spots) staying where they are.
function drawCounter(info, colour, opacity, size, onclick, kind, age) {
  kind = kind || "";
  const troop = kind.includes("troop");
  const hostile = kind.includes("enemy")
    || (troop && !!state.seat && info.side !== state.seat.side);
  const data = counterData(info, kind) || plainCounter(info, hostile);
  if (data.on_table === false) return;  // nothing of it is left where it stood
  const out = data.out_of_action || outOfAction(info);
  const width = size * COUNTER_WIDTH;
  const height = width * COUNTER_RATIO;
  const carried = !!data.carried_by;
  const cx = info.x, cy = mapHeight - info.y;
  const g = svgEl("g", { class: `figure ${kind} ${floorClass(info)} counter symbol-${data.symbol}`
      + (hostile ? " hostile" : "") + (out ? " out" : "") + (carried ? " carried" : ""),
    "data-id": info.id, "data-floor": info.floor ?? 0, "data-at": `${info.x},${info.y}`,
    "data-cx": cx, "data-cy": cy, opacity: out ? Math.max(opacity, 0.7) : opacity });
  if (age !== undefined) g.setAttribute("data-age", age);
  const stroke = hostile && !troop ? "#9b1c1c" : colour;
  const fill = out ? OUT_FILL : hostile && !troop ? HOSTILE_FILL : tint(colour, 0.62);
  drawSpots(info, data, colour, size, g.getAttribute("opacity"));
  const body = svgEl("g", { class: "counter-body" });
  if (data.facing !== null && data.facing !== undefined && !out) {
    drawFacing(body, cx, cy, width, data.facing, stroke, size);
  }
  const frame = hostile ? diamond(cx, cy, width) : rectangle(cx, cy, width, height);
  if (info.id === selected) {
    body.append(svgEl(frame.tag, { ...frame.attrs, class: "halo", fill: "none", stroke: "#ffd400",
      "stroke-width": size * 1.3 }));
  }
  // a unit the composer's waiting form may name (friends.js): ringed in green
  if (!hostile && !troop && typeof friendCandidate === "function" && friendCandidate(info.id)) {
    g.classList.add("pick-candidate");
    body.append(svgEl(frame.tag, { ...frame.attrs, class: "candidate-ring", fill: "none",
      stroke: "#2f855a", "stroke-width": size * 0.9, "stroke-dasharray": `${size * 1.2} ${size * 0.5}` }));
  }
  const dashed = hostile && data.in_sight === false;
  body.append(svgEl(frame.tag, { ...frame.attrs, class: "frame", fill, stroke,
    "stroke-width": size * 0.35, ...(dashed ? { "stroke-dasharray": `${size} ${size * 0.6}` } : {}) }));
  body.append(drawSymbol(data.symbol, frame.box, out ? "#555" : "#111", size * 0.3));
  if (out) drawCross(body, frame.box, size);
  // the counter as printed (frame, tab, badges), for spread.js: known here, not measured
  const printed = [frame.extent, drawStrength(body, data, cx, frame.bottom, height, out),
    drawBadges(body, data.marks || [], cx, frame.top, height)].filter(Boolean);
  g.dataset.box = boxOf(printed).join(" ");
  g.append(body);
  g.append(counterLabel(info, data, cx, cy, frame.right, size));
  const title = svgEl("title", {});
  title.textContent = tooltip(data, out);
  g.append(title);
  g.addEventListener("click", (event) => { event.stopPropagation(); onclick(); });
  overlay.append(g);
}

// the box round boxes [x, y, w, h]
function boxOf(boxes) {
  const x = Math.min(...boxes.map((b) => b[0])), y = Math.min(...boxes.map((b) => b[1]));
  const right = Math.max(...boxes.map((b) => b[0] + b[2]));
  const bottom = Math.max(...boxes.map((b) => b[1] + b[3]));
  return [x, y, right - x, bottom - y];
}

function rectangle(cx, cy, width, height) {
  const box = { x: cx - width / 2, y: cy - height / 2, width, height };
  return { tag: "rect", attrs: { x: box.x, y: box.y, width, height }, box,
    extent: [box.x, box.y, width, height], top: box.y, bottom: box.y + height,
    right: box.x + width };
}

// the hostile frame: a diamond a little larger than the friendly rectangle (as in APP-6),
// with the symbol in the rectangle it holds
function diamond(cx, cy, width) {
  const d = width * 0.7;
  const points = [[cx, cy - d], [cx + d, cy], [cx, cy + d], [cx - d, cy]];
  // the largest box of the friendly frame's shape the diamond holds, a little inside it
  const box = { x: cx - d * 0.55, y: cy - d * 0.39, width: d * 1.1, height: d * 0.78 };
  return { tag: "polygon", attrs: { points: points.map((p) => p.join(",")).join(" ") }, box,
    extent: [cx - d, cy - d, 2 * d, 2 * d], top: cy - d, bottom: cy + d, right: cx + d };
}

// each model of the unit where it stands (its footprint on the table), in a layer under
// every counter (a neighbour's models never cover a counter, nor take its click)
function drawSpots(info, data, colour, size, opacity) {
  if (!data.spots || data.spots.length < 2) return;
  let layer = overlay.querySelector(":scope > g.model-spots-layer");
  if (!layer) {
    layer = svgEl("g", { class: "model-spots-layer", "pointer-events": "none" });
    overlay.insertBefore(layer, overlay.querySelector(":scope > g.counter"));
  }
  const g = svgEl("g", { class: `model-spots ${floorClass(info)}`, "data-unit": info.id, opacity });
  layer.append(g);
  for (const [x, y] of data.spots) {
    g.append(svgEl("circle", { class: "model", cx: x, cy: mapHeight - y, r: size * 0.9,
      fill: tint(colour, 0.35), stroke: colour, "stroke-width": size * 0.2 }));
  }
}

// the way a vehicle or gun faces: a tick with a head, from under the frame outwards
function drawFacing(g, cx, cy, width, degrees, colour, size) {
  const angle = degrees * Math.PI / 180;
  const reach = width * 1.05;
  const tx = cx + Math.cos(angle) * reach, ty = cy - Math.sin(angle) * reach;
  g.append(svgEl("line", { class: "facing", x1: cx, y1: cy, x2: tx, y2: ty, stroke: colour,
    "stroke-width": size * 0.6, "stroke-linecap": "round" }));
  const back = size * 1.6;
  const side = (turn) => [tx - Math.cos(angle + turn) * back, ty + Math.sin(angle + turn) * back];
  const [l, r] = [side(0.5), side(-0.5)];
  g.append(svgEl("polygon", { class: "facing-head", fill: colour,
    points: `${tx},${ty} ${l.join(",")} ${r.join(",")}` }));
}

function drawCross(g, box, size) {
  const { x, y, width, height } = box;
  g.append(svgEl("path", { class: "out-cross", fill: "none", stroke: "#111",
    "stroke-width": size * 0.5, "stroke-linecap": "round",
    d: `M${x},${y} L${x + width},${y + height} M${x},${y + height} L${x + width},${y}` }));
}

// the strength, on a white tab under the frame (its top middle at cx, bottom); its box
function drawStrength(g, data, cx, bottom, height, out) {
  const text = data.strength ? data.strength.text : out ? "out" : "";
  if (!text) return null;
  const font = height * 0.44;
  const width = Math.max(text.length * font * 0.62 + font * 0.5, height * 0.7);
  g.append(svgEl("rect", { class: "strength-tab", x: cx - width / 2, y: bottom - font * 0.15,
    width, height: font * 1.15, rx: font * 0.2, fill: "#fff", stroke: "#333",
    "stroke-width": font * 0.08 }));
  const label = svgEl("text", { class: "strength", x: cx, y: bottom + font * 0.8,
    "font-size": font, "font-family": "sans-serif", "font-weight": "bold",
    "text-anchor": "middle", fill: out ? "#555" : "#111" });
  label.textContent = text;
  g.append(label);
  return [cx - width / 2, bottom - font * 0.15, width, font * 1.15];
}

// a badge for each state, in a row centred on the frame's top edge; the row's box
function drawBadges(g, marks, cx, top, height) {
  if (!marks.length) return null;
  const font = height * 0.36;
  const tall = font * 1.25;
  const widths = marks.map((m) => Math.max(m.short.length * font * 0.64 + font * 0.45, tall));
  const gap = font * 0.15;
  const across = widths.reduce((a, b) => a + b, 0) + gap * (marks.length - 1);
  let x = cx - across / 2;
  const row = [x, top - tall * 0.75, across, tall];
  marks.forEach((mark, i) => {
    const badge = svgEl("g", { class: `badge badge-${mark.tag}`, "data-tag": mark.tag });
    badge.append(svgEl("rect", { x, y: top - tall * 0.75, width: widths[i], height: tall,
      rx: tall * 0.3, fill: BADGE_COLOURS[mark.tag] || "#4a5568", stroke: "#fff",
      "stroke-width": font * 0.1 }));
    const text = svgEl("text", { x: x + widths[i] / 2, y: top - tall * 0.75 + font * 0.97,
      "font-size": font, "font-family": "sans-serif", "font-weight": "bold",
      "text-anchor": "middle", fill: "#fff" });
    text.textContent = mark.short;
    badge.append(text);
    const title = svgEl("title", {});
    title.textContent = mark.words;
    badge.append(title);
    g.append(badge);
    x += widths[i] + gap;
  });
  return row;
}

// the unit's name beside the counter (moved by the label placer, anchored on the counter)
function counterLabel(info, data, cx, cy, right, size) {
  const label = svgEl("text", { class: "label", x: right + size * 0.5, y: cy + size * 0.8,
    "data-anchor-x": cx, "data-anchor-y": cy, "font-size": size * 2.3,
    "font-family": "sans-serif", fill: "#111", stroke: "#fff", "stroke-width": size * 0.45,
    "paint-order": "stroke" });
  const age = data.age;
  label.textContent = info.id + (age ? ` · ${age} turn${age === 1 ? "" : "s"} ago` : "");
  return label;
}

function tooltip(data, out) {
  const lines = [...(data.stats || [])];
  if (data.strength) lines.push(data.strength.words);
  if (out) lines.push("out of action");
  for (const mark of data.marks || []) lines.push(mark.words);
  return lines.join("\n");
}

// -- the symbols inside the frame -----------------------------------------------------

function drawSymbol(symbol, box, colour, width) {
  const g = svgEl("g", { class: `symbol symbol-${symbol}`, fill: "none", stroke: colour,
    "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round" });
  const draw = SYMBOLS[symbol] || SYMBOLS.unknown;
  for (const [tag, attrs] of draw(box, colour)) g.append(symbolNode(tag, attrs));
  return g;
}

function cross({ x, y, width, height }) {
  return [["path", { d: `M${x},${y} L${x + width},${y + height} M${x},${y + height} `
    + `L${x + width},${y}` }]];
}

function oval({ x, y, width, height }, top, bottom) {
  const h = height * (bottom - top);
  return ["rect", { x: x + width * 0.12, y: y + height * top, width: width * 0.76, height: h,
    rx: h / 2 }];
}

function wheels({ x, y, width, height }, colour) {
  const r = height * 0.1;
  return [0.32, 0.68].map((f) => ["circle", { cx: x + width * f, cy: y + height * 0.8, r,
    fill: colour }]);
}

function arrowUp({ x, y, width, height }, from, to) {
  const cx = x + width / 2, head = height * 0.2;
  return ["path", { d: `M${cx},${y + height * from} L${cx},${y + height * to} `
    + `M${cx - head * 0.8},${y + height * to + head} L${cx},${y + height * to} `
    + `L${cx + head * 0.8},${y + height * to + head}` }];
}

function caret({ x, y, width, height }) {
  return ["path", { d: `M${x + width * 0.1},${y + height} L${x + width / 2},${y} `
    + `L${x + width * 0.9},${y + height}` }];
}

function dot({ x, y, width, height }, colour, share) {
  return ["circle", { cx: x + width / 2, cy: y + height / 2, r: height * share, fill: colour }];
}

function letters({ x, y, width, height }, colour, text) {
  return ["text", { x: x + width / 2, y: y + height * 0.72, "font-size": height * 0.62,
    "font-family": "sans-serif", "font-weight": "bold", "text-anchor": "middle",
    fill: colour, stroke: "none", _text: text }];
}

const SYMBOLS = {
  infantry: (box) => cross(box),
  // a headquarters: its staff down from the frame's left
  hq: (box) => [...cross(box), ["path", { d: `M${box.x},${box.y + box.height} `
    + `L${box.x},${box.y + box.height * 1.9}` }]],
  "machine-gun": (box) => [arrowUp(box, 0.95, 0.08), ["path", { d: `M${box.x + box.width * 0.3},`
    + `${box.y + box.height * 0.62} L${box.x + box.width * 0.7},${box.y + box.height * 0.62}` }]],
  mortar: (box, c) => [arrowUp(box, 0.72, 0.08),
    ["circle", { cx: box.x + box.width / 2, cy: box.y + box.height * 0.84, r: box.height * 0.12 }]],
  sniper: (box) => {
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2, r = box.height * 0.3;
    return [["circle", { cx, cy, r }], ["path", { d: `M${cx - r * 1.6},${cy} L${cx - r * 0.4},${cy} `
      + `M${cx + r * 0.4},${cy} L${cx + r * 1.6},${cy} M${cx},${cy - r * 1.5} L${cx},${cy - r * 0.4} `
      + `M${cx},${cy + r * 0.4} L${cx},${cy + r * 1.5}` }]];
  },
  "anti-tank": (box) => [...cross(box), caret(box)],
  flame: (box, c) => [...cross(box), letters(box, c, "F")],
  observer: (box, c) => {
    const { x, y, width, height } = box;
    return [["path", { d: `M${x + width * 0.2},${y + height * 0.9} L${x + width / 2},`
      + `${y + height * 0.1} L${x + width * 0.8},${y + height * 0.9} Z` }],
    ["circle", { cx: x + width / 2, cy: y + height * 0.62, r: height * 0.07, fill: c }]];
  },
  "anti-tank-gun": (box, c) => [caret(box), dot(box, c, 0.1)],
  howitzer: (box, c) => [dot(box, c, 0.22)],
  gun: (box, c) => [dot(box, c, 0.16), letters({ ...box, x: box.x + box.width * 0.3 }, c, "?")],
  tank: (box) => [oval(box, 0.2, 0.8)],
  "assault-gun": (box, c) => [oval(box, 0.2, 0.8), dot(box, c, 0.13)],
  "armoured-car": (box, c) => [oval(box, 0.1, 0.6), ...wheels(box, c)],
  lorry: (box, c) => [["path", { d: `M${box.x + box.width * 0.12},${box.y + box.height * 0.55} `
    + `L${box.x + box.width * 0.88},${box.y + box.height * 0.55}` }], ...wheels(box, c)],
  vehicle: (box, c) => [oval(box, 0.2, 0.8), letters(box, c, "?")],
  unknown: (box, c) => [letters(box, c, "?")],
};

// svgEl sets attributes only: a symbol's letters go in as the node's content
function symbolNode(tag, attrs) {
  const { _text, ...rest } = attrs;
  const node = svgEl(tag, rest);
  if (_text !== undefined) node.textContent = _text;
  return node;
}
