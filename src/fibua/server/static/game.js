// The game page: the map from this seat's view, its units' orders, the dice log.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const gameId = location.pathname.split("/").pop();
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
let state = null;          // the last message from the server, with its orders once fetched
let selected = null;       // the id of the selected unit
let pending = null;        // {kind, unit, params} being previewed
let pointMode = null;      // {kind, unit}: the composer (orders.js) waits for a place
let mapHeight = 0;
let mapWidth = 0;
let overlay = null;

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function say(message) {
  document.getElementById("messages").textContent = message || "";
}

async function api(method, path, body) {
  const response = await fetch(path, { method,
    headers: { "content-type": "application/json", authorization: "Bearer " + token },
    body: body === undefined ? undefined : JSON.stringify(body) });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error(data.message || response.statusText);
  return data;
}

// -- the map ------------------------------------------------------------------------------

async function loadMap() {
  const text = await api("GET", `/api/games/${gameId}/map.svg`);
  const box = document.getElementById("mapbox");
  box.innerHTML = text;  // the server's own drawing of the public map
  const svg = box.querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const view = svg.getAttribute("viewBox").split(/\s+/).map(Number);
  mapWidth = view[2];
  mapHeight = view[3];
  overlay = svgEl("g", { id: "overlay" });
  svg.append(overlay);
  arrowHead(svg);
  panAndZoom(svg, makeRoom(svg, view));  // counters.js: room for counters at the edge
}

function panAndZoom(svg, start) {
  let box = start.slice();
  let drag = null;
  const apply = () => svg.setAttribute("viewBox", box.join(" "));
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const p = tablePoint(event, true);
    const factor = event.deltaY > 0 ? 1.15 : 1 / 1.15;
    box = [p.sx - (p.sx - box[0]) * factor, p.sy - (p.sy - box[1]) * factor,
           box[2] * factor, box[3] * factor];
    apply();
  }, { passive: false });
  svg.addEventListener("mousedown", (event) => {
    drag = { x: event.clientX, y: event.clientY, box: box.slice(), moved: false };
  });
  window.addEventListener("mousemove", (event) => {
    // a pan only while the button is held: a move straight after a click (before the
    // click's drag is let go) is not a drag
    if (!drag || !(event.buttons & 1)) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    if (!drag.moved) return;
    const scale = box[2] / svg.clientWidth;
    box = [drag.box[0] - dx * scale, drag.box[1] - dy * scale, box[2], box[3]];
    apply();
  });
  window.addEventListener("mouseup", () => { setTimeout(() => { drag = null; }, 0); });
  svg.addEventListener("click", (event) => {
    if (drag && drag.moved) return;
    if (event.target.closest && event.target.closest(".figure")) return;
    const p = tablePoint(event, false);
    mapClicked(p.x, p.y);
  });
}

// where an event falls: in SVG units (sx, sy) and on the table (x, y: y grows north)
function tablePoint(event, raw) {
  const svg = document.querySelector("#mapbox svg");
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  return { sx: p.x, sy: p.y, x: round(p.x), y: round(mapHeight - p.y) };
}

function round(v) { return Math.round(v * 100) / 100; }

function hasPlace(f) { return typeof f.x === "number" && typeof f.y === "number"; }

function outOfAction(f) {
  return f.alive === false || ["dead", "destroyed", "eliminated", "surrendered"].includes(f.status)
    || f.surrendered === true || f.hp === 0;
}

function drawFigures() {
  if (!overlay || !state) return;
  overlay.replaceChildren();
  applyFloorAndState();
  const unitSize = Math.max(mapWidth, mapHeight) / 220;
  drawSectionLabels(unitSize);
  const view = state.view;
  if (view) {
    for (const own of view.own || []) drawMarks(own, unitSize);
    drawFireArrows(unitSize);
  }
  if (state.revealed) {
    // the game is over: every troop where it stands, for everyone
    drawRevealed(unitSize, (troop) => (view && troop.side === state.seat.side ? select(troop.id)
      : targetClicked(troop)));
    return;
  }
  if (!view) return;  // a spectator sees no troops until the end
  const turn = state.status.turn || 0;
  for (const enemy of view.enemies || []) {
    if (!hasPlace(enemy)) continue;
    // a sighting fades with its age; one in sight now is drawn solid
    const age = Math.max(0, turn - (enemy.seen_turn ?? turn));
    const opacity = enemy.visible_now ? 1 : Math.max(0.25, 0.7 - age * 0.15);
    figure(enemy, "#c53030", opacity, unitSize, () => targetClicked(enemy),
      "enemy" + (enemy.visible_now ? " in-sight" : " last-seen"), age);
  }
  for (const own of view.own || []) {
    if (!hasPlace(own)) continue;
    const mine = !state.seat.units || state.seat.units.includes(own.id);
    figure(own, mine ? "#2b6cb0" : "#6f8fb8", outOfAction(own) ? 0.35 : 1, unitSize,
           () => ownCounterClicked(own), "own");  // friends.js: a form may want it
  }
  drawDestinations(unitSize);
}

