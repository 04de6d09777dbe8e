// Turn flow on the game page: the title (and, if asked, a beep) when this seat's turn
// comes; what its side was told since its last orders, counted in plain words; and a
// slider to look back over its side's view earlier in the game (read only, drawn from the
// server's replay of that moment). game.js hands each live message to `lookingBack` and
// shows it unless the page is looking back.
"use strict";

const TURN_SOUND_KEY = "fibua-turn-sound";
const turnflow = {
  live: null,        // the last live message (held while the page looks back)
  myTurn: null,      // whether the last live message let this seat give orders (null: none yet)
  enemy: null,       // the other side, as the game's status named it when it was to act
  audio: null,       // the WebAudio context, made when the sound is switched on
  index: null,       // the side's positions, [{turn, own}], once fetched
  shown: null,       // the position drawn while looking back (null: now)
  asking: null,      // the position asked for and not yet answered
  wanted: null,      // the position the slider wants (asked for once the last answer is in)
  indexing: false,   // an index request is under way
  reindex: false,    // and another is owed once it is in (the game moved on meanwhile)
  stale: true,       // a live message came since the index was fetched
  sliding: null,     // a position the slider moved to while the index was being fetched
};

// -- the seat's turn -----------------------------------------------------------------------

// called by game.js with every live message: true while the page shows the past (the
// message is then kept for "back to now")
function lookingBack(message) {
  const began = noteTurn(message);
  turnflow.live = message;
  turnflow.stale = true;
  if (turnflow.shown === null) {
    if (message.role === "seat" && (turnflow.index === null || began)) loadIndex();
    return false;
  }
  document.getElementById("history-now").textContent = "back to now (the game has moved on)";
  return true;
}

// the title, the mark kept when the seat's turn ends, and when it begins the beep and the
// box of what was told meanwhile; true when the turn has just begun
function noteTurn(message) {
  const seat = message.role === "seat" ? message.seat : null;
  document.getElementById("look-back").hidden = !seat;
  const myTurn = Boolean(seat && seat.may_act && !message.status.over);
  document.title = myTurn ? "▶ Your orders · fibua" : `fibua: ${message.game.title}`;
  if (!seat) return false;
  const toAct = message.status.to_act;
  if (toAct && toAct !== seat.side) turnflow.enemy = toAct;
  const key = `fibua-last-orders-${message.game.id}-${seat.name}`;
  const mark = localStorage.getItem(key);
  if (!myTurn) {
    // the turn has just ended (or the page opened between turns, with no mark kept): what
    // the side is told from here on is summed up when the turn comes again
    if (turnflow.myTurn === true || mark === null) localStorage.setItem(key, String(message.event_count));
    document.getElementById("since").hidden = true;
  } else if (turnflow.myTurn !== true) {
    if (turnflow.myTurn === false) beep();
    if (mark !== null) showSince(message, Number(mark));
  }
  const began = myTurn && turnflow.myTurn === false;
  turnflow.myTurn = myTurn;
  return began;
}

function beep() {
  if (!document.getElementById("turn-sound").checked) return;
  try {
    const audio = turnflow.audio || (turnflow.audio = new AudioContext());
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.1;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
    document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
  } catch (error) {
    // a browser without WebAudio stays silent
  }
}

function soundSwitch() {
  const box = document.getElementById("turn-sound");
  box.checked = localStorage.getItem(TURN_SOUND_KEY) === "on";
  box.addEventListener("change", () => {
    localStorage.setItem(TURN_SOUND_KEY, box.checked ? "on" : "off");
    // made (or woken) by the click: browsers start sound only after a person's gesture
    if (box.checked && window.AudioContext) {
      turnflow.audio = turnflow.audio || new AudioContext();
      turnflow.audio.resume();
    }
  });
}

// -- what the side was told since its last orders ------------------------------------------

// the data fields of an event, read from its details line ("turn 3  shot: firer=a
// target=b ..."): the raw data the seat is sent behind its details switch; ids hold no
// spaces, so a field's first word is enough
function eventFields(entry) {
  const fields = {};
  const line = (entry.details || [""])[0];
  for (const match of line.matchAll(/(?:^|[\s(])([A-Za-z_]+)=([^\s)]+)/g)) fields[match[1]] = match[2];
  return fields;
}

