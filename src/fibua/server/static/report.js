// The after-action report and the replay of an uploaded log: the whole game as Control saw
// it, one turn at a time on a slider (every side's figures on the map, the turn's events).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
let report = null;     // the report the server sent
let mapHeight = 0;
let unitSize = 1;
let figures = null;    // the SVG group the figures are drawn in

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function showError(message) {
  document.getElementById("report-error").textContent = message || "";
}

function headline() {
  const r = report.result;
  const scores = r ? Object.entries(r.scores || {}).map(([s, v]) => `${s}: ${v}`).join(" · ") : "";
  return el("section", { class: "report-head" },
    el("h2", { id: "headline" }, `${report.scenario.title}: ${report.headline}`),
    el("div", { id: "reason" }, r ? r.reason : ""),
    el("div", {}, scores),
    el("div", { class: "facts" }, `${report.scenario.ruleset} · seed ${report.seed} · `
      + `${report.orders} orders · ${report.lines} log lines · state hash ${report.state_hash}`));
}

function slider() {
  const last = report.turns.length - 1;
  const range = el("input", { type: "range", id: "turn-slider", min: 0, max: Math.max(last, 0),
    value: 0, step: 1 });
  range.addEventListener("input", () => showTurn(Number(range.value)));
  const step = (by) => () => {
    range.value = String(Math.min(last, Math.max(0, Number(range.value) + by)));
    showTurn(Number(range.value));
  };
  return el("div", { class: "slider-row" },
    el("button", { id: "turn-prev", onclick: step(-1) }, "◀"), range,
    el("button", { id: "turn-next", onclick: step(1) }, "▶"),
    el("span", { id: "turn-label" }, ""));
}

// a side's colour chip, coloured through the style object: the page's policy refuses style
// attributes written as text
function swatch(colour) {
  const chip = el("span", { class: "swatch" });
  chip.style.background = colour;
  return chip;
}

function legend() {
  return el("div", { class: "muted" }, ...report.sides.map((s) => el("span", {},
    swatch(s.colour), `${s.name}  `)));
}

function layout(root) {
  const map = el("div", { class: "replay-map", id: "replay-map" });
  map.innerHTML = report.map;  // the server's own drawing of the battlefield
  const svg = map.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const view = svg.getAttribute("viewBox").split(/\s+/).map(Number);
  mapHeight = view[3];
  unitSize = Math.max(view[2], view[3]) / 160;
  figures = svgNode("g", { id: "figures" });
  svg.append(figures);
  root.replaceChildren(headline(),
    el("div", { class: "replay" }, map,
      el("div", { class: "replay-side" }, slider(), legend(),
        el("h2", {}, "Events of the turn"), el("div", { id: "turn-events" }),
        el("h2", {}, "Where each stood at the turn's end"), el("div", { id: "standing" }))),
    el("h2", {}, "After-action report"),
    el("pre", { id: "after-action" }, (report.after_action || []).join("\n") || "(none)"));
}

function colourOf(side) {
  const found = report.sides.find((s) => s.name === side);
  return found ? found.colour : "#555";
}

function drawFigures(turn) {
  figures.replaceChildren();
  for (const [side, list] of Object.entries(turn.standing)) {
    for (const f of list) {
      if (typeof f.x !== "number" || typeof f.y !== "number") continue;
      const g = svgNode("g", { class: "figure", "data-id": f.id, "data-side": side,
        opacity: f.out ? 0.35 : 1 });
      const cx = f.x, cy = mapHeight - f.y;
      g.append(svgNode("circle", { cx, cy, r: unitSize, fill: colourOf(side), stroke: "#fff",
        "stroke-width": unitSize * 0.3 }));
      const label = svgNode("text", { x: cx + unitSize * 1.3, y: cy + unitSize * 0.5,
        "font-size": unitSize * 1.5, "font-family": "sans-serif", fill: "#111", stroke: "#fff",
        "stroke-width": unitSize * 0.3, "paint-order": "stroke" });
      label.textContent = f.id;
      const title = svgNode("title", {});
      title.textContent = `${side}: ${f.name} (${f.status || "-"})`;
      g.append(label, title);
      figures.append(g);
    }
  }
}

function drawEvents(turn) {
  const box = document.getElementById("turn-events");
  box.replaceChildren();
  if (!turn.events.length) box.append(el("div", { class: "muted" }, "No events."));
  for (const event of turn.events) {
    box.append(el("div", { class: "event" }, el("span", { class: "to" }, `[${event.to}] `),
      event.text));
    for (const roll of event.rolls) box.append(el("div", { class: "roll" }, roll));
  }
}

function drawStanding(turn) {
  const box = document.getElementById("standing");
  box.replaceChildren();
  for (const [side, list] of Object.entries(turn.standing)) {
    const rows = list.map((f) => el("tr", { class: f.out ? "out" : "" },
      el("td", {}, f.id), el("td", {}, f.name), el("td", {}, f.where), el("td", {}, f.status)));
    box.append(el("table", { "data-side": side },
      el("caption", {}, swatch(colourOf(side)), side),
      el("tr", {}, el("th", {}, "id"), el("th", {}, "name"), el("th", {}, "where"),
        el("th", {}, "status")), ...rows));
  }
}

function showTurn(index) {
  const turn = report.turns[index];
  if (!turn) return;
  document.getElementById("turn-label").textContent =
    `Turn ${turn.turn} (${index + 1} of ${report.turns.length})`;
  drawFigures(turn);
  drawEvents(turn);
  drawStanding(turn);
}

// show a report the server sent (the watch page calls this after an upload)
function showReport(data) {
  report = data;
  showError("");
  layout(document.getElementById("report"));
  if (report.turns.length) showTurn(0);
}

async function loadGameReport() {
  const gameId = location.pathname.split("/").pop();
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  document.getElementById("back").href = `/play/${gameId}#token=${token}`;
  const response = await fetch(`/api/games/${gameId}/report`,
    { headers: { authorization: "Bearer " + token } });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || response.statusText);
  showReport(data);
}

if (document.body.dataset.page === "report") {
  loadGameReport().catch((error) => showError(error.message));
}
