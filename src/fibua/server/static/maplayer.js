// What the game page draws over the map from the message's `map` layer (built by the
// server from the seat's view only): the floor switch, burning and ruined sections, markers
// on the seat's own troops, and arrows for the fire its troops took.
"use strict";

let floorShown = null;  // the floor the switch shows (null: every floor)

const MARK_TAGS = { overwatch: "OW", aim: "A", observing: "OB", ambush: "AM", pinned: "PN",
  ducked: "DK", loading: "LD", cover: "CV", react: "R" };
const SIDE_COLOURS = ["#2b6cb0", "#c53030", "#2f855a", "#b7791f", "#6b46c1"];

function layer() {
  return (state && state.map) || { floors: { count: 1, sections: {} }, sections: {}, marks: {},
    fired_on: [] };
}

// the section states to draw: the seat's view, and every side's once the game is over
function sectionStates() {
  return { ...layer().sections, ...((state && state.revealed && state.revealed.sections) || {}) };
}

function drawFloorSwitch() {
  const box = document.getElementById("floors");
  const count = layer().floors.count || 1;
  box.replaceChildren();
  box.hidden = count <= 1;
  if (count <= 1) return;
  const choices = [null, ...Array.from({ length: count }, (_, i) => i)];
  for (const floor of choices) {
    const name = floor === null ? "all floors" : floor === 0 ? "ground" : `floor ${floor}`;
    box.append(el("button", { class: "floor" + (floor === floorShown ? " on" : ""),
      "data-floor": floor === null ? "all" : String(floor),
      onclick: () => { floorShown = floor; render(); } }, name));
  }
}

// dims what is not on the floor shown: openings of other floors, sections without it
function applyFloorAndState() {
  const svg = document.querySelector("#mapbox svg");
  if (!svg) return;
  for (const line of svg.querySelectorAll("line.opening")) {
    line.classList.toggle("dim", floorShown !== null && Number(line.dataset.floor) !== floorShown);
  }
  const levels = layer().floors.sections || {};
  const states = sectionStates();
  for (const shape of svg.querySelectorAll("polygon.section[data-id]")) {
    const id = shape.dataset.id;
    shape.classList.toggle("dim", floorShown !== null && (levels[id] ?? 1) <= floorShown);
    if (states[id]) shape.dataset.state = states[id];
    else delete shape.dataset.state;
  }
}

// a troop's floor against the switch: "on" the floor shown, "off" it, or "" (every floor)
function floorClass(info) {
  if (floorShown === null) return "";
  return (info.floor ?? 0) === floorShown ? "on-floor" : "off-floor";
}

function drawSectionLabels(size) {
  const svg = document.querySelector("#mapbox svg");
  const states = sectionStates();
  for (const [id, what] of Object.entries(states)) {
    const shape = svg.querySelector(`polygon.section[data-id="${CSS.escape(id)}"]`);
    if (!shape) continue;
    const box = shape.getBBox();  // in table coordinates (the map group flips y)
    const x = box.x + box.width / 2, y = mapHeight - (box.y + box.height / 2);
    // a label (labels.js moves it off the others), ranked below units, above buildings
    const label = svgEl("text", { class: `label section-state ${what}`, "data-section": id,
      "data-anchor-x": x, "data-anchor-y": y, "data-priority": 20, x, y, "font-size": size * 2.4,
      "text-anchor": "middle", "font-family": "sans-serif", fill: what === "burning" ? "#7a1500" : "#333",
      stroke: "#fff", "stroke-width": size * 0.3, "paint-order": "stroke" });
    label.textContent = what;
    overlay.append(label);
  }
}

