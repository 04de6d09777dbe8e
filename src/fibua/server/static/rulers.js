// Coordinate rulers along the map's top and left edges, as the terminal's map has: round
// values of the table's x (east) and y (north, from the bottom edge) in the scenario's
// unit, redrawn when the map is panned or zoomed so they always tell the part in view.
"use strict";

// the least room between two numbered ticks, in screen pixels
const RULER_MIN_PX = 56;
let rulerWatch = null;

// a round step (1, 2, 2.5 or 5 times a power of ten) at least `least` long
function rulerStep(least) {
  const power = least > 0 ? 10 ** Math.floor(Math.log10(least)) : 1;
  for (const factor of [1, 2, 2.5, 5, 10]) {
    if (factor * power >= least) return factor * power;
  }
  return 10 * power;
}

// the round values of [low, high] a step apart
function rulerValues(low, high, step) {
  const out = [];
  for (let v = Math.ceil(low / step - 1e-9) * step; v <= high + 1e-9; v += step) {
    out.push(Math.round(v * 1000) / 1000);
  }
  return out;
}

function rulerBox(id) {
  const box = document.getElementById("mapbox");
  let node = document.getElementById(id);
  if (!node) {
    node = document.createElement("div");
    node.id = id;
    node.className = "ruler";
    box.append(node);
  }
  return node;
}

function tick(ruler, css, at, text) {
  const mark = document.createElement("span");
  mark.className = css;
  mark.textContent = text;
  if (ruler.id === "ruler-x") mark.style.left = `${at}px`;
  else mark.style.top = `${at}px`;
  ruler.append(mark);
}

// Draws both rulers for the map `svg` as it is shown now.
function drawRulers(svg) {
  const box = document.getElementById("mapbox");
  const table = svg && svg.querySelector("rect.table");
  if (!box || !table || !svg.getScreenCTM()) return;
  const width = Number(table.getAttribute("width")), height = Number(table.getAttribute("height"));
  const m = svg.getScreenCTM();
  const outer = box.getBoundingClientRect(), view = svg.getBoundingClientRect();
  // the table's edges on the screen, and the part of it in view
  const left = m.e, right = m.e + m.a * width, top = m.f, bottom = m.f + m.d * height;
  const shownLeft = Math.max(left, view.left), shownRight = Math.min(right, view.right);
  const shownTop = Math.max(top, view.top), shownBottom = Math.min(bottom, view.bottom);
  const unit = svg.dataset.unit || "";
  const across = rulerBox("ruler-x"), down = rulerBox("ruler-y");
  across.replaceChildren();
  down.replaceChildren();
  across.style.left = `${shownLeft - outer.left}px`;
  across.style.width = `${Math.max(0, shownRight - shownLeft)}px`;
  across.style.top = `${shownTop - outer.top - across.offsetHeight}px`;
  down.style.top = `${shownTop - outer.top}px`;
  down.style.height = `${Math.max(0, shownBottom - shownTop)}px`;
  down.style.left = `${shownLeft - outer.left - down.offsetWidth}px`;
  const step = rulerStep(RULER_MIN_PX / m.a);
  const x0 = (shownLeft - m.e) / m.a, x1 = (shownRight - m.e) / m.a;
  for (const v of rulerValues(x0, x1, step)) tick(across, "tick", m.e + m.a * v - shownLeft, `${v}`);
  // y grows north: the table's y is its height less the map's y (which grows down)
  const y0 = height - (shownBottom - m.f) / m.d, y1 = height - (shownTop - m.f) / m.d;
  for (const v of rulerValues(y0, y1, rulerStep(RULER_MIN_PX * 0.6 / m.a))) {
    tick(down, "tick", m.f + m.d * (height - v) - shownTop, `${v}`);
  }
  rulerBox("ruler-unit").textContent = unit;
  watchRulers(svg);
}

// redraw on every pan, zoom and resize (once a frame at most)
function watchRulers(svg) {
  if (rulerWatch && rulerWatch.svg === svg) return;
  let queued = false;
  const again = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; drawRulers(svg); });
  };
  const observer = new MutationObserver(again);
  observer.observe(svg, { attributes: true, attributeFilter: ["viewBox"] });
  window.addEventListener("resize", again);
  rulerWatch = { svg, observer };
}
