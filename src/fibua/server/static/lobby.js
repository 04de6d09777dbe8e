// The lobby: bundled and uploaded scenarios, uploading one, creating a game, the games
// on this server.
"use strict";

const CREATED_KEY = "fibua-created";  // the creator's tokens, kept in this browser only
// whether the server's rules engine is compiled (a game made before is opened once it is)
let engineReady = false;
// the computer's levels, each in plain words, and the default (asked once: /api/levels)
let computerLevels = null;

function created() {
  try { return JSON.parse(localStorage.getItem(CREATED_KEY) || "{}"); } catch { return {}; }
}

function remember(id, entry) {
  const all = created();
  all[id] = { ...(all[id] || {}), ...entry };
  localStorage.setItem(CREATED_KEY, JSON.stringify(all));
}

async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = "Bearer " + token;
  const response = await fetch(path, { method, headers,
    body: body === undefined || typeof body === "string" ? body : JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || response.statusText);
  return data;
}

function link(id, token) { return seatLink(id, token); }  // links.js

// The body with the typed seed, its digits sent as typed: a JavaScript number would round
// any seed past 2**53 and start a different game from the one asked for.
function withSeed(body, typed) {
  const digits = typed.trim();
  if (digits === "") return body;
  if (!/^[0-9]+$/.test(digits)) throw new Error("a seed is a whole number, 0 or more");
  return `{"seed":${digits},` + JSON.stringify(body).slice(1);
}

// A computer seat's level: a choice of the server's levels, each option saying what it
// means; shown only while the computer plays the seat.
function levelChoice(seat) {
  const select = el("select", { "data-level": seat.name, title: "how well the computer plays" },
    ...computerLevels.levels.map((level) => el("option", { value: level.name,
      title: level.description }, level.name)));
  select.value = computerLevels.default;
  return select;
}

// The computer plays a side whose every seat is its own as one player, at one level: a
// level chosen for one such seat is taken by the side's other seats.
function alignLevels(scenario, choices, levels, seat) {
  const mates = scenario.seats.filter((s) => s.side === seat.side);
  if (!mates.every((s) => choices[s.name].value === "computer")) return;
  for (const mate of mates) levels[mate.name].value = levels[seat.name].value;
}

function levelWords(select) {
  const chosen = computerLevels.levels.find((level) => level.name === select.value);
  return chosen ? chosen.description : "";
}

function scenarioCard(scenario) {
  const choices = {};
  const levels = {};
  const shows = [];  // each seat's level shown (or hidden) as its choices stand
  const seats = el("div");
  scenario.seats.forEach((seat, index) => {
    const select = el("select", { "data-seat": seat.name },
      el("option", { value: "computer" }, "computer"), el("option", { value: "human" }, "human"));
    if (index === 0) select.value = "human";
    choices[seat.name] = select;
    const level = levels[seat.name] = levelChoice(seat);
    const words = el("div", { class: "muted level-words", "data-level-words": seat.name });
    shows.push(() => {
      level.hidden = select.value !== "computer";
      words.hidden = level.hidden;
      words.textContent = `${seat.name}: ${level.value}: ${levelWords(level)}`;
    });
    for (const changed of [select, level]) {
      changed.addEventListener("change", () => {
        alignLevels(scenario, choices, levels, seat);
        for (const show of shows) show();
      });
    }
    seats.append(el("div", { class: "seat-row" }, `${seat.side}: ${seat.name}`,
      el("span", {}, select, " ", level)), words);
  });
  for (const show of shows) show();
  const seed = el("input", { type: "number", min: "0", step: "1", placeholder: "empty: secret",
                             size: "12", class: "seed" });
  const warning = el("p", { class: "seed-warning", hidden: "" }, "A typed seed is no secret: "
    + "whoever knows it knows every die of the game and can work out where the hidden enemy "
    + "is. Leave it empty and the server draws a secret one.");
  seed.addEventListener("input", () => { warning.hidden = seed.value === ""; });
  const objectives = el("ul", { class: "muted" });
  for (const o of scenario.objectives) {
    objectives.append(el("li", {}, `${o.side}: ${o.description} (${o.points})`));
  }
  const create = el("button", { class: "primary create", onclick: async () => {
    const body = { scenario: scenario.name, seats: {}, levels: {} };
    for (const [name, select] of Object.entries(choices)) {
      body.seats[name] = select.value;
      if (select.value === "computer") body.levels[name] = levels[name].value;
    }
    create.disabled = true;
    create.textContent = "Creating…";
    try {
      const made = await api("POST", "/api/games", withSeed(body, seed.value));
      remember(made.id, { creator: made.creator_token, spectator: made.spectator_token,
                          seats: made.seat_tokens });
      showLinks(made.id, scenario.title, made.seat_tokens, made.spectator_token,
                scenario.seats, create.parentNode);
      loadGames().catch(() => {});
    } catch (error) {
      document.getElementById("lobby-error").textContent = error.message;
    } finally {
      create.disabled = false;
      create.textContent = "Create game";
    }
  } }, "Create game");
  return el("div", { class: scenario.uploaded ? "card uploaded" : "card",
                     "data-scenario": scenario.name },
    // drawn by the server's one engine thread: only those scrolled to are asked for, so a
    // Create does not wait behind every card's map
    el("img", { src: `/api/scenarios/${encodeURIComponent(scenario.name)}/map.svg`,
                alt: scenario.title, loading: "lazy" }),
    el("h3", {}, scenario.title, scenario.uploaded ? el("span", { class: "tag" }, "uploaded") : ""),
    el("div", { class: "muted" }, `${scenario.name} · ${scenario.ruleset} · ${scenario.turns} turns · `
      + scenario.sides.map((s) => `${s.name} (${s.title})`).join(" v ")),
    el("p", {}, scenario.history || ""), el("p", { class: "muted" }, scenario.description || ""),
    objectives, seats, el("div", {}, "seed ", seed, " ", create), warning);
}