function drawMarks(own, size) {
  const marks = layer().marks[own.id] || [];
  if (!marks.length || !hasPlace(own)) return;
  const cx = own.x, cy = mapHeight - own.y;
  const g = svgEl("g", { class: `marks ${floorClass(own)}`, "data-unit": own.id });
  for (const mark of marks) {
    if (mark.kind === "overwatch") {
      g.append(svgEl("circle", { class: "mark-overwatch", cx: mark.x, cy: mapHeight - mark.y,
        r: mark.radius, fill: "#2f855a", "fill-opacity": 0.08, stroke: "#2f855a",
        "stroke-width": size * 0.25, "stroke-dasharray": `${size} ${size * 0.6}` }));
      g.append(svgEl("line", { x1: cx, y1: cy, x2: mark.x, y2: mapHeight - mark.y,
        stroke: "#2f855a", "stroke-width": size * 0.15, "stroke-dasharray": `${size * 0.5}` }));
    }
    if (mark.kind === "aim") {
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        g.append(svgEl("line", { class: "mark-aim", x1: cx + dx * size * 1.2, y1: cy + dy * size * 1.2,
          x2: cx + dx * size * 2, y2: cy + dy * size * 2, stroke: "#b7791f", "stroke-width": size * 0.3 }));
      }
    }
  }
  overlay.append(g);
  if (counterData(own, "own")) return;  // its counter carries these as badges (counters.js)
  const tags = marks.map((m) => (MARK_TAGS[m.kind] || m.kind.slice(0, 2).toUpperCase())
    + (m.kind === "aim" ? m.label.replace(/\D/g, "") : ""));
  const text = svgEl("text", { class: "mark-tags", x: cx - size, y: cy + size * 2.8,
    "font-size": size * 1.2, "font-family": "sans-serif", fill: "#1d4f85", stroke: "#fff",
    "stroke-width": size * 0.3, "paint-order": "stroke" });
  text.textContent = tags.join(" ");
  const title = svgEl("title", {});
  title.textContent = marks.map((m) => m.label).join(", ");
  text.append(title);
  g.append(text);
}

function drawFireArrows(size) {
  const turn = state.status.turn || 0;
  for (const report of layer().fired_on) {
    const tx = report.x, ty = mapHeight - report.y;
    let sx, sy;
    if (report.source) {
      sx = report.source[0];
      sy = mapHeight - report.source[1];
    } else {
      const angle = report.bearing * Math.PI / 180;
      sx = tx + Math.cos(angle) * size * 14;
      sy = ty - Math.sin(angle) * size * 14;
    }
    const length = Math.hypot(tx - sx, ty - sy) || 1;
    // the head stops at the edge of the troop's counter (counters.js)
    const stop = Math.min(size * (COUNTER_WIDTH / 2 + 0.6), length / 2);
    const line = svgEl("line", { class: `fire-arrow ${report.source ? "" : "bearing"} ${floorClass(report)}`,
      "data-unit": report.unit, "data-turn": report.turn, x1: sx, y1: sy,
      x2: tx - (tx - sx) / length * stop, y2: ty - (ty - sy) / length * stop,
      stroke: "#d53f00", "stroke-width": size * 0.35, "marker-end": "url(#fire-head)",
      opacity: report.turn === turn ? 0.9 : 0.45 });
    if (!report.source) line.setAttribute("stroke-dasharray", `${size} ${size * 0.5}`);
    const title = svgEl("title", {});
    title.textContent = `${report.unit} fired on (turn ${report.turn})`
      + (report.shots > 1 ? `, ${report.shots} shots` : "");
    line.append(title);
    overlay.append(line);
  }
}

function arrowHead(svg) {
  if (svg.querySelector("#fire-head")) return;
  const defs = svgEl("defs", {});
  const marker = svgEl("marker", { id: "fire-head", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
  marker.append(svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#d53f00" }));
  defs.append(marker);
  svg.prepend(defs);
}

// every troop of every side once the game is over, coloured by side (the seat's own blue)
function drawRevealed(size, onclick) {
  const sides = [];
  const mySide = state.seat ? state.seat.side : null;
  if (mySide) sides.push(mySide);
  for (const troop of state.revealed.troops) {
    if (!sides.includes(troop.side)) sides.push(troop.side);
  }
  for (const troop of state.revealed.troops) {
    if (!hasPlace(troop)) continue;
    const colour = SIDE_COLOURS[sides.indexOf(troop.side) % SIDE_COLOURS.length];
    figure(troop, colour, outOfAction(troop) ? 0.35 : 1, size, () => onclick(troop),
      `troop side-${troop.side}`);
  }
}
