// Aids on the map, as a virtual table gives them: where the selected unit may go
// (showReach / clearReach, shaded from the rules' own answer), the odds of a shot on
// hovering a seen enemy, what could be seen from a point (the sight tool) and a measuring
// tape. It reads game.js's globals (state, selected, gameId, token, api, mapHeight,
// tablePoint, floorShown) and draws in a layer of its own under the troops.
"use strict";

const aids = {
  tool: null,        // "sight" or "measure" while one is on
  reachFor: null,    // {unit, kind, params, version}: the reach asked for last
  tape: null,        // {a, b, fixed, dragged, clicks}: the tape being laid or laid
  press: null,       // where the mouse went down (a pan is not a click)
  unit: "",          // the table's unit, as the tape says it
  odds: new Map(),   // "version|firer|target" -> the tooltip's text
  hovered: null,     // the odds key the pointer is over
};

const UNIT_WORDS = { inch: "in", cm: "cm" };

function aidsLayer(name) {
  const svg = document.querySelector("#mapbox svg");
  if (!svg) return null;
  let root = svg.querySelector("#aids");
  if (!root) {
    root = svgEl("g", { id: "aids" });
    svg.insertBefore(root, svg.querySelector("#overlay"));  // under the troops
  }
  let group = root.querySelector(`g[data-aid="${name}"]`);
  if (!group) {
    group = svgEl("g", { "data-aid": name });
    root.append(group);
  }
  return group;
}

// a shading answer's runs of cells as rectangles (rows count northwards from its origin)
function shade(group, answer, cls) {
  group.replaceChildren();
  const [x0, y0] = answer.origin;
  const cell = answer.cell;
  for (const [row, first, last] of answer.runs) {
    group.append(svgEl("rect", { class: cls, x: x0 + first * cell,
      y: mapHeight - (y0 + (row + 1) * cell), width: (last - first + 1) * cell,
      height: cell }));
  }
}

function readout(text) {
  document.getElementById("aids-readout").textContent = text || "";
}

// -- where it can go ------------------------------------------------------------------------

// Shade the places `unit` may be sent by an order of `kind` (with `params` besides its
// point, if given): the rules' answer for the seat's message now.
async function showReach(unit, kind, params) {
  if (!state || !state.seat || !state.seat.may_act) return;
  const ask = { unit, kind, params, version: state.version };
  aids.reachFor = ask;
  const query = new URLSearchParams({ unit, kind });
  if (params) query.set("params", JSON.stringify(params));
  try {
    const answer = await api("GET", `/api/games/${gameId}/reach?${query}`);
    if (aids.reachFor !== ask) return;  // cleared or asked again meanwhile
    const group = aidsLayer("reach");
    if (!group) return;
    shade(group, answer, "reach-cell");
    group.dataset.unit = unit;
    group.dataset.kind = kind;
    group.dataset.cells = String(answer.runs.reduce((n, r) => n + r[2] - r[1] + 1, 0));
  } catch (error) {
    if (aids.reachFor === ask) clearReach();
  }
}

function clearReach() {
  aids.reachFor = null;
  const group = aidsLayer("reach");
  if (group) group.replaceChildren();
}

// after each render: a reach of an older message is asked again, or cleared when the
// unit is no longer selected or the seat may no longer act
function aidsRendered() {
  const ask = aids.reachFor;
  if (!ask || !state || ask.version === state.version) return;
  if (state.seat && state.seat.may_act && selected === ask.unit) {
    showReach(ask.unit, ask.kind, ask.params);
  } else {
    clearReach();
  }
}

// -- odds on hover ------------------------------------------------------------------------------

function tip(event, text) {
  const box = document.getElementById("aids-tip");
  box.hidden = !text;
  if (!text) return;
  box.textContent = text;
  if (event) {
    box.style.left = `${event.clientX + 14}px`;
    box.style.top = `${event.clientY + 14}px`;
  }
}

// the selected unit's listed order at this enemy: a plain shot before one that moves
function shotAt(enemyId) {
  const aimed = (state.legal || []).filter((o) => o.unit === selected
    && (o.params.target === enemyId || (o.params.targets || []).includes(enemyId)));
  return aimed.find((o) => !pointParam(o)) || aimed[0] || null;
}

function oddsText(order, answer) {
  const forecast = answer.forecast || {};
  const risks = (forecast.risks || []).length ? ` · ${forecast.risks.join(", ")}` : "";
  if (typeof forecast.chance === "number") {
    return `${order.kind} ${order.params.target || ""}: ${Math.round(forecast.chance * 100)}%`
      + `${risks}`;
  }
  return (forecast.text || answer.preview || order.kind) + risks;
}

async function hoverEnemy(event, enemyId) {
  if (!state || !selected || !state.seat || !state.seat.may_act) return;
  if (!state.ordersLoaded) { tip(event, `${selected}: fetching its orders…`); return; }
  const order = shotAt(enemyId);
  if (!order) { tip(event, `${selected} has no shot at ${enemyId} now`); return; }
  const key = `${state.version}|${selected}|${enemyId}`;
  aids.hovered = key;
  if (aids.odds.has(key)) { tip(event, aids.odds.get(key)); return; }
  tip(event, `${order.kind} ${enemyId}: …`);
  try {
    const answer = await api("POST", `/api/games/${gameId}/preview`,
      { kind: order.kind, unit: order.unit, params: order.params });
    aids.odds.set(key, oddsText(order, answer));
  } catch (error) {
    aids.odds.set(key, `${order.kind} ${enemyId}: ${error.message}`);
  }
  if (aids.odds.size > 200) aids.odds.clear();
  if (aids.hovered === key) tip(null, aids.odds.get(key));
}

// -- the sight tool and the tape ----------------------------------------------------------------

