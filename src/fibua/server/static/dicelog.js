// The dice and events list of the game page, drawn anew only where it changed: a new
// message adds its new events at the end (and drops from the top those past the ones a
// message carries); the same message drawn again (a unit picked, its orders come) changes
// nothing. Rebuilding the whole list (up to 300 events with their rolls) on every draw was
// most of the page's redraw after an order in a long game.
"use strict";

// what the list shows: the message it was drawn from, with details or not, and the
// number of elements each event it shows was drawn as (its line, its rolls, its details)
let diceDrawn = { message: null, details: null, count: 0, sizes: [] };

function eventNodes(event, details) {
  const nodes = [el("div", { class: "event" }, event.text)];
  for (const roll of event.rolls) nodes.push(el("div", { class: "roll" }, roll.trim()));
  if (details) for (const line of event.details || []) nodes.push(el("div", { class: "details" }, line));
  return nodes;
}

// How many events at the end of the message are new since the list was drawn, or null
// when the list must be drawn whole (another detail setting, an undo, a gap).
function newEvents(message, details) {
  const drawn = diceDrawn;
  if (drawn.message === null || drawn.details !== details) return null;
  const added = message.event_count - drawn.count;
  const events = message.events;
  if (added < 0 || added > events.length || drawn.sizes.length === 0) return null;
  // the last event drawn must be the one just before the new ones
  const last = drawn.message.events[drawn.message.events.length - 1];
  const before = events[events.length - added - 1];
  if (!last || !before || last.text !== before.text || last.turn !== before.turn) return null;
  return added;
}

function drawDiceLog(box, message, details) {
  if (diceDrawn.message === message && diceDrawn.details === details) return;
  const added = newEvents(message, details);
  const events = message.events;
  let fresh = events;
  if (added === null) {
    box.replaceChildren();
    diceDrawn.sizes = [];
  } else {
    fresh = added ? events.slice(-added) : [];
  }
  for (const event of fresh) {
    const nodes = eventNodes(event, details);
    box.append(...nodes);
    diceDrawn.sizes.push(nodes.length);
  }
  while (diceDrawn.sizes.length > events.length) {  // those no message carries now
    for (let n = diceDrawn.sizes.shift(); n > 0; n--) box.firstChild.remove();
  }
  diceDrawn = { message, details, count: message.event_count, sizes: diceDrawn.sizes };
  if (fresh.length) box.scrollTop = box.scrollHeight;
}
