// The order composer of the game page: every order the terminal can type, given by
// pointing and clicking. The rule set's order forms come from the server once
// (/api/rulesets/NAME/orders: each kind, its forms, each parameter typed); with a unit
// selected, a button per form of each kind it has legal orders of ("run enter", "run to"),
// and under "other orders" every other kind of the rule set. A chosen form asks for each
// parameter as its type says: points and paths by clicking the map, enemies by clicking
// them or from a list, sections by a list or a click on the map, the side's own units by
// clicking their counters (friends.js) or from a list, floors, choices, flags and numbers
// by fields. Preview goes to game.js's chosen(), which asks the rules.
// The sampled legal orders stay as quick picks when a kind has few.
"use strict";

let orderForms = null;      // {ruleset, kinds: [{kind, help, unit, forms: [...]}]}
let formsRuleset = null;    // the rule set asked for (once a page)
let compose = null;         // {unit, version, kind, form, values, active, other}
let composeMarks = null;    // the composer's own layer on the map (points, paths)

const PLACE_TYPES = ["point", "path"];
const ENEMY_TYPES = ["enemy", "enemies"];

async function loadOrderForms(ruleset) {
  if (!ruleset || formsRuleset === ruleset) return;
  formsRuleset = ruleset;
  try {
    const response = await fetch(`/api/rulesets/${encodeURIComponent(ruleset)}/orders`);
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || response.statusText);
    orderForms = data;
  } catch (error) {
    say(`order forms: ${error.message}`);
    return;
  }
  render();
}

function kindForms(kind) {
  return orderForms ? orderForms.kinds.find((k) => k.kind === kind) : null;
}

// -- the panel ----------------------------------------------------------------------------

// what drawOrders (game.js) draws: the seat's waiting line, or the selected unit's orders
function drawComposer() {
  const box = document.getElementById("orders");
  box.replaceChildren();
  loadOrderForms(state.game.ruleset);
  markPlacing();
  if (!state.seat || !state.seat.may_act) {
    compose = null;
    box.append(el("div", { class: "muted" }, state.status.over ? "The game is over."
      : state.seat && state.seat.done ? "You have finished this phase; waiting for the others."
      : `Waiting for ${state.status.to_act || "nobody"}.`));
    return composeDone();
  }
  if (!selected) {
    box.append(el("div", { class: "muted" }, "Select one of your units (list or map)."));
    return composeDone();
  }
  if (state.seat.units && !state.seat.units.includes(selected)) {
    // a unit of another seat of the side, picked on the map: that seat orders it
    box.append(el("div", { class: "muted" }, `${selected} is not one of your seat's units: `
      + "another seat of your side gives its orders."));
    return composeDone();
  }
  if (!state.ordersLoaded) {
    box.append(el("div", { class: "muted" }, "Fetching your orders…"));
    return composeDone();
  }
  // a new message (an order given, something seen) or another unit: start afresh
  if (!compose || compose.unit !== selected || compose.version !== state.version) {
    compose = { unit: selected, version: state.version, kind: null, form: null, values: {},
      active: null, other: compose && compose.unit === selected ? compose.other : false };
  }
  const mine = state.legal.filter((o) => o.unit === selected);
  if (!mine.length) {
    const why = (state.idle || {})[selected];
    box.append(el("div", { class: "muted" }, `${selected} has no orders now${why ? ": " + why : ""}.`));
  }
  const legalKinds = [...new Set(mine.map((o) => o.kind))];
  box.append(formButtons(legalKinds));
  if (orderForms) box.append(otherOrders(legalKinds));
  if (compose.form) box.append(composerFields(mine));
  box.append(quickPicks(mine, legalKinds));
  composeDone();
}

// the buttons of the kinds the unit has legal orders of, a button per form
function formButtons(kinds) {
  const row = el("div", { class: "kinds" });
  for (const kind of kinds) {
    const found = kindForms(kind);
    if (!found) {  // forms not loaded yet: the quick picks below still give its orders
      row.append(el("span", { class: "muted" }, kind + " "));
      continue;
    }
    for (const form of found.forms) row.append(formButton(found, form));
  }
  return row;
}

function formButton(kind, form) {
  const name = form.name ? `${kind.kind} ${form.name}` : kind.kind;
  const on = compose.kind === kind.kind && compose.form === form;
  const button = el("button", { class: "kind" + (on ? " on" : ""), "data-kind": kind.kind,
    "data-form": form.name, "aria-pressed": String(on), title: form.help || kind.help,
    onclick: () => startForm(kind, form) }, name);
  return button;
}

