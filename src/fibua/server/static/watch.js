// The watch page: a log is sent to the server, which verifies it and answers its replay.
"use strict";

document.getElementById("upload-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = document.getElementById("log-file").files[0];
  const status = document.getElementById("watch-status");
  document.getElementById("report").replaceChildren();
  if (!file) {
    showError("Choose a log file first.");
    return;
  }
  status.textContent = `verifying ${file.name}…`;
  try {
    const response = await fetch("/api/replays", { method: "POST", body: file,
      headers: { "content-type": "application/x-ndjson" } });
    const type = response.headers.get("content-type") || "";
    const data = type.includes("json") ? await response.json() : { message: await response.text() };
    if (!response.ok) throw new Error(`${file.name}: ${data.message || response.statusText}`);
    status.textContent = `${file.name}: verified`;
    showReport(data);
  } catch (error) {
    status.textContent = "";
    showError(error.message);
  }
});
