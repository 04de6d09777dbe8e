// Quick battles in the lobby: a rule set and a seed make a scenario no one has seen (a
// town, forces of equal points, objectives), kept with the uploaded ones and offered
// above with the others. Uses el (dom.js), api and loadScenarios (lobby.js).
"use strict";

async function makeQuickBattle(event) {
  event.preventDefault();
  const result = document.getElementById("quick-result");
  const summary = document.getElementById("quick-summary");
  const send = document.getElementById("quick-send");
  const typed = document.getElementById("quick-seed").value.trim();
  summary.replaceChildren();
  result.className = "";
  if (typed !== "" && !/^[0-9]+$/.test(typed)) {
    result.className = "error";
    result.textContent = "a seed is a whole number, 0 or more";
    return;
  }
  const ruleset = document.getElementById("quick-ruleset").value;
  // the seed's digits as typed: a JavaScript number would round a long one
  const body = typed === "" ? JSON.stringify({ ruleset })
    : `{"ruleset":${JSON.stringify(ruleset)},"seed":${typed}}`;
  send.disabled = true;
  result.textContent = "Making the battle…";
  try {
    const made = await api("POST", "/api/quick", body);
    result.textContent = `${made.title} (${made.name}, seed ${made.seed}) is ready: `
      + "it is listed with the other scenarios.";
    for (const line of made.summary.slice(1)) summary.append(el("li", {}, line));
    await loadScenarios();
  } catch (error) {
    result.className = "error";
    result.textContent = error.message;
  } finally {
    send.disabled = false;
  }
}

async function quickBattleForm() {
  const { rulesets } = await api("GET", "/api/quick");
  const select = el("select", { id: "quick-ruleset" },
    ...rulesets.map((name) => el("option", { value: name }, name)));
  const form = el("form", { id: "quick" }, "rule set ", select, " seed ",
    el("input", { type: "number", min: "0", step: "1", id: "quick-seed", size: "10",
                  placeholder: "empty: drawn" }), " ",
    el("button", { type: "submit", class: "primary", id: "quick-send" }, "Make a quick battle"));
  form.addEventListener("submit", makeQuickBattle);
  document.getElementById("lobby-error").after(
    el("h2", {}, "Quick battle"),
    el("p", { class: "muted" }, "A town no one has seen, made from a seed: forces of equal "
      + "points from the rule set's own lists, deployment zones on opposite edges, buildings "
      + "to hold. The same seed makes the same battle (the game's dice are still its own)."),
    form, el("p", { id: "quick-result" }), el("ul", { id: "quick-summary", class: "muted" }));
}

quickBattleForm().catch((e) => { document.getElementById("lobby-error").textContent = e.message; });