function setTool(tool) {
  aids.tool = aids.tool === tool ? null : tool;
  aids.press = null;
  for (const button of document.querySelectorAll("#aids-bar button[data-tool]")) {
    button.classList.toggle("on", button.dataset.tool === aids.tool);
  }
  const box = document.getElementById("mapbox");
  box.classList.toggle("measuring", aids.tool === "measure");
  box.classList.toggle("sighting", aids.tool === "sight");
  readout(aids.tool === "sight" ? "sight: click a point of the map"
    : aids.tool === "measure" ? "measure: drag, or click twice" : "");
}

function clearAids() {
  aids.tape = null;
  for (const name of ["sight", "tape"]) {
    const group = aidsLayer(name);
    if (group) group.replaceChildren();
  }
  readout("");
}

async function sightFrom(p) {
  const query = new URLSearchParams({ x: p.x, y: p.y, floor: floorShown ?? 0 });
  try {
    const answer = await api("GET", `/api/games/${gameId}/sight?${query}`);
    const group = aidsLayer("sight");
    shade(group, answer, "sight-cell");
    const size = Math.max(mapWidth, mapHeight) / 220;
    group.append(svgEl("circle", { class: "sight-eye", cx: answer.from[0],
      cy: mapHeight - answer.from[1], r: size * 0.7, "stroke-width": size * 0.25 }));
    const cells = answer.runs.reduce((n, r) => n + r[2] - r[1] + 1, 0);
    group.dataset.cells = String(cells);
    readout(`in sight from (${answer.from[0]}, ${answer.from[1]})`
      + `${answer.floor ? ` floor ${answer.floor}` : ""}: `
      + `${Math.round(100 * cells / (answer.rows * answer.cols))}% of the table`);
  } catch (error) {
    readout(`sight: ${error.message}`);
  }
}

function drawTape() {
  const group = aidsLayer("tape");
  const tape = aids.tape;
  if (!group || !tape) return;
  group.replaceChildren();
  const size = Math.max(mapWidth, mapHeight) / 220;
  const [ax, ay, bx, by] = [tape.a.x, mapHeight - tape.a.y, tape.b.x, mapHeight - tape.b.y];
  const length = Math.hypot(tape.b.x - tape.a.x, tape.b.y - tape.a.y);
  const figure = `${length.toFixed(1)} ${aids.unit}`;
  group.append(svgEl("line", { class: "tape", x1: ax, y1: ay, x2: bx, y2: by,
    "stroke-width": size * 0.4 }));
  for (const [x, y] of [[ax, ay], [bx, by]]) {
    group.append(svgEl("circle", { class: "tape-end", cx: x, cy: y, r: size * 0.5 }));
  }
  const label = svgEl("text", { class: "tape-figure", x: (ax + bx) / 2 + size,
    y: (ay + by) / 2 - size, "font-size": size * 2, "stroke-width": size * 0.4 });
  label.textContent = figure;
  group.append(label);
  group.dataset.length = length.toFixed(2);
  readout(`measure: ${figure}`);
}

function moved(event) {
  return aids.press && Math.abs(event.clientX - aids.press.x)
    + Math.abs(event.clientY - aids.press.y) > 4;
}

// the tools take the map's mouse before game.js does (capture on its box): a press while
// measuring lays the tape instead of panning, a click in a tool's mode gives no order
function hookMap() {
  const box = document.getElementById("mapbox");
  box.addEventListener("mousedown", (event) => {
    if (!aids.tool) return;
    aids.press = { x: event.clientX, y: event.clientY };
    if (aids.tool !== "measure") return;
    event.stopPropagation();
    const p = tablePoint(event, false);
    if (!aids.tape || aids.tape.fixed) aids.tape = { a: p, b: p, fixed: false, clicks: 0 };
  }, true);
  window.addEventListener("mousemove", (event) => {
    const tape = aids.tape;
    if (aids.tool !== "measure" || !tape || tape.fixed || !document.querySelector("#mapbox svg")) return;
    tape.b = tablePoint(event, false);
    if (moved(event)) tape.dragged = true;
    drawTape();
  });
  window.addEventListener("mouseup", (event) => {
    const tape = aids.tape;
    if (aids.tool !== "measure" || !tape || tape.fixed || !aids.press) return;
    tape.b = tablePoint(event, false);
    tape.clicks += 1;
    tape.fixed = tape.dragged || tape.clicks >= 2;
    aids.press = null;
    drawTape();
  });
  box.addEventListener("click", (event) => {
    if (!aids.tool) return;
    event.stopPropagation();
    if (aids.tool === "sight" && !moved(event)) sightFrom(tablePoint(event, false));
  }, true);
  box.addEventListener("mouseover", (event) => {
    const enemy = event.target.closest && event.target.closest(".figure.enemy");
    if (enemy) hoverEnemy(event, enemy.dataset.id);
  });
  box.addEventListener("mousemove", (event) => {
    if (!document.getElementById("aids-tip").hidden) tip(event, document.getElementById("aids-tip").textContent);
  });
  box.addEventListener("mouseout", (event) => {
    const enemy = event.target.closest && event.target.closest(".figure.enemy");
    if (enemy && !enemy.contains(event.relatedTarget)) { aids.hovered = null; tip(null, ""); }
  });
}

async function loadTable() {
  try {
    const table = await api("GET", `/api/games/${gameId}/table`);
    aids.unit = UNIT_WORDS[table.unit] || table.unit;
  } catch (error) {
    aids.unit = "";
  }
}

for (const button of document.querySelectorAll("#aids-bar button[data-tool]")) {
  button.addEventListener("click", () => setTool(button.dataset.tool));
}
document.getElementById("aids-clear").addEventListener("click", clearAids);
window.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && aids.tool) setTool(aids.tool);
});
hookMap();
loadTable();