// the rules' sampled places of the kind the composer waits for, as blue dots drawn over
// the counters: a place where an enemy was last seen is still a place to go to
function drawDestinations(unitSize) {
  if (!selected || !pointMode) return;
  const shown = state.legal.filter((o) => o.unit === selected && o.kind === pointMode.kind);
  for (const order of shown) {
    const point = pointParam(order);
    if (!point) continue;
    const [, value] = point;
    const dot = svgEl("circle", { cx: value[0], cy: mapHeight - value[1], r: unitSize * 0.35,
      fill: "#2b6cb0", opacity: 0.45, class: "destination" });
    dot.addEventListener("click", (event) => { event.stopPropagation(); chosen(order); });
    overlay.append(dot);
  }
}

function figure(info, colour, opacity, size, onclick, kind, age) {
  drawCounter(info, colour, opacity, size, onclick, kind, age);  // counters.js
}

// -- orders -------------------------------------------------------------------------------

// the parameter of an order that is a place on the table ([x, y]), if any
function pointParam(order) {
  for (const [name, value] of Object.entries(order.params || {})) {
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "number")) {
      return [name, value];
    }
  }
  return null;
}

function select(id) {
  selected = id;
  pointMode = null;
  clearReach();
  if (state) {
    state.ordersLoaded = false;
    state.legal = [];
    state.idle = {};
    if (state.seat && state.seat.may_act) loadOrders(state, id);
  }
  render();
}

function describe(params) {
  return Object.entries(params).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
}

// the selected unit's orders: the composer (orders.js), a button per form of each kind
function drawOrders() {
  drawComposer();
}

function mapClicked(x, y) {
  composerMapClick(x, y);
}

function targetClicked(enemy) {
  composerTargetClick(enemy);
}

async function chosen(order) {
  pending = { kind: order.kind, unit: order.unit, params: order.params || {} };
  const box = document.getElementById("preview");
  box.hidden = false;
  box.replaceChildren(el("div", {}, `${pending.kind} ${pending.unit || ""} ${describe(pending.params)}`));
  try {
    const answer = await api("POST", `/api/games/${gameId}/preview`, pending);
    box.append(el("div", { class: "forecast-text" }, answer.preview),
      ...forecastLines(answer.forecast),
      el("button", { class: "primary", id: "commit", onclick: commit }, "Commit"),
      el("button", { id: "cancel", onclick: cancel }, "Cancel"));
    say("");
  } catch (error) {
    box.append(el("div", { class: "error" }, error.message),
      el("button", { id: "cancel", onclick: cancel }, "Cancel"));
  }
  // below a long list of orders the preview and its Commit would be out of sight
  box.scrollIntoView({ block: "nearest" });
}

// what a preview's data says beyond its sentence: the chance, what the order becomes and
// each risk, in words and marked (a risk in red), read from the typed forecast
const RISK_WORDS = {
  "friendly-fire": "Risk: your own troops may be hit.",
  hopeless: "No roll can succeed: this order cannot do what it is meant to.",
  harmless: "It cannot harm the target: a hit only pins it.",
  wasted: "Risk: the order is used up and may do nothing.",
};

function forecastLines(forecast) {
  if (!forecast) return [];
  const lines = [];
  if (typeof forecast.chance === "number") {
    lines.push(el("div", { class: "forecast-chance", "data-chance": forecast.chance },
      `Chance of success: ${Math.round(forecast.chance * 100)}%`));
  }
  if (forecast.becomes) {
    lines.push(el("div", { class: "forecast-becomes" }, `This order becomes a ${forecast.becomes}.`));
  }
  for (const risk of forecast.risks || []) {
    lines.push(el("div", { class: `risk risk-${risk}`, "data-risk": risk },
      RISK_WORDS[risk] || `Risk: ${risk}.`));
  }
  return lines;
}

function cancel() {
  pending = null;
  document.getElementById("preview").hidden = true;
}

async function commit() {
  if (!pending) return;
  const order = pending;
  cancel();
  pointMode = null;
  clearReach();
  try {
    await api("POST", `/api/games/${gameId}/orders`, order);
    say("");
  } catch (error) {
    say(error.message);
  }
}

async function post(path, what) {
  try { await api("POST", `/api/games/${gameId}/${path}`, {}); say(""); }
  catch (error) { say(`${what}: ${error.message}`); }
}

