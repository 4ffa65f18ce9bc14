// The popup: the store's windows and recently closed entries, and a search over every
// stored tab (the store's full-text index), all read through the native host. Its
// buttons restore a window, show one this browser shows already, or reopen a closed entry.
//
// A test driver reads `popupTimings`: for each search, the milliseconds from the
// keystroke to the frame that shows its result.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const $ = (selector) => document.querySelector(selector);
globalThis.popupTimings = [];

async function ask(request) {
  const answer = await api.runtime.sendMessage(request);
  if (answer && answer.error) throw new Error(answer.error);
  return answer;
}

function say(text, isError = false) {
  $("#status").textContent = text;
  $("#status").className = isError ? "error" : "";
}

function row(title, detail, label, action) {
  const item = document.createElement("li");
  const name = document.createElement("span");
  name.className = "title";
  name.textContent = title || "(untitled)";
  name.title = title;
  const more = document.createElement("span");
  more.className = "detail";
  more.textContent = detail;
  item.append(name, more);
  if (label) {
    const button = document.createElement("button");
    button.textContent = label;
    button.addEventListener("click", () => act(action));
    item.append(button);
  }
  return item;
}

async function act(action) {
  say("Working…");
  try {
    const done = await action();
    say(done?.tabs !== undefined ? `Opened ${done.tabs} tab(s).` : "");
    await showOverview();
  } catch (error) {
    say(String(error.message ?? error), true);
  }
}

const restore = (browser) => () => ask({ type: "restore", browser });
const reopen = (entry) => () => ask({ type: "reopen", entry });
const show = (window, tabId) => () => ask({ type: "show", window, tabId });

function ago(milliseconds) {
  const minutes = Math.round((Date.now() - milliseconds) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

async function showOverview() {
  const overview = await ask({ type: "overview" });
  const windows = $("#windows ul");
  windows.replaceChildren(...overview.windows.map((w) => {
    const detail = `${w.tabs} tab(s)${w.source ? ` · ${w.source}` : ""} · ${w.url}`;
    const shown = w.window !== undefined && w.window !== null;
    const item = shown ? row(w.title, detail, "Show", show(w.window)) : row(w.title, detail, "Restore", restore(w.browser));
    item.dataset.browser = w.browser;
    return item;
  }));
  const closed = $("#closed ul");
  closed.replaceChildren(...overview.closed.map((entry) => {
    const what = entry.kind === "tab" ? "tab" : `${entry.kind} of ${entry.tabs} tab(s)`;
    const item = row(entry.title, `${what} · ${ago(entry.closedAt)} · ${entry.url}`, "Reopen", reopen(entry.entry));
    item.dataset.entry = entry.entry;
    return item;
  }));
  $("#closed").hidden = overview.closed.length === 0;
  return overview;
}

// Searches: each keystroke asks; only the answer to the latest one is shown.
let latest = 0;
async function search(typed, startedAt) {
  const mine = ++latest;
  const query = typed.trim();
  if (!/[\p{L}\p{N}]/u.test(query)) {
    $("#matches").hidden = true;
    $("#windows").hidden = false;
    $("#closed").hidden = $("#closed ul").children.length === 0;
    return;
  }
  let matches;
  try {
    matches = await ask({ type: "search", query });
  } catch (error) {
    if (mine === latest) say(String(error.message ?? error), true);
    return;
  }
  if (mine !== latest) return;
  const list = $("#matches ul");
  list.replaceChildren(...matches.map((m) => {
    let label = null;
    let action = null;
    if (m.window !== undefined && m.window !== null) [label, action] = ["Show", show(m.window, m.tabId)];
    else if (m.closedEntry) [label, action] = ["Reopen", reopen(m.closedEntry)];
    else if (m.browser) [label, action] = ["Restore", restore(m.browser)];
    const item = row(m.title, m.closedEntry ? `closed · ${m.url}` : m.url, label, action);
    item.dataset.tab = m.tab;
    return item;
  }));
  $("#matches").hidden = false;
  $("#windows").hidden = true;
  $("#closed").hidden = true;
  say(matches.length === 0 ? "No stored tab matches." : "");
  requestAnimationFrame(() => setTimeout(() => {
    popupTimings.push({ query, matches: matches.length, ms: performance.now() - startedAt });
  }, 0));
}

// From the key going down (when there is one: pasted text has none) to the result on screen.
let keyDownAt = null;
$("#query").addEventListener("keydown", (event) => {
  keyDownAt = event.timeStamp;
  // Enter: the best match's button (Show, Reopen or Restore).
  if (event.key === "Enter" && !$("#matches").hidden) $("#matches li button")?.click();
});
$("#query").addEventListener("input", (event) => {
  const startedAt = keyDownAt ?? event.timeStamp;
  keyDownAt = null;
  search(event.target.value, startedAt);
});

showOverview().catch((error) => say(`${String(error.message ?? error)} (is sessionstore host installed?)`, true));
