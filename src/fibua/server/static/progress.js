// What a seat's page shows while the server is busy with its game, so it is never blank:
// opening, the rules engine being compiled (how far), the game being set up, the computer
// thinking. The server says so over the game's WebSocket ({"type": "progress"}); the game
// page hands those messages here, and each state message, which ends every stage but the
// computer's (that one ends with the server's "idle").
"use strict";

function showProgress(message) {
  const box = document.getElementById("progress");
  if (!message || message.stage === "idle") {
    box.hidden = true;
    box.dataset.stage = "idle";
    return;
  }
  box.hidden = false;
  box.dataset.stage = message.stage;
  const counted = typeof message.percent === "number";
  document.getElementById("progress-text").textContent = counted
    ? `${message.message} (${message.percent}%)` : `${message.message}…`;
  const bar = document.getElementById("progress-bar");
  if (counted) bar.value = message.percent;
  else bar.removeAttribute("value");  // a bar that says "under way", not how far
  const title = document.getElementById("title");
  if (message.title && !title.textContent) title.textContent = message.title;
}

function progressOnState(message) {
  const box = document.getElementById("progress");
  const mayAct = message.seat && message.seat.may_act;
  if (box.dataset.stage !== "computer" || mayAct || message.status.over) showProgress(null);
}