// every other kind of the rule set, behind a toggle (the rules say why one is refused)
function otherOrders(legalKinds) {
  const box = el("div", { class: "other-orders" });
  const rest = orderForms.kinds.filter((k) => k.unit && !legalKinds.includes(k.kind));
  if (!rest.length) return box;
  box.append(el("button", { id: "other-orders", "aria-expanded": String(compose.other),
    onclick: () => { compose.other = !compose.other; render(); } },
    compose.other ? "other orders (hide)" : "other orders"));
  if (compose.other) {
    const row = el("div", { class: "kinds" });
    for (const kind of rest) for (const form of kind.forms) row.append(formButton(kind, form));
    box.append(row);
  }
  return box;
}

function startForm(kind, form) {
  compose.kind = kind.kind;
  compose.form = form;
  compose.values = {};
  compose.why = null;
  for (const param of form.params) {
    if (param.type === "flag" && param.required) compose.values[param.name] = true;
    if (param.type === "path") compose.values[param.name] = [];
  }
  compose.active = firstToClick(form);
  reachShown(form);
  render();
}

// where the unit may go, shaded while a form that goes somewhere is open (aids.js, where
// the page has it)
function reachShown(form) {
  const goes = form && form.params.length && PLACE_TYPES.includes(form.params[0].type);
  if (goes && typeof showReach === "function") showReach(selected, compose.kind);
  else if (typeof clearReach === "function") clearReach();
}

// the parameter the map waits for first: a place, else a section, an enemy, an own unit
function firstToClick(form) {
  for (const types of [PLACE_TYPES, ["section"], ENEMY_TYPES, FRIEND_TYPES]) {
    const param = form.params.find((p) => types.includes(p.type) && p.required);
    if (param) return param.name;
  }
  return null;
}

function composerFields(mine) {
  const form = compose.form;
  const kind = kindForms(compose.kind);
  const box = el("div", { id: "composer", "data-kind": compose.kind, "data-form": form.name });
  const title = form.name ? `${compose.kind} ${form.name}` : compose.kind;
  box.append(el("div", { class: "composer-title" }, `${title}: ${form.help || kind.help}`));
  const legal = mine.filter((o) => o.kind === compose.kind);
  for (const param of form.params) {
    if (param.type === "flag" && param.required) {
      box.append(el("div", { class: "muted" }, `${param.name}=true: ${param.help}`));
      continue;
    }
    box.append(field(param, legal));
  }
  // why the last unit clicked for a parameter was not taken (friends.js)
  if (compose.why) box.append(el("div", { class: "error", id: "compose-why" }, compose.why));
  box.append(el("button", { class: "primary", id: "compose-preview", onclick: previewComposed },
    "Preview"), el("button", { id: "compose-clear", onclick: () => { compose.form = null;
    compose.kind = null; compose.active = null; reachShown(null); render(); } }, "Clear"));
  return box;
}

function field(param, legal) {
  const id = `param-${param.name}`;
  const row = el("div", { class: "param", "data-param": param.name, "data-type": param.type });
  const words = `${param.name}${param.required ? "" : " (optional)"}: `;
  const listed = ["enemies", "owns"].includes(param.type);
  row.append(listed ? el("span", { class: "label" }, words) : el("label", { for: id }, words));
  const make = FIELDS[param.type] || textField;
  row.append(...make(param, id, legal));
  row.append(el("div", { class: "muted" }, param.help));
  return row;
}

const FIELDS = {
  point: placeField,
  path: placeField,
  enemy: (p, id) => [pickList(p, id, enemyChoices())],
  own: (p, id) => [pickList(p, id, friendChoices(p))],
  section: (p, id, legal) => [pickList(p, id, sectionChoices(p, legal))],
  floor: (p, id) => [pickList(p, id, floorChoices())],
  choice: (p, id) => [pickList(p, id, p.choices.map((c) => [c, c]))],
  enemies: (p, id) => [checkList(p, id, enemyChoices())],
  owns: (p, id) => [checkList(p, id, friendChoices(p))],
  flag: flagField,
  number: numberField,
};