// kinds that tell a figure or unit was hit or lost, and the field naming it
const LOSS_KINDS = { casualty: "figure", "out-of-action": "figure", casualties: "unit",
  "unit-lost": "unit", destroyed: "unit" };
const ENEMY_LOSS_KINDS = { "enemy-hit": "figure", "enemy-out": "unit" };
const SIGHTING_KINDS = ["enemy-seen", "enemy-glimpsed"];

// the events counted: shots at the side's troops, its troops hit, enemies hit and sighted
function tally(events, view) {
  const own = new Map((view.own || []).map((u) => [String(u.id), u.name || u.id]));
  const counts = { fire: 0, hit: new Set(), enemyHit: new Set(), sighted: new Set() };
  for (const entry of events) {
    const f = eventFields(entry);
    const kind = entry.kind;
    const firer = f.firer || (kind === "fire" ? f.unit : undefined);
    if (kind === "fired-on" || ((kind === "shot" || kind === "fire") && own.has(f.target)
        && !own.has(firer)) || (kind === "shot-at" && own.has(f.unit))) counts.fire += 1;
    const lost = f[LOSS_KINDS[kind]];
    if (lost !== undefined && lost !== "null") (own.has(lost) ? counts.hit : counts.enemyHit).add(lost);
    const enemyLost = f[ENEMY_LOSS_KINDS[kind]];
    if (enemyLost !== undefined) counts.enemyHit.add(enemyLost);
    if (SIGHTING_KINDS.includes(kind)) {
      const seen = f.figure || f.unit;
      if (seen !== undefined && seen !== "null") counts.sighted.add(seen);
    }
  }
  counts.hitNames = [...counts.hit].map((id) => own.get(id));
  return counts;
}

function sideWords(side) {
  if (!side) return "the enemy";
  return "the " + side.charAt(0).toUpperCase() + side.slice(1);
}

function listed(words) {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

function sinceText(counts) {
  const parts = [];
  if (counts.fire) parts.push(`${sideWords(turnflow.enemy)} fired `
    + (counts.fire === 1 ? "once" : `${counts.fire} times`));
  if (counts.hitNames.length) parts.push(`${listed(counts.hitNames)} `
    + (counts.hitNames.length === 1 ? "was" : "were") + " hit");
  const plural = (n, what) => `${n} ${n === 1 ? "enemy" : "enemies"} ${what}`;
  if (counts.enemyHit.size) parts.push(plural(counts.enemyHit.size, "hit"));
  if (counts.sighted.size) parts.push(plural(counts.sighted.size, "sighted"));
  return parts.length ? parts.join("; ") : "nothing to report";
}

function showSince(message, mark) {
  const events = message.events || [];
  const first = message.event_count - events.length;
  const fresh = events.slice(Math.max(0, mark - first));
  const counts = tally(fresh, message.view || {});
  const box = document.getElementById("since");
  box.dataset.fire = String(counts.fire);
  box.dataset.hit = String(counts.hit.size);
  box.dataset.enemyHit = String(counts.enemyHit.size);
  box.dataset.sighted = String(counts.sighted.size);
  const head = mark < first ? "Since your last orders (the latest events)" : "Since your last orders";
  const told = el("details", {}, el("summary", {}, `what you were told (${fresh.length})`),
    ...fresh.map((e) => el("div", { class: "event" }, e.text)));
  box.replaceChildren(el("div", { id: "since-text" }, `${head}: ${sinceText(counts)}.`), told,
    el("button", { id: "since-close", onclick: () => { box.hidden = true; } }, "OK"));
  box.hidden = false;
}

// -- looking back --------------------------------------------------------------------------

async function historyApi(path) {
  const response = await fetch(`/api/games/${gameId}/history${path}`,
    { headers: { authorization: "Bearer " + token } });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || response.statusText);
  return data;
}

// the side's positions (one request at a time: a message that comes meanwhile asks again)
async function loadIndex() {
  if (turnflow.indexing) {
    turnflow.reindex = true;
    return;
  }
  turnflow.indexing = true;
  turnflow.stale = false;
  try {
    const answer = await historyApi("");
    turnflow.index = answer.positions;
    const slider = document.getElementById("history-slider");
    slider.max = String(turnflow.index.length - 1);
    if (turnflow.shown === null && turnflow.wanted === null && turnflow.sliding === null) {
      slider.value = slider.max;
    }
    label();
  } catch (error) {
    say(error.message);
  } finally {
    turnflow.indexing = false;
  }
  if (turnflow.reindex) {
    turnflow.reindex = false;
    loadIndex();
  } else if (turnflow.sliding !== null) {
    const position = turnflow.sliding;
    turnflow.sliding = null;
    slid(position);
  }
}

