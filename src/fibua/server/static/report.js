// The after-action report and the replay of an uploaded log: the whole game as Control saw
// it, one turn at a time on a slider (every side's figures on the map, the turn's events).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
let report = null;     // the report the server sent
let mapHeight = 0;
let unitSize = 1;
let figures = null;    // the SVG group the figures are drawn in
let viewShown = null;  // the side whose view the map shows (null: Control's, everything)

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
      + `${report.orders} orders · ${report.lines} log lines · state hash ${report.state_hash}`),
    // who played (a server game's report; an uploaded log does not say)
    el("div", { id: "players" }, report.players ? "Played by: " + report.players.map((p) =>
      `${p.side}${p.name !== p.side ? " " + p.name : ""}: `
      + (p.player === "computer" ? `computer (${p.level})` : p.player)).join(" · ") : ""));
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

// Control (everything) or one side's view: its own troops, the enemies as it last saw them
// and the events it was told
function viewSwitch() {
  const box = el("div", { id: "view-switch", class: "slider-row" }, "View: ");
  for (const choice of [null, ...report.sides.map((s) => s.name)]) {
    box.append(el("button", { class: "view" + (choice === viewShown ? " on" : ""),
      "data-view": choice === null ? "control" : choice,
      onclick: () => { viewShown = choice; showTurn(turnShown()); } },
      choice === null ? "Control (everything)" : `${possessive(choice)} view`));
  }
  return box;
}

// a side's name with its possessive ending: the germans' view, the british's view
function possessive(name) {
  return name.endsWith("s") ? `${name}'` : `${name}'s`;
}

function turnShown() {
  return Number(document.getElementById("turn-slider").value);
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
      el("div", { class: "replay-side" }, slider(), viewSwitch(), legend(),
        el("h2", {}, "Events of the turn"), el("div", { id: "turn-events" }),
        el("h2", {}, "Where each stood at the turn's end"), el("div", { id: "standing" }))),
    el("h2", {}, "After-action report"),
    el("pre", { id: "after-action" }, (report.after_action || []).join("\n") || "(none)"));
}

function colourOf(side) {
  const found = report.sides.find((s) => s.name === side);
  return found ? found.colour : "#555";
}

// the side an enemy of `side` belongs to, when there is only one other (else unknown)
function enemyOf(side) {
  const others = report.sides.filter((s) => s.name !== side);
  return others.length === 1 ? others[0].name : null;
}

function drawFigures(turn) {
  figures.replaceChildren();
  const shown = viewShown === null ? Object.entries(turn.standing)
    : [[viewShown, turn.standing[viewShown] || []]];
  for (const [side, list] of shown) {
    for (const f of list) drawFigure(f, side, "figure", f.out ? 0.35 : 1);
  }
  if (viewShown === null) return;
  // the enemies where the side last saw them: solid while in sight, dashed and faded after
  for (const f of (turn.seen || {})[viewShown] || []) {
    const g = drawFigure(f, enemyOf(viewShown), "figure sighting"
      + (f.visible ? " in-sight" : " last-seen"), f.out ? 0.35 : f.visible ? 1 : 0.55);
    if (g && !f.visible) {
      g.querySelector("circle").setAttribute("stroke-dasharray", `${unitSize * 0.6} ${unitSize * 0.4}`);
      g.querySelector("text").textContent += ` (turn ${f.seen_turn})`;
    }
  }
}

function drawFigure(f, side, kind, opacity) {
  if (typeof f.x !== "number" || typeof f.y !== "number") return null;
  // data-avoid: no label is placed over it (labels.js)
  const g = svgNode("g", { class: kind, "data-id": f.id, "data-side": side || "enemy", opacity,
    "data-avoid": "" });
  const cx = f.x, cy = mapHeight - f.y;
  g.append(svgNode("circle", { cx, cy, r: unitSize, fill: side ? colourOf(side) : "#555",
    stroke: "#fff", "stroke-width": unitSize * 0.3 }));
  const label = svgNode("text", { class: "label", x: cx + unitSize * 1.3, y: cy + unitSize * 0.5,
    "font-size": unitSize * 1.5, "font-family": "sans-serif", fill: "#111", stroke: "#fff",
    "stroke-width": unitSize * 0.3, "paint-order": "stroke" });
  label.textContent = f.id;
  const title = svgNode("title", {});
  title.textContent = `${side || "enemy"}: ${f.name} (${f.status || "-"})`;
  g.append(label, title);
  figures.append(g);
  return g;
}

function drawEvents(turn) {
  const box = document.getElementById("turn-events");
  box.replaceChildren();
  const told = viewShown === null ? turn.events
    : turn.events.filter((e) => (e.sides || []).includes(viewShown));
  if (!told.length) box.append(el("div", { class: "muted" }, "No events."));
  for (const event of told) {
    box.append(el("div", { class: "event" }, el("span", { class: "to" }, `[${event.to}] `),
      event.text));
    for (const roll of event.rolls) box.append(el("div", { class: "roll" }, roll));
  }
}

function drawStanding(turn) {
  const box = document.getElementById("standing");
  box.replaceChildren();
  const shown = viewShown === null ? Object.entries(turn.standing)
    : [[viewShown, turn.standing[viewShown] || []]];
  for (const [side, list] of shown) box.append(figureTable(side, side, list));
  if (viewShown !== null) {
    const enemy = enemyOf(viewShown);
    box.append(figureTable(`seen-by-${viewShown}`, `enemies as ${viewShown} saw them`,
      (turn.seen || {})[viewShown] || [], enemy ? colourOf(enemy) : "#555"));
  }
}

function figureTable(key, caption, list, colour) {
  const rows = list.map((f) => el("tr", { class: f.out ? "out" : "" },
    el("td", {}, f.id), el("td", {}, f.name), el("td", {}, f.where), el("td", {}, f.status)));
  return el("table", { "data-side": key },
    el("caption", {}, swatch(colour || colourOf(key)), caption),
    el("tr", {}, el("th", {}, "id"), el("th", {}, "name"), el("th", {}, "where"),
      el("th", {}, "status")), ...rows);
}

function showTurn(index) {
  const turn = report.turns[index];
  if (!turn) return;
  // the game's end is dated the turn after the last when the turn limit ends it
  const ending = turn.turn > report.scenario.turns;
  document.getElementById("turn-label").textContent = (ending ? "The end"
    : `Turn ${turn.turn}`) + ` (${index + 1} of ${report.turns.length})`;
  for (const button of document.querySelectorAll("#view-switch button")) {
    const view = viewShown === null ? "control" : viewShown;
    button.classList.toggle("on", button.dataset.view === view);
  }
  drawFigures(turn);
  // no label over another or over a figure: the game page's placer (labels.js)
  if (typeof placeLabels === "function") placeLabels(figures.ownerSVGElement);
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