// a point or a path: clicks on the map (a path: several, then Finish)
function placeField(param, id) {
  const value = compose.values[param.name];
  const waiting = compose.active === param.name;
  const shown = param.type === "path"
    ? (value && value.length ? value.map((p) => p.join(",")).join(" → ") : "no point yet")
    : (value ? value.join(",") : "not set");
  const out = [el("output", { id, class: "place" }, shown),
    el("button", { class: "pick" + (waiting ? " on" : ""), "data-param": param.name,
      onclick: () => { compose.active = param.name; render(); } },
      waiting ? "click the map…" : `set ${param.name} on the map`)];
  if (param.type === "path") {
    out.push(el("button", { class: "finish", "data-param": param.name, onclick: () => {
      compose.active = nextActive(param.name); render(); } }, "Finish path"),
    el("button", { class: "undo-point", onclick: () => {
      (compose.values[param.name] || []).pop(); render(); } }, "Undo point"));
  }
  return out;
}

function pickList(param, id, choices) {
  const select = el("select", { id, "data-param": param.name });
  select.append(el("option", { value: "" }, param.required ? "choose…" : "(none)"));
  const current = compose.values[param.name];
  for (const [value, text] of choices) {
    const option = el("option", { value: String(value) }, text);
    if (current !== undefined && String(current) === String(value)) option.selected = true;
    select.append(option);
  }
  select.addEventListener("change", () => {
    if (select.value === "") delete compose.values[param.name];
    else compose.values[param.name] = param.type === "floor" ? Number(select.value) : select.value;
    render();
  });
  return select;
}

function checkList(param, id, choices) {
  const box = el("div", { id, class: "checks", "data-param": param.name });
  const chosenIds = compose.values[param.name] || [];
  for (const [value, text] of choices) {
    const input = el("input", { type: "checkbox", value, id: `${id}-${value}` });
    input.checked = chosenIds.includes(value);
    input.addEventListener("change", () => toggleId(param.name, value, input.checked));
    box.append(el("label", { class: "check" }, input, text));
  }
  if (!choices.length) box.append(el("span", { class: "muted" }, "none known"));
  return box;
}

function toggleId(name, value, on) {
  const list = (compose.values[name] || []).filter((v) => v !== value);
  if (on) list.push(value);
  if (list.length) compose.values[name] = list;
  else delete compose.values[name];
  render();
}

// a flag not given is false, or its default: the box starts so, and only a change is sent
function flagField(param, id) {
  const otherwise = param.default === true;
  const input = el("input", { type: "checkbox", id, "data-param": param.name });
  input.checked = compose.values[param.name] ?? otherwise;
  input.addEventListener("change", () => {
    if (input.checked === otherwise) delete compose.values[param.name];
    else compose.values[param.name] = input.checked;
  });
  return [input];
}

function numberField(param, id) {
  const input = el("input", { type: "number", id, "data-param": param.name,
    step: param.whole ? "1" : "any", min: "0" });
  if (compose.values[param.name] !== undefined) input.value = String(compose.values[param.name]);
  input.addEventListener("change", () => {
    const number = Number(input.value);
    if (input.value === "" || !Number.isFinite(number)) delete compose.values[param.name];
    else compose.values[param.name] = number;
  });
  return [input];
}

function textField(param, id) {
  const input = el("input", { type: "text", id, "data-param": param.name });
  input.addEventListener("change", () => { compose.values[param.name] = input.value; });
  return [input];
}

// -- what a list offers -------------------------------------------------------------------

// the enemies a form may name: those the side knows are out of the fight are left out
function enemyChoices() {
  const enemies = ((state.view && state.view.enemies) || []).filter((e) => !outOfAction(e));
  enemies.sort((a, b) => Number(Boolean(b.visible_now)) - Number(Boolean(a.visible_now)));
  return enemies.map((e) => [e.id, `${e.id}${e.name ? ": " + e.name : ""}`
    + (e.visible_now ? " (in sight)" : ` (seen turn ${e.seen_turn ?? "?"})`)]);
}

// the sections the legal orders of the kind name first, then every section of the map
function sectionChoices(param, legal) {
  const named = [];
  for (const order of legal) {
    const value = (order.params || {})[param.name];
    if (typeof value === "string" && !named.includes(value)) named.push(value);
  }
  const all = mapSections().map((s) => s.id).filter((id) => !named.includes(id)).sort();
  return [...named.map((id) => [id, `${id} (possible now)`]), ...all.map((id) => [id, id])];
}

