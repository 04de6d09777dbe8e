// The objectives panel of the game page: each objective place with the symbol the map marks
// it with, who holds it as the seat's side knows it (from the message's map layer, built
// from the side's view alone), and what it is worth to each side.
"use strict";

function holdingWords(o, mySide) {
  switch (o.holding) {
    case "yours": return `held by you (${o.holder})`;
    case "contested": return "contested: your troops and the enemy's in sight";
    case "enemy": return `held by ${o.holder} (in sight)`;
    case "enemy-last-seen": return `${o.holder} last seen there (turn ${o.seen_turn})`;
    case "nobody-known": return mySide ? "nobody you know of" : "unknown";
    case "no-place": return "scored at the end";
    case "held": return `held by ${o.holder}`;
    case "nobody": return "held by nobody";
    default: return "unknown";
  }
}

function drawObjectives() {
  const box = document.getElementById("objectives");
  if (!box) return;
  // once the game is over, who holds what is everyone's to know
  const list = (state && ((state.revealed && state.revealed.objectives)
    || (state.map && state.map.objectives))) || [];
  const mySide = state && state.seat ? state.seat.side : null;
  box.replaceChildren();
  for (const o of list) {
    const aims = el("div", { class: "objective-aims muted" });
    for (const aim of o.aims) {
      aims.append(el("span", { class: "objective-aim" + (aim.side === mySide ? " mine" : ""),
        title: aim.description }, `${aim.side} ${aim.kind}: ${aim.points} pt${aim.points === 1 ? "" : "s"}`));
    }
    box.append(el("div", { class: `objective holding-${o.holding}`, "data-key": o.key },
      o.key ? el("span", { class: "objective-key" }, o.key) : "",
      el("span", { class: "objective-name" }, o.name),
      el("div", { class: "objective-holder" }, holdingWords(o, mySide)), aims));
  }
  if (!list.length) box.textContent = "None.";
}