function label() {
  const box = document.getElementById("history-label");
  const p = turnflow.shown;
  if (p === null || !turnflow.index) {
    box.textContent = "Now. Drag to see your side's view earlier in the game.";
    return;
  }
  const at = turnflow.index[p];
  box.textContent = `Looking back (read only): turn ${at.turn}, position ${p} of `
    + `${turnflow.index.length - 1}` + (at.own ? ", after an order of your side" : "");
}

// the slider moved: the latest position it asks for is fetched, one request at a time
function slid(position) {
  if (turnflow.index === null || turnflow.indexing || (turnflow.stale && turnflow.shown === null)) {
    // the game may have moved on since the positions were fetched: "now" is known first
    turnflow.sliding = position;
    loadIndex();
    return;
  }
  const last = turnflow.index.length - 1;
  if (position >= last) {
    backToNow();
    return;
  }
  turnflow.wanted = position;
  if (turnflow.asking !== null) return;
  askPast(position);
}

async function askPast(position) {
  turnflow.asking = position;
  try {
    const answer = await historyApi(`/${position}`);
    turnflow.asking = null;
    if (turnflow.wanted === null) return;  // back to now meanwhile
    if (turnflow.wanted !== position) {
      askPast(turnflow.wanted);
      return;
    }
    showPast(answer);
  } catch (error) {
    turnflow.asking = null;
    say(error.message);
    loadIndex();
  }
}

// the past drawn as a message of the seat that may give no orders (game.js's own drawing)
function showPast(answer) {
  const base = turnflow.live || state;
  cancel();
  pointMode = null;
  selected = null;
  turnflow.shown = answer.position;
  state = { ...base, status: answer.status, view: answer.view, map: answer.map,
    events: answer.events, event_count: answer.event_count, revealed: null, ending: null,
    can_undo: false, seat: { ...base.seat, may_act: false, done: false },
    legal: [], idle: {}, ordersLoaded: false, past: answer.position };
  document.getElementById("mapbox").classList.add("past");
  document.getElementById("history-now").hidden = false;
  document.getElementById("history-now").textContent = "back to now";
  label();
  render();
  // game.js would say whose turn it was then, as if the seat waited for it
  document.getElementById("orders").replaceChildren(el("div", { class: "muted" },
    "Looking back: no orders here (back to now to give them)."));
}

function backToNow() {
  turnflow.shown = null;
  turnflow.wanted = null;
  document.getElementById("mapbox").classList.remove("past");
  document.getElementById("history-now").hidden = true;
  const slider = document.getElementById("history-slider");
  if (turnflow.index) slider.value = String(turnflow.index.length - 1);
  if (turnflow.live) showState(turnflow.live);
  loadIndex();
}

// the last position of the turn before (by -1) or after (by 1) the one the slider is at
function turnStep(by) {
  const index = turnflow.index;
  if (!index) return;
  const slider = document.getElementById("history-slider");
  const at = index[Number(slider.value)].turn;
  const turns = [...new Set(index.map((p) => p.turn))];
  const target = by < 0 ? turns.filter((t) => t < at).at(-1) : turns.find((t) => t > at);
  if (target === undefined) {
    if (by > 0) backToNow();
    return;
  }
  const position = index.map((p) => p.turn).lastIndexOf(target);
  slider.value = String(position);
  slid(position);
}

function lookBackControls() {
  const slider = document.getElementById("history-slider");
  // the positions are fetched again when the slider is touched after the game moved on
  // (not with every message: most are never looked back from)
  const touched = () => { if (turnflow.stale && turnflow.shown === null) loadIndex(); };
  document.getElementById("look-back").addEventListener("pointerdown", touched);
  document.getElementById("look-back").addEventListener("focusin", touched);
  slider.addEventListener("input", () => slid(Number(slider.value)));
  document.getElementById("history-now").addEventListener("click", backToNow);
  document.getElementById("history-prev").addEventListener("click", () => turnStep(-1));
  document.getElementById("history-next").addEventListener("click", () => turnStep(1));
}

soundSwitch();
lookBackControls();
