// The links of a game just made, where the person who made it is looking: each seat's
// link with the seat and side it plays, a Copy button beside it.
"use strict";

function seatLink(id, token) {
  return `${location.origin}/play/${id}#token=${encodeURIComponent(token)}`;
}

// Copy the text to the clipboard; where the browser refuses (no clipboard API, a page
// not served securely, permission denied) the link's own text is selected instead, for
// Ctrl+C. Says which it did on the button.
async function copyLink(url, code, button) {
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = "Copied";
    return;
  } catch { /* the fallback below */ }
  const range = document.createRange();
  range.selectNodeContents(code);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  let copied = false;
  try { copied = document.execCommand("copy"); } catch { copied = false; }
  button.textContent = copied ? "Copied" : "Selected: press Ctrl+C";
}

function linkItem(label, url, note) {
  const code = el("code", {}, url);
  const copy = el("button", { class: "copy", type: "button" }, "Copy");
  copy.addEventListener("click", () => copyLink(url, code, copy));
  const item = el("li", { "data-link": label }, `${label}: `,
    el("a", { href: url, target: "_blank" }, "open"), " ", copy, " ");
  if (note) item.append(el("span", { class: "muted" }, note), " ");
  item.append(code);
  return item;
}

// The box of links: after `near` (the Create button's row) when given, else first in
// #created; scrolled into view either way.
function showLinks(id, title, seatTokens, spectator, seats, near) {
  const sides = Object.fromEntries((seats || []).map((s) => [s.name, s.side]));
  const box = el("div", { class: "links", "data-game": id }, el("b", {}, `Game ${id}: ${title}. `),
    "Send each player their own link (it is their seat's key):");
  const list = el("ul");
  for (const [seat, token] of Object.entries(seatTokens)) {
    const side = sides[seat];
    const note = side && side !== seat ? `(plays for the ${side})` : side ? "(the whole side)" : "";
    list.append(linkItem(seat, seatLink(id, token), note));
  }
  if (spectator) list.append(linkItem("spectators", seatLink(id, spectator), "(public events only)"));
  box.append(list);
  if (near) {
    near.after(box);  // the newest first, above the card's earlier ones
  } else {
    document.getElementById("created").prepend(box);
  }
  box.scrollIntoView({ block: "nearest" });
  return box;
}
