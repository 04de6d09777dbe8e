// Pointing at friends: while a form of the composer (orders.js) waits for one of the side's
// own units (the transport a unit boards, the friends joining its assault, the loader of
// its gun), a click on that unit's counter gives it, and only a unit the rules would take;
// a click on any other says why in words and gives nothing. With no such form open, a
// click on one of the side's counters picks that unit, as it always did.
//
// Which units the rules would take is asked of the rules alone, never of anything the side
// has not seen: a parameter the unit's own legal orders name (`run mount=`, `fire loader=`)
// takes the units those orders name; a joining one (`joins`: an assault's `with`, whose
// units act beside the one giving it) takes a unit whose own legal orders hold the same
// order (an assault on the same section). Any other unit is put to the rules as the order it
// would make, by a preview (which changes nothing): its refusal is the why, and should the
// rules take it after all (a sampled list may leave some out), it is given.
"use strict";

const FRIEND_TYPES = ["own", "owns"];

// the friendly parameter of the open form a click on an own counter gives, if any: the one
// the map waits for, else the form's first
function friendAwaited() {
  if (!compose || !compose.form || compose.unit !== selected) return null;
  const params = compose.form.params;
  return params.find((p) => p.name === compose.active && FRIEND_TYPES.includes(p.type))
    || params.find((p) => FRIEND_TYPES.includes(p.type)) || null;
}

// what game.js does with a click on one of the side's own counters
function ownCounterClicked(unit) {
  const param = friendAwaited();
  if (!param) return select(unit.id);
  return pickFriend(param, unit);
}

// the units the selected unit's legal orders of the open kind name for `param`
function friendsNamed(param) {
  const named = [];
  for (const order of state.legal) {
    if (order.unit !== selected || order.kind !== compose.kind) continue;
    const value = (order.params || {})[param.name];
    for (const id of Array.isArray(value) ? value : [value]) {
      if (typeof id === "string" && !named.includes(id)) named.push(id);
    }
  }
  return named;
}

// whether the map marks a unit as one the waiting parameter may name (counters.js asks)
function friendCandidate(id) {
  const param = friendAwaited();
  return Boolean(param && !param.joins && friendsNamed(param).includes(id));
}

// the composer's list of the side's units for a friendly parameter: those the rules name
// first, then the rest (the rules judge those at Preview)
function friendChoices(param) {
  const named = param.joins ? [] : friendsNamed(param);
  const own = ((state.view && state.view.own) || [])
    .filter((u) => u.id !== selected && !outOfAction(u));
  const text = (u) => `${u.id}${u.name ? ": " + u.name : ""}`;
  return [...own.filter((u) => named.includes(u.id)).map((u) => [u.id, `${text(u)} (possible now)`]),
    ...own.filter((u) => !named.includes(u.id)).map((u) => [u.id, text(u)])];
}

async function pickFriend(param, unit) {
  const asked = compose, form = compose.form;
  const taken = param.type === "owns" ? (compose.values[param.name] || []) : [];
  if (taken.includes(unit.id)) {  // clicked again: out
    compose.why = null;
    return toggleId(param.name, unit.id, false);
  }
  const why = await friendRefusal(param, unit, taken);
  if (compose !== asked || compose.form !== form) return null;  // the page has moved on
  if (why) {
    const end = /[.!?]$/.test(why) ? "" : ".";
    compose.why = `${unit.id} cannot be taken for ${param.name} (${param.help}): ${why}${end}`
      + " (Clear the form to select it instead.)";
    say(compose.why);  // and in the composer (orders.js), where the person is looking
    return render();
  }
  compose.why = null;
  say("");
  if (param.type === "owns") return toggleId(param.name, unit.id, true);
  compose.values[param.name] = unit.id;
  if (compose.active === param.name) compose.active = nextActive(param.name);
  return render();
}

// null where the rules would take the unit for the parameter, else why not, in words
async function friendRefusal(param, unit, taken) {
  if (unit.id === selected) return "it is the unit giving the order";
  if (outOfAction(unit)) return "it is out of action";
  const given = givenBesides(param);
  const missing = compose.form.params.find((p) => p !== param && p.required
    && !FRIEND_TYPES.includes(p.type) && given[p.name] === undefined);
  if (param.joins) {
    if (missing) return `give ${missing.name} first, on which its joining depends`;
    const answer = await unitOrders(unit.id);
    if (answer === null) return "the server did not answer";
    if (answer.legal.some((o) => o.kind === compose.kind && sameValues(o.params, given))) return null;
    return rulesRefusal(compose.kind, unit.id, given);
  }
  const named = friendsNamed(param);
  if (named.includes(unit.id)) return null;
  if (missing) {
    return named.length ? `of your units only ${named.join(", ")} can be now`
      : `none of your units can be now`;
  }
  const value = param.type === "owns" ? [...taken, unit.id] : unit.id;
  return rulesRefusal(compose.kind, selected, { ...given, [param.name]: value });
}

// the values given so far for the form's parameters other than its friendly ones
function givenBesides(param) {
  const given = {};
  for (const p of compose.form.params) {
    const value = compose.values[p.name];
    if (p === param || FRIEND_TYPES.includes(p.type) || value === undefined) continue;
    if (p.type === "path" && !value.length) continue;
    given[p.name] = value;
  }
  return given;
}

function sameValues(a, b) {
  const keys = [...new Set([...Object.keys(a || {}), ...Object.keys(b)])];
  return keys.every((k) => JSON.stringify((a || {})[k]) === JSON.stringify(b[k]));
}

// a unit's legal orders now, as the page asks for the unit it picks
async function unitOrders(id) {
  try {
    return await api("GET", `/api/games/${gameId}/orders?unit=${encodeURIComponent(id)}`);
  } catch (error) {
    say(error.message);
    return null;
  }
}

// the rules' refusal of an order, in their words (null: they would take it)
async function rulesRefusal(kind, unit, params) {
  try {
    await api("POST", `/api/games/${gameId}/preview`, { kind, unit, params });
    return null;
  } catch (error) {
    return error.message;
  }
}