// the floors of the section the order names (or goes to, or the unit is in), else of the map
function floorChoices() {
  const floors = layer().floors || {};
  const own = ((state.view && state.view.own) || []).find((u) => u.id === selected);
  const to = compose.values.to || (compose.values.path || []).slice(-1)[0];
  const section = compose.values.section || compose.values.enter
    || (Array.isArray(to) && sectionAt(to[0], to[1])) || (own && own.section);
  const count = (section && (floors.sections || {})[section]) || floors.count || 1;
  return Array.from({ length: count }, (_, i) => [i, i === 0 ? "0 (ground)" : String(i)]);
}

// -- the map ------------------------------------------------------------------------------

function mapSections() {
  const svg = document.querySelector("#mapbox svg");
  if (!svg) return [];
  return [...svg.querySelectorAll("polygon.section[data-id]")].map((shape) => ({
    id: shape.dataset.id,
    points: shape.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number)),
  }));
}

// the section under a point of the table (the map draws them in table units, y upwards)
function sectionAt(x, y) {
  const inside = (points) => {
    let hit = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i], [xj, yj] = points[j];
      if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
    }
    return hit;
  };
  const found = mapSections().find((s) => inside(s.points));
  return found ? found.id : null;
}

// what mapClicked (game.js) does: the click fills the parameter the composer waits for
function composerMapClick(x, y) {
  if (!compose || !compose.form) return;
  let param = compose.form.params.find((p) => p.name === compose.active);
  if (param && FRIEND_TYPES.includes(param.type)) {
    return say(`${compose.kind}: click the counter of one of your units for ${param.name}`);
  }
  if (!param && !compose.form.params.some((p) => p.type === "section")) {
    // the place is given already: a click elsewhere on the map moves it there
    param = compose.form.params.find((p) => p.type === "point");
  }
  if (param && param.type === "point") {
    compose.values[param.name] = [x, y];
    compose.active = nextActive(param.name);
  } else if (param && param.type === "path") {
    compose.values[param.name] = [...(compose.values[param.name] || []), [x, y]];
  } else {
    const target = param && param.type === "section" ? param
      : compose.form.params.find((p) => p.type === "section");
    const id = target ? sectionAt(x, y) : null;
    if (!target) return say(`${compose.kind}: pick the values in the panel`);
    if (!id) return say("No building section there.");
    compose.values[target.name] = id;
    if (compose.active === target.name) compose.active = nextActive(target.name);
  }
  say("");
  render();
}

// while a place is awaited the map takes every click, one on the side's own counters too
// (app.css lets them through): a path may well pass over a friend
function markPlacing() {
  const box = document.getElementById("mapbox");
  const param = compose && compose.form
    ? compose.form.params.find((p) => p.name === compose.active) : null;
  box.classList.toggle("placing", Boolean(param && PLACE_TYPES.includes(param.type)));
}

// the next place, section or own unit still to give after `name`, if any
function nextActive(name) {
  const params = compose.form.params;
  const after = params.slice(params.findIndex((p) => p.name === name) + 1);
  const next = after.find((p) => [...PLACE_TYPES, "section", ...FRIEND_TYPES].includes(p.type)
    && p.required
    && compose.values[p.name] === undefined);
  return next ? next.name : null;
}

// what targetClicked (game.js) does: an enemy clicked fills the form's enemy parameter;
// with no form chosen, the unit's legal order at that enemy is previewed (as before)
function composerTargetClick(enemy) {
  if (!state || !selected) return;
  const params = compose && compose.form ? compose.form.params : [];
  // a place awaited by a form that names no enemy (a point watched, a move's end): the
  // enemy's counter covers the very place a person means, so the click gives it
  const placing = params.find((p) => p.name === compose.active && PLACE_TYPES.includes(p.type));
  if (placing && hasPlace(enemy) && !params.some((p) => ENEMY_TYPES.includes(p.type))) {
    return composerMapClick(enemy.x, enemy.y);
  }
  const param = params.find((p) => p.name === compose.active && ENEMY_TYPES.includes(p.type))
    || params.find((p) => ENEMY_TYPES.includes(p.type));
  if (param && param.type === "enemies") {
    const has = (compose.values[param.name] || []).includes(enemy.id);
    return toggleId(param.name, enemy.id, !has);
  }
  if (param) {
    compose.values[param.name] = enemy.id;
    return render();
  }
  const order = state.legal.find((o) => o.unit === selected
    && (o.params.target === enemy.id || (o.params.targets || []).includes(enemy.id)));
  if (order) chosen(order);
  else say(`No order of ${selected} names ${enemy.id} now.`);
}