// a window the enemy's move opened for this seat (House Clearing's `reaction`): who moves
// and which of the seat's figures may fire at it, by name
function moverWindow() {
  const reaction = state.view && state.view.reaction;
  if (!reaction || !state.seat || !state.seat.may_act) return null;
  const name = (id, list) => ((list || []).find((u) => u.id === id) || {}).name || id;
  const mine = (reaction.firers || []).filter((id) => !state.seat.units
    || state.seat.units.includes(id));
  if (!mine.length) return null;
  return { mover: reaction.mover ? name(reaction.mover, state.view.enemies) : "an enemy",
    firers: mine.map((id) => name(id, state.view.own)).join(", ") };
}

function drawTurnButtons() {
  const box = document.getElementById("turn-buttons");
  box.replaceChildren();
  if (!state.seat || !state.seat.may_act) return;
  const opened = moverWindow();
  const label = opened ? `Let ${opened.mover} go (done)`
    : state.seat.shared ? "Done (my orders are given)" : "End phase";
  // the version shown goes with it: a click meant for this phase never ends the next one
  const shown = state.version;
  box.append(el("button", { id: "done", onclick: () => post(`done?version=${shown}`, "done") },
    label));
  // what ending gives up, in the rule set's own words (a Buildings side answering a shot
  // takes it; one with a die drawn gives the die to no order)
  const end = typeof kindForms === "function" ? kindForms("end") : null;
  if (end && end.help) box.append(el("div", { id: "done-help", class: "muted" }, `${label}: ${end.help}.`));
  if (state.can_undo) box.append(el("button", { id: "undo", onclick: () => post("undo", "undo") }, "Undo"));
}

// -- the side panel -----------------------------------------------------------------------

function drawStatus() {
  const s = state.status;
  // once over, the phase and step the rules stopped in mean nothing to the players
  let text = s.over ? "Game over" : `Turn ${s.turn ?? "-"}/${s.turns ?? "-"}`;
  // the seat's own phase where its view has one: a side may be alone in a phase (a
  // Buildings unit shot at answers in a reaction the enemy's view does not show)
  const phase = (state.view && state.view.phase) || s.phase;
  if (phase && !s.over) text += ` · ${phase}`;
  if (!s.over && s.step !== null && s.step !== undefined) text += ` · step ${s.step}`;
  if (!s.over) text += ` · ${s.to_act} to act`;
  const opened = moverWindow();
  if (opened) text += ` · ${opened.mover} is moving: fire at it (${opened.firers}) or let it go`;
  document.getElementById("status").textContent = text;
  document.getElementById("title").textContent = `${state.game.title} (${state.game.ruleset})`;
  const seat = document.getElementById("seat");
  if (state.role === "seat") {
    const who = state.seat.name === state.seat.side ? state.seat.side
      : `${state.seat.name} (${state.seat.side})`;
    seat.textContent = `You: ${who}`
      + (state.seat.may_act ? " · your orders" : "");
    document.getElementById("side-seats").textContent = state.side_seats.length > 1
      ? "Seats: " + state.side_seats.map((x) => `${x.name} (${x.player}${x.level ? " " + x.level : ""}${x.done ? ", done" : ""})`).join("; ")
      : "";
  } else {
    seat.textContent = "Spectator: public events only until the end.";
  }
  document.getElementById("players").textContent = playersText(state.game.players || []);
}

// Who plays each side, a computer with its level: "germans: computer (hard)"; a side of
// several seats played by people and the computer, seat by seat.
function playersText(players) {
  const who = (p) => (p.player === "computer" ? `computer (${p.level})` : p.player);
  const sides = [...new Set(players.map((p) => p.side))];
  return sides.map((side) => {
    const seats = players.filter((p) => p.side === side);
    const one = seats.every((p) => who(p) === who(seats[0]));
    return `${side}: ` + (one ? who(seats[0]) : seats.map((p) => `${p.name} ${who(p)}`).join(", "));
  }).join(" · ");
}

function drawUnits() {
  const box = document.getElementById("units");
  box.replaceChildren();
  if (!state.view) return;
  for (const own of state.view.own || []) {
    if (state.seat.units && !state.seat.units.includes(own.id)) continue;
    const row = el("div", { "data-unit": own.id, class: (own.id === selected ? "selected " : "")
      + (outOfAction(own) ? "out" : "") }, `${own.id}: ${own.name || ""} @ ${whereIs(own)}`
      + (own.status ? ` · ${own.status}` : ""));
    row.addEventListener("click", () => select(own.id));
    box.append(row);
  }
  const enemies = document.getElementById("enemies");
  enemies.replaceChildren();
  for (const enemy of state.view.enemies || []) {
    const seen = enemy.visible_now ? "in sight" : `last seen turn ${enemy.seen_turn ?? "?"}`;
    enemies.append(el("div", { "data-enemy": enemy.id, class: outOfAction(enemy) ? "out" : "" },
      `${enemy.id}: ${enemy.name || ""} · `
      + (outOfAction(enemy) ? `out of the fight (seen turn ${enemy.seen_turn ?? "?"})` : seen)
      + (hasPlace(enemy) && !outOfAction(enemy) ? ` @ ${whereIs(enemy)}` : "")));
  }
  if (!(state.view.enemies || []).length) enemies.textContent = "None seen.";
}

