// The mirror's status page: the extension's counters, and round trips timed on
// request. Opened as status.html#stats, status.html#round-trips=N or
// status.html#restore=BROWSER (a stored window opened in the browser), it also puts
// the figures in its title as JSON, where a test driver reads them (Firefox's
// Marionette cannot reach the background page; Chromium's DevTools can).
"use strict";

const api = globalThis.browser ?? globalThis.chrome;

const labels = {
  connected: "Connected to the host", snapshotSent: "Snapshot sent", sent: "Messages sent",
  acknowledged: "Acknowledged (committed)", refused: "Refused by the host", pending: "Waiting for the host",
  dropped: "Dropped while disconnected (the next snapshot carries them)", p50: "Round trip p50 (ms)",
  p99: "Round trip p99 (ms)", lastError: "Last error",
};

async function refresh() {
  const stats = await api.runtime.sendMessage({ type: "stats" });
  const list = document.getElementById("stats");
  list.replaceChildren();
  for (const [key, label] of Object.entries(labels)) {
    const term = document.createElement("dt");
    term.textContent = label;
    const value = document.createElement("dd");
    const shown = stats[key];
    value.textContent = typeof shown === "number" && !Number.isInteger(shown) ? shown.toFixed(2) : String(shown ?? "—");
    list.append(term, value);
  }
  return stats;
}

async function measure(count) {
  const result = await api.runtime.sendMessage({ type: "roundTrips", count });
  document.getElementById("result").textContent =
    `${result.count} round trips: p50 ${result.p50?.toFixed(2)} ms, p99 ${result.p99?.toFixed(2)} ms`;
  return result;
}

document.getElementById("measure").addEventListener("click", () => measure(100).then(refresh));

(async () => {
  const stats = await refresh();
  setInterval(refresh, 1000);
  const asked = /^#round-trips=(\d+)$/.exec(location.hash);
  if (asked) {
    document.title = `round-trips ${JSON.stringify(await measure(Number(asked[1])))}`;
  } else if (location.hash === "#stats") {
    document.title = `stats ${JSON.stringify(stats)}`;
  }
  const restore = /^#restore=([0-9a-fA-F-]{36})$/.exec(location.hash);
  if (restore) {
    // A stored window opened in the browser (the browser suite's restore check, in Firefox).
    document.title = `restore ${JSON.stringify(await api.runtime.sendMessage({ type: "restore", browser: restore[1] }))}`;
  }
})();