async function reissue(id, role, seats) {
  const mine = created()[id];
  const made = await api("POST", `/api/games/${id}/tokens`, { role }, mine.creator);
  if (role === "spectator") remember(id, { spectator: made.token });
  else remember(id, { seats: { ...(mine.seats || {}), [role]: made.token } });
  showLinks(id, "new link", role === "spectator" ? {} : { [role]: made.token },
            role === "spectator" ? made.token : null, seats);
}

async function loadGames() {
  const games = await api("GET", "/api/games");
  const body = document.querySelector("#games tbody");
  body.replaceChildren();
  const mine = created();
  for (const game of games) {
    const status = game.status;
    const actions = el("td");
    const own = mine[game.id];
    if (own && own.spectator) {
      actions.append(el("a", { href: link(game.id, own.spectator), target: "_blank" }, "watch"), " ");
    }
    if (own && own.creator) {
      for (const seat of game.seats.filter((s) => s.player === "human")) {
        actions.append(el("button", { onclick: () => reissue(game.id, seat.name, game.seats) },
          `new link: ${seat.name}`));
      }
      actions.append(el("button", { class: "delete", onclick: async () => {
        if (!confirm(`Delete game ${game.id}?`)) return;
        await api("DELETE", `/api/games/${game.id}`, undefined, own.creator);
        await loadGames();
      } }, "delete"));
    }
    body.append(el("tr", { "data-game": game.id }, el("td", {}, game.id),
      el("td", {}, game.title), el("td", {}, status.over ? "over" : status.preparing ? "preparing"
        : `${status.turn ?? "-"} / ${status.turns ?? "-"}`),
      el("td", {}, game.waiting_for || "-"),
      el("td", {}, game.result ? `${game.result.winner ?? "draw"}: ${game.result.reason}` : ""),
      actions));
  }
}

async function loadScenarios() {
  if (computerLevels === null) computerLevels = await api("GET", "/api/levels");
  const scenarios = await api("GET", "/api/scenarios");
  const box = document.getElementById("scenarios");
  box.replaceChildren(...scenarios.map(scenarioCard));
}

async function uploadScenario(event) {
  event.preventDefault();
  const file = document.getElementById("upload-file").files[0];
  const result = document.getElementById("upload-result");
  const problems = document.getElementById("upload-problems");
  problems.replaceChildren();
  result.textContent = "";
  if (!file) { result.textContent = "Choose a scenario file first."; return; }
  const send = document.getElementById("upload-send");
  send.disabled = true;
  try {
    const response = await fetch(`/api/scenarios?filename=${encodeURIComponent(file.name)}`,
      { method: "POST", headers: { "content-type": "application/toml" }, body: file });
    const data = await response.json();
    if (!response.ok) {
      result.className = "error";
      result.textContent = data.message || response.statusText;
      for (const p of data.problems || []) {
        problems.append(el("li", {}, el("code", {}, p.path || "(the file)"), ": ", p.message));
      }
      return;
    }
    result.className = "";
    result.textContent = `${data.title} (${data.name}) is ready: it is listed with the others.`;
    await loadScenarios();
  } catch (error) {
    result.className = "error";
    result.textContent = error.message;
  } finally {
    send.disabled = false;
  }
}

// A server started before its kernels were compiled compiles them first (a few minutes,
// once): say how far it has come. A game made meanwhile is stored at once and opens as
// soon as the rules of its map are compiled; its pages say how far that has come.
function showEngine(status) {
  engineReady = status.ready;
  const line = document.getElementById("engine");
  line.hidden = status.ready;
  line.textContent = status.ready ? "" : `${status.message} (${status.percent}%). A game `
    + "created now opens as soon as the rules of its map are compiled: its pages show how "
    + "far that has come.";
}

async function watchEngine() {
  try { showEngine(await api("GET", "/api/engine")); } catch { /* asked again below */ }
  if (!engineReady) setTimeout(watchEngine, 1000);
}

document.getElementById("upload").addEventListener("submit", uploadScenario);
watchEngine();
loadScenarios().catch((e) => { document.getElementById("lobby-error").textContent = e.message; });
loadGames().catch((e) => { document.getElementById("lobby-error").textContent = e.message; });
setInterval(() => loadGames().catch(() => {}), 5000);