// where a unit stands, as the list says it: the place, its section and an upper floor
function whereIs(unit) {
  // a unit out of the fight has no place (a view may say 0,0 for one with no model left)
  if (!hasPlace(unit) || outOfAction(unit)) return "-";
  return `${round(unit.x)},${round(unit.y)}` + (unit.section ? ` in ${unit.section}` : "")
    + (unit.floor > 0 ? `, floor ${unit.floor}` : "");
}

function drawDice() {  // dicelog.js: only what changed
  drawDiceLog(document.getElementById("dice"), state, document.getElementById("details").checked);
}

function drawEnding() {
  const box = document.getElementById("ending");
  const end = state.ending;
  box.hidden = !end;
  if (!end) return;
  const r = end.result;
  box.replaceChildren(el("h2", {}, r.winner ? `${r.winner} win` : "A draw"), el("div", {}, r.reason),
    el("div", {}, Object.entries(r.scores || {}).map(([s, v]) => `${s}: ${v}`).join(" · ")),
    el("h2", {}, "After-action report"), el("pre", {}, (end.after_action || []).join("\n")));
  box.append(el("a", { id: "report-link", href: `/report/${gameId}#token=${token}` },
    "The whole game, turn by turn (after-action report)"));
}

function render() {
  if (!state) return;
  drawStatus();
  drawFloorSwitch();
  loadOdds(state.game.ruleset);
  drawEnding();
  if (state.role === "seat") {
    drawUnits();
    drawOrders();
    drawTurnButtons();
  }
  drawDice();
  drawFigures();
  spreadCounters();  // spread.js: counters that would cover one another moved apart
  aidsRendered();
  drawObjectives();
  const map = document.querySelector("#mapbox svg");
  placeLabels(map);  // labels.js: after every draw, so no label covers another
  drawRulers(map);
}

// -- the live connection ------------------------------------------------------------------

// The selected unit's orders come on request, for the message they go with (its version):
// an answer for another version or unit is dropped (a newer message or pick asks again).
async function loadOrders(message, unit) {
  try {
    const answer = await api("GET", `/api/games/${gameId}/orders?unit=${encodeURIComponent(unit)}`);
    if (state !== message || selected !== unit || answer.version !== message.version) return;
    state.legal = answer.legal;
    state.idle = answer.idle;
    state.ordersLoaded = true;
    render();
  } catch (error) {
    say(error.message);
  }
}

// a live message shown (turnflow.js shows the one it held when the page comes back to now)
function showState(message) {
  state = message;
  state.legal = [];
  state.idle = {};
  state.ordersLoaded = false;
  if (selected && !(state.view && (state.view.own || []).some((u) => u.id === selected))) selected = null;
  render();
  if (selected && state.seat && state.seat.may_act) loadOrders(state, selected);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws`);
  const status = document.getElementById("connection");
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ token, progress: true }));  // progress.js shows them
    status.textContent = "live";
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      progressOnState(message);  // progress.js: the game is ready, the box goes
      if (!lookingBack(message)) showState(message);  // turnflow.js: held while looking back
    } else if (message.type === "progress") {
      showProgress(message);
    } else if (message.type === "error" || message.type === "closed") {
      showProgress(null);
      say(message.message);
      socket.closeReason = "refused";
    }
  });
  socket.addEventListener("close", () => {
    status.textContent = "reconnecting";
    if (socket.closeReason !== "refused") setTimeout(connect, 1500);
    else status.textContent = "closed";
  });
}

document.getElementById("download").addEventListener("click", async () => {
  try {
    const response = await fetch(`/api/games/${gameId}/log.jsonl`,
      { headers: { authorization: "Bearer " + token } });
    if (!response.ok) throw new Error((await response.json()).message);
    const url = URL.createObjectURL(await response.blob());
    const a = el("a", { href: url, download: `fibua-${gameId}.jsonl` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (error) {
    say(error.message);
  }
});

loadMap().then(connect).catch((error) => { showProgress(null); say(error.message); });

document.getElementById("details").addEventListener("change", () => {
  if (state) drawDice();
});