// the places given so far, drawn over the map (never in the way of a click)
function composeDone() {
  const svg = document.querySelector("#mapbox svg");
  const mode = document.getElementById("mode");
  if (!svg) return;
  if (!composeMarks || !composeMarks.isConnected) {
    composeMarks = svgEl("g", { id: "compose-marks", "pointer-events": "none" });
    svg.append(composeMarks);
  }
  composeMarks.replaceChildren();
  const form = compose && compose.unit === selected ? compose.form : null;
  const active = form && form.params.find((p) => p.name === compose.active);
  const friend = friendAwaited();  // friends.js
  // an enemy chosen (clicked or from the list) is awaited no more
  const waiting = active && !(ENEMY_TYPES.includes(active.type)
    && compose.values[active.name] !== undefined) ? active : null;
  const what = waiting && ENEMY_TYPES.includes(waiting.type) ? "an enemy counter"
    : waiting && waiting.type === "section" ? "a building" : "the map";
  mode.textContent = waiting && FRIEND_TYPES.includes(waiting.type)
    ? `${compose.kind}: click the counter of your unit for ${waiting.name}`
    : waiting ? `${compose.kind}: click ${what} for ${waiting.name}`
    + (waiting.type === "path" ? " (each point in turn, then Finish path)" : "")
    : friend ? `${compose.kind}: click the counter of your unit for ${friend.name}`
    + (friend.required ? "" : " (optional)")
    + (friend.type === "owns" ? " (a second click takes it out)" : "") : "";
  // the rules' sampled places for a kind, as blue dots (game.js draws them for pointMode)
  pointMode = active && PLACE_TYPES.includes(active.type) && form.params[0] === active
    ? { kind: compose.kind, unit: selected } : null;
  if (!form) return;
  const size = Math.max(mapWidth, mapHeight) / 220;
  const own = ((state.view && state.view.own) || []).find((u) => u.id === selected);
  for (const param of form.params) {
    const value = compose.values[param.name];
    if (param.type === "point" && value) composeMarks.append(markAt(value, size));
    if (param.type === "path" && value && value.length) {
      const start = own && hasPlace(own) ? [[own.x, own.y]] : [];
      const line = [...start, ...value].map(([x, y]) => `${x},${mapHeight - y}`).join(" ");
      composeMarks.append(svgEl("polyline", { points: line, fill: "none", stroke: "#2b6cb0",
        "stroke-width": size * 0.25, "stroke-dasharray": `${size * 0.6} ${size * 0.3}` }));
      for (const p of value) composeMarks.append(markAt(p, size));
    }
  }
}

// a place given: a ring a person can find on the map (it was a dot of a pixel or two),
// round a dot on the very point
function markAt([x, y], size) {
  const mark = svgEl("g", { class: "compose-point" });
  mark.append(svgEl("circle", { cx: x, cy: mapHeight - y, r: size * 1.6, fill: "none",
    stroke: "#2b6cb0", "stroke-width": size * 0.35 }),
  svgEl("circle", { cx: x, cy: mapHeight - y, r: size * 0.3, fill: "#2b6cb0" }));
  return mark;
}

// -- giving it ----------------------------------------------------------------------------

function previewComposed() {
  const form = compose.form;
  const params = {};
  for (const param of form.params) {
    let value = compose.values[param.name];
    if (param.type === "path" && value && !value.length) value = undefined;
    if (value === undefined) {
      if (param.required) return say(`${compose.kind}: give ${param.name} (${param.help})`);
      continue;
    }
    params[param.name] = value;
  }
  say("");
  chosen({ kind: compose.kind, unit: selected, params });
}

// the unit's sampled legal orders of each kind, as buttons when there are few (or when
// the kind asks no place: there are few of those)
function quickPicks(mine, kinds) {
  const box = el("div", { class: "quick" });
  for (const kind of kinds) {
    const orders = mine.filter((o) => o.kind === kind);
    if (pointParam(orders[0]) && orders.length > 4) continue;
    for (const order of orders) {
      box.append(el("button", { class: "order", "data-label": order.label,
        onclick: () => chosen(order) }, order.label));
    }
  }
  return box;
}
