// The odds panel: the rule set's odds questions (public, no token), a form built from each
// question's JSON schema, and the answer's breakdown.
"use strict";

let oddsRuleset = null;
let oddsQuestions = [];

async function loadOdds(ruleset) {
  if (!ruleset || oddsRuleset === ruleset) return;
  oddsRuleset = ruleset;
  const box = document.getElementById("odds-question");
  try {
    const response = await fetch(`/api/odds/${encodeURIComponent(ruleset)}`);
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || response.statusText);
    oddsQuestions = data.questions;
  } catch (error) {
    document.getElementById("odds-answer").textContent = error.message;
    return;
  }
  box.replaceChildren(...oddsQuestions.map((q) => el("option", { value: q.name }, q.name)));
  box.onchange = () => oddsForm(oddsQuestions.find((q) => q.name === box.value));
  if (oddsQuestions.length) oddsForm(oddsQuestions[0]);
}

// a property with its reference followed and an optional (x | null) taken as x
function oddsField(schema, prop) {
  let found = { ...prop };
  let optional = false;
  if (found.anyOf) {
    const rest = found.anyOf.filter((p) => p.type !== "null");
    optional = rest.length < found.anyOf.length;
    found = { ...found, ...rest[0] };
    delete found.anyOf;
  }
  if (found.$ref) {
    const name = found.$ref.split("/").pop();
    found = { ...((schema.$defs || {})[name] || {}), ...found };
    delete found.$ref;
  }
  return { ...found, optional };
}

function oddsInput(name, field, required) {
  const attrs = { name, "data-field": name, id: `odds-${name}` };
  if (field.enum) {
    const select = el("select", attrs, ...field.enum.map((v) => el("option", { value: v }, v)));
    if (field.default !== undefined) select.value = String(field.default);
    return select;
  }
  if (field.type === "boolean") {
    const box = el("input", { ...attrs, type: "checkbox" });
    box.checked = field.default === true;
    return box;
  }
  if (field.type === "integer" || field.type === "number") {
    const input = el("input", { ...attrs, type: "number",
      step: field.type === "integer" ? "1" : "any" });
    if (field.minimum !== undefined) input.min = field.minimum;
    if (field.maximum !== undefined) input.max = field.maximum;
    if (field.default !== undefined && field.default !== null) input.value = field.default;
    if (required) input.required = true;
    return input;
  }
  const input = el("input", { ...attrs, type: "text",
    placeholder: field.type === "array" ? "values separated by commas" : "" });
  if (field.default !== undefined && field.default !== null) {
    input.value = Array.isArray(field.default) ? field.default.join(", ") : field.default;
  }
  return input;
}

function oddsForm(question) {
  const form = document.getElementById("odds-form");
  form.replaceChildren();
  document.getElementById("odds-answer").replaceChildren();
  if (!question) return;
  document.getElementById("odds-help").textContent = question.help;
  const schema = question.schema;
  const required = new Set(schema.required || []);
  for (const [name, prop] of Object.entries(schema.properties || {})) {
    const field = oddsField(schema, prop);
    const row = el("label", { class: "odds-row", title: field.description || "" },
      el("span", {}, name + (required.has(name) ? " *" : "")), oddsInput(name, field, required.has(name)));
    form.append(row);
  }
  form.append(el("button", { type: "submit", class: "primary", id: "odds-ask" }, "Odds"));
  form.noValidate = true;  // the server judges the question and names the bad field
  form.onsubmit = (event) => { event.preventDefault(); askOdds(question); };
}

function oddsValue(field, input) {
  if (field.type === "boolean") return input.checked;
  const text = input.value.trim();
  if (text === "") return undefined;
  if (field.type === "integer" || field.type === "number") return Number(text);
  if (field.type === "array") {
    const itemType = (field.items || {}).type;
    return text.split(",").map((v) => v.trim()).filter((v) => v !== "")
      .map((v) => (itemType === "number" || itemType === "integer" ? Number(v)
        : itemType === "boolean" ? /^(y|yes|true|1)$/i.test(v) : v));
  }
  if (field.enum && typeof field.enum[0] === "number") return Number(text);
  return text;
}

async function askOdds(question) {
  const schema = question.schema;
  const body = {};
  for (const [name, prop] of Object.entries(schema.properties || {})) {
    const input = document.getElementById(`odds-${name}`);
    input.classList.remove("bad");
    const value = oddsValue(oddsField(schema, prop), input);
    if (value !== undefined) body[name] = value;
  }
  const box = document.getElementById("odds-answer");
  box.replaceChildren();
  const response = await fetch(`/api/odds/${encodeURIComponent(oddsRuleset)}/${encodeURIComponent(question.name)}`,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) {
    for (const name of data.fields || []) {
      const input = document.getElementById(`odds-${name}`);
      if (input) input.classList.add("bad");
    }
    box.append(el("div", { class: "error" }, data.message || response.statusText));
    return;
  }
  const table = el("table", { class: "odds-table" });
  for (const [label, value] of data.breakdown) {
    table.append(el("tr", {}, el("td", {}, label), el("td", {}, value)));
  }
  box.append(table);
}
