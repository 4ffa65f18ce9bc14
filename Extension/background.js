// SessionStore mirror: sends every tab, window, group and navigation event of
// the browser's normal windows to the native host (`sessionstore host`), which
// writes it into the store. One source for Chromium (an MV3 service worker,
// manifest.json) and Firefox (a persistent background page, manifest.firefox.json).
//
// - Each event is posted as it happens; no listener awaits the host.
// - At start, and after the host reconnects, a snapshot of every window goes first,
//   once the browser's events pause (a browser restoring its windows fires many).
// - Private (incognito) windows never reach the host: the extension asks for no
//   private access ("incognito": "not_allowed"), and drops any private event anyway.
// - Each tab's split view (splitViewId, -1 for none) goes with it where the browser has
//   split views; a restore makes the window's splits again where the browser can
//   (Chromium's tabs.createSplit).
// - The host's reply to a message names the store identifiers of new tabs; the
//   extension keeps them (Firefox: sessions.setTabValue, which survives a restart;
//   Chromium: storage.session, which survives the service worker) and sends them in
//   the next snapshot, so the host knows the tabs again.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
// Chromium has a `browser` namespace too (Chromium 156 does): Firefox is told by an API only it has.
const isFirefox = typeof api.runtime.getBrowserInfo === "function";
const HOST = "org.sessionstore.host";

let port = null;
let nextID = 1;
let reconnectDelay = 100;
const sentAt = new Map(); // message id -> performance.now() when posted
const latencies = []; // round trips, in milliseconds, the last 100,000
// Windows and tabs never mirrored: private ones, and windows that are not normal
// browser windows (popups, app windows), with their tabs.
const unmirroredWindows = new Set();
const unmirroredTabs = new Set();
const stats = { sent: 0, acknowledged: 0, refused: 0, dropped: 0, lastError: null };

// What the test harness reads through the DevTools protocol or Marionette.
globalThis.sessionStoreStats = () => {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null);
  return {
    ...stats, pending: sentAt.size, held: held.length, count: sorted.length, p50: at(0.5), p99: at(0.99),
    connected: port !== null, snapshotSent,
  };
};

// Until the snapshot is sent, events are held (a browser restoring its session
// fires many): the snapshot is taken once they stop for a moment, and the events
// that come while it is read follow it.
let snapshotSent = false;
let snapshotInFlight = false;
let generation = 0; // bumped at every connection and disconnection: a snapshot read for an older one is dropped
let held = [];
let quietTimer = null;
const QUIET_MS = 300;
const MOST_WAIT_MS = 3000;
let firstHeldAt = 0;

// Round trips measured one at a time: `count` activations of the active tab, each
// posted once the previous one is acknowledged (what the browser suite calls).
globalThis.sessionStoreRoundTrips = async (count) => {
  const [tab] = await api.tabs.query({ active: true, lastFocusedWindow: true });
  const times = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await new Promise((resolve) => {
      const id = send({ type: "tabActivated", tabId: tab.id, windowId: tab.windowId });
      if (id === null) resolve();
      else waiters.set(id, resolve);
    });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { count, p50: times[Math.floor(count / 2)], p99: times[Math.min(count - 1, Math.floor(count * 0.99))] };
};
const waiters = new Map(); // message id -> what its acknowledgement resolves

// The status page (status.html) asks for the counters and for timed round trips.
api.runtime.onMessage.addListener((request, sender, sendResponse) => {
  if (sender.id !== api.runtime.id) return false;
  if (request?.type === "stats") {
    sendResponse(sessionStoreStats());
  } else if (POPUP_REQUESTS[request?.type]) {
    // The popup (popup.html) and the status page: answered once the host (and the browser) have.
    POPUP_REQUESTS[request.type](request).then(
      (done) => sendResponse(done), (error) => sendResponse({ error: String(error.message ?? error) }));
    return true;
  } else if (request?.type === "roundTrips") {
    const count = Math.min(10000, Math.max(1, Math.floor(Number(request.count) || 0)));
    sessionStoreRoundTrips(count).then(sendResponse);
    return true; // answered later
  }
  return false;
});

function post(message) {
  if (port === null) {
    stats.dropped += 1; // the snapshot sent on reconnecting carries it
    return;
  }
  if (restoring !== null) {
    restoring.held.push(message);
    return;
  }
  if (!snapshotSent) {
    held.push(message);
    scheduleSnapshot();
    return;
  }
  send(message);
}

function scheduleSnapshot() {
  if (snapshotSent || snapshotInFlight || port === null || reopening) return;
  const now = performance.now();
  if (firstHeldAt === 0) firstHeldAt = now;
  clearTimeout(quietTimer);
  const wait = Math.max(0, Math.min(QUIET_MS, firstHeldAt + MOST_WAIT_MS - now));
  quietTimer = setTimeout(takeSnapshot, wait);
}

async function takeSnapshot() {
  quietTimer = null;
  if (snapshotSent || snapshotInFlight || port === null || reopening) return;
  snapshotInFlight = true;
  const mine = generation;
  // What happened before the snapshot is in it; what happens while it is read follows it.
  held = [];
  let message;
  try {
    message = await snapshotMessage();
  } catch (error) {
    if (mine !== generation) return;
    snapshotInFlight = false;
    stats.lastError = String(error);
    return scheduleSnapshot();
  }
  if (mine !== generation) return; // the connection it was read for is gone
  snapshotInFlight = false;
  if (port === null) return;
  if (reopening) return; // a reopened tab is being made: the snapshot after it carries everything
  send(message);
  snapshotSent = true;
  firstHeldAt = 0;
  const after = held;
  held = [];
  for (const event of after) send(event);
}

// Posts a message now; returns its id, or null when there is no connection.
function send(message) {
  if (port === null) {
    stats.dropped += 1;
    return null;
  }
  message.id = nextID++;
  sentAt.set(message.id, performance.now());
  stats.sent += 1;
  try {
    port.postMessage(message);
  } catch (error) {
    stats.lastError = String(error);
    sentAt.delete(message.id);
  }
  return message.id;
}

function onReply(reply) {
  if (reply.type === "open") return openRequested(reply); // the host asks, for `sessionstore open --in`
  if (reply.ack !== undefined && reply.ack !== null) {
    const start = sentAt.get(reply.ack);
    if (start !== undefined) {
      latencies.push(performance.now() - start);
      if (latencies.length > 100000) latencies.shift();
      sentAt.delete(reply.ack);
    }
  }
  if (reply.error) {
    stats.refused += 1;
    stats.lastError = reply.error;
  } else {
    stats.acknowledged += 1;
  }
  if (reply.ids) {
    try {
      remember(reply.ids);
    } catch (error) {
      stats.lastError = String(error); // never in the way of the waiter below
    }
  }
  if (reply.ack !== undefined && reply.ack !== null) {
    waiters.get(reply.ack)?.(reply);
    waiters.delete(reply.ack);
  }
}

// The store identifiers the host gave the tabs, kept where they outlive what they must.
function remember(ids) {
  rememberNow(ids).catch(() => {});
}

// The same, resolved once kept (a snapshot that follows reads them).
async function rememberNow(ids) {
  if (isFirefox) {
    await Promise.all(Object.entries(ids).map(([tab, sid]) => api.sessions.setTabValue(Number(tab), "sid", sid)));
  } else {
    const items = {};
    for (const [tab, sid] of Object.entries(ids)) items[`sid:${tab}`] = sid;
    await api.storage.session.set(items);
  }
}

async function rememberedID(tabID) {
  try {
    if (isFirefox) return (await api.sessions.getTabValue(tabID, "sid")) ?? null;
    const key = `sid:${tabID}`;
    return (await api.storage.session.get(key))[key] ?? null;
  } catch {
    return null;
  }
}

// The split view a tab is in (Chromium 156, Firefox ESR 153: tabs.Tab.splitViewId), -1 for none;
// undefined where the browser has no split views, and the key is then left out.
function splitValue(value) {
  if (value === undefined || value === null) return undefined;
  return value === (api.tabs.SPLIT_VIEW_ID_NONE ?? -1) || value < 0 ? -1 : value;
}

function splitViewOf(tab) {
  const split = splitValue(tab.splitViewId);
  if (split === undefined) return undefined;
  // A split view's end waits (below): until then the tab is told as still in it.
  if (split === -1 && splitEnding.has(tab.id)) return splitEnding.get(tab.id);
  if (split === -1) lastSplit.delete(tab.id);
  else lastSplit.set(tab.id, split);
  return split;
}

// Chromium ends a window's split views as the window closes (and as the browser quits), an
// onUpdated per tab before the tabs go: told at once, the store would keep the closed window
// without them. So a split view's end is told SPLIT_END_MS later, and only for a tab still there.
const SPLIT_END_MS = 400;
const lastSplit = new Map(); // tab id -> the split view it was last told in
const splitEnding = new Map(); // tab id -> that split view, while its end waits

function splitEnded(tabId) {
  if (!lastSplit.has(tabId) || splitEnding.has(tabId)) return;
  splitEnding.set(tabId, lastSplit.get(tabId));
  setTimeout(() => {
    splitEnding.delete(tabId);
    api.tabs.get(tabId).then((tab) => {
      if (!isUnmirrored(tab)) post({ type: "tabUpdated", tab: describeTab(tab) });
    }, () => lastSplit.delete(tabId)); // closed meanwhile: its tabRemoved was told
  }, SPLIT_END_MS);
}

function describeTab(tab) {
  return {
    id: tab.id,
    windowId: tab.windowId,
    index: tab.index,
    url: tab.url || tab.pendingUrl || "", // a tab still loading has an empty url and a pendingUrl
    title: tab.title ?? "",
    pinned: tab.pinned,
    groupId: tab.groupId ?? -1,
    active: tab.active,
    openerTabId: tab.openerTabId,
    incognito: tab.incognito,
    splitViewId: splitViewOf(tab),
  };
}

function describeGroup(group) {
  return { id: group.id, windowId: group.windowId, title: group.title ?? "", color: group.color, collapsed: group.collapsed };
}

function isUnmirrored(tab) {
  return tab.incognito || unmirroredWindows.has(tab.windowId);
}

// A restore: a window the store keeps, opened in the browser (sessionStoreRestore). While
// it is made, events are held; the window is then sent whole (windowRestored), each tab
// with the store identifier the plan gave it, and the held events of other windows follow.
let restoring = null; // { windowId, tabs: Set of tab ids made, held: [messages] }

// Posts `message` and resolves with the host's reply.
function request(message) {
  return new Promise((resolve, reject) => {
    const id = send(message);
    if (id === null) reject(new Error("not connected to the host"));
    else waiters.set(id, resolve);
  });
}

// Opens the store's browser `browser` (its identifier) in a new window, its tabs not
// loaded but the active one; resolves with the window's id and its number of tabs.
globalThis.sessionStoreRestore = async (browser) => {
  if (restoring !== null) throw new Error("a restore is already running");
  if (!snapshotSent) throw new Error("not yet in step with the host");
  restoring = { windowId: null, tabs: new Set(), held: [], described: 0, planned: false };
  try {
    const plan = { tabs: [], groups: [] };
    for (let offset = 0; offset !== null; ) {
      const reply = await request({ type: "restorePlan", browser, offset });
      if (reply.error) throw new Error(reply.error);
      restoring.planned = true; // the host has opened the window again in the store
      plan.tabs.push(...reply.plan.tabs);
      plan.groups = reply.plan.groups;
      offset = reply.plan.next ?? null;
    }
    if (plan.tabs.length === 0) throw new Error("the stored window has no tab");
    const active = Math.max(0, plan.tabs.findIndex((t) => t.active));
    const sidOf = new Map(); // tab id -> the store identifier the plan gave it
    // A page the browser will not open for an extension (Firefox: file:, chrome:, data:,
    // privileged about: pages) becomes a new tab: the same stored tab, with its history.
    let window;
    try {
      window = await api.windows.create({ url: plan.tabs[0].url || undefined, focused: false });
    } catch {
      window = await api.windows.create({ focused: false });
    }
    restoring.windowId = window.id;
    const ids = [window.tabs[0].id];
    for (let i = 1; i < plan.tabs.length; i++) {
      const tab = plan.tabs[i];
      const properties = { windowId: window.id, url: tab.url || undefined, active: false };
      // Firefox makes a tab without loading it (not for about: pages); Chromium discards it once made (below).
      if (isFirefox && i !== active && tab.url && !tab.url.startsWith("about:")) {
        Object.assign(properties, { discarded: true, title: tab.title || undefined });
      }
      let made;
      try {
        made = await api.tabs.create(properties);
      } catch {
        made = await api.tabs.create({ windowId: window.id, active: false });
      }
      ids.push(made.id);
    }
    ids.forEach((id, i) => {
      sidOf.set(id, plan.tabs[i].sid);
      restoring.tabs.add(id);
    });
    for (let i = 0; i < plan.tabs.length; i++) {
      if (plan.tabs[i].pinned) await api.tabs.update(ids[i], { pinned: true });
    }
    for (const group of plan.groups) {
      const members = ids.filter((_, i) => plan.tabs[i].group === group.id);
      if (members.length === 0 || !api.tabs.group) continue;
      const made = await api.tabs.group({ tabIds: members, createProperties: { windowId: window.id } });
      await api.tabGroups.update(made, { title: group.title, color: group.color, collapsed: group.collapsed });
    }
    // Split views: made where the browser lets an extension (Chromium's tabs.createSplit);
    // Firefox has none, and the host is told how many were not made.
    const pairs = new Map(); // store split id -> indexes of its tabs
    plan.tabs.forEach((tab, i) => {
      if (tab.split) pairs.set(tab.split, [...(pairs.get(tab.split) ?? []), i]);
    });
    let splitsNotMade = 0;
    for (const indexes of pairs.values()) {
      if (indexes.length !== 2 || typeof api.tabs.createSplit !== "function") {
        splitsNotMade += 1;
        continue;
      }
      try {
        await api.tabs.createSplit(indexes.map((i) => ids[i]));
      } catch (error) {
        stats.lastError = String(error);
        splitsNotMade += 1;
      }
    }
    await api.tabs.update(ids[active], { active: true });
    // Chromium loads what it creates: each tab but the active one is discarded (a new tab id),
    // once its URL is committed (a tab discarded before that keeps no URL, or Firefox's about:blank).
    const uncommitted = (tab, planned) => planned && planned !== "about:blank" && (!tab.url || tab.url === "about:blank");
    for (let i = 0; i < ids.length; i++) {
      if (i === active || (isFirefox && i !== 0)) continue;
      try {
        for (let wait = 0; wait < 100 && uncommitted(await api.tabs.get(ids[i]), plan.tabs[i].url); wait++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const discarded = await api.tabs.discard(ids[i]);
        if (discarded?.id !== undefined && discarded.id !== ids[i]) {
          sidOf.set(discarded.id, plan.tabs[i].sid);
          restoring.tabs.add(discarded.id);
          ids[i] = discarded.id;
        }
      } catch {
        // A tab the browser cannot discard (still loading, say) stays loaded.
      }
    }
    // What happened before this read is in it; what happens after follows the window.
    restoring.described = restoring.held.length;
    const made = await api.windows.get(window.id, { populate: true });
    const groups = api.tabGroups ? await api.tabGroups.query({ windowId: window.id }) : [];
    const tabs = (made.tabs ?? []).map((tab) => ({ ...describeTab(tab), sid: sidOf.get(tab.id) ?? null }));
    const reply = await request({
      type: "windowRestored", browser,
      window: { id: window.id, tabs, groups: groups.map(describeGroup) }, splitsNotMade,
    });
    if (reply?.error || reply === undefined) throw new Error(reply?.error ?? "disconnected from the host");
    return { window: window.id, tabs: tabs.length, splits: pairs.size - splitsNotMade, splitsNotMade };
  } catch (error) {
    // A window made, or opened again in the store, but not told to the host: the next
    // snapshot puts the store right, as after a reconnection.
    if (restoring.windowId !== null || restoring.planned) {
      restoring.described = restoring.held.length;
      snapshotSent = false;
    }
    throw error;
  } finally {
    const done = restoring;
    restoring = null;
    // Events of the restored window before it was read are in what windowRestored said; the
    // rest follow. One of them that also names another window (a tab dragged out) means a snapshot.
    const windowOf = (m) => [m.windowId, m.tab?.windowId, m.window?.id, m.group?.windowId, m.newWindowId, m.oldWindowId];
    const about = (m) => windowOf(m).includes(done.windowId)
      || [m.tabId, m.tab?.id, m.addedTabId, m.removedTabId].some((id) => done.tabs.has(id));
    done.held.forEach((message, index) => {
      if (index >= done.described || !about(message)) return post(message);
      if (windowOf(message).some((id) => id !== undefined && id !== null && id !== done.windowId)) snapshotSent = false;
    });
    if (!snapshotSent) scheduleSnapshot();
  }
};

// Restores and reopenings, one at a time (the popup, `sessionstore open`, the status page),
// each once the extension is in step with the host.
let queue = Promise.resolve();
function queued(work) {
  const run = queue.then(async () => {
    for (let waited = 0; (!snapshotSent || port === null) && waited < 15000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return work();
  });
  queue = run.catch(() => {});
  return run;
}

// The host asks for stored windows to open (`sessionstore open --in`): each is restored, and
// what became of each is told back.
async function openRequested(message) {
  const results = [];
  const mine = generation; // the host that asked: if it goes, nobody waits for the rest
  for (const browser of message.browsers ?? []) {
    if (mine !== generation) return;
    try {
      const done = await queued(() => sessionStoreRestore(String(browser)));
      results.push({ browser, window: done.window, tabs: done.tabs });
    } catch (error) {
      results.push({ browser, error: String(error.message ?? error) });
    }
  }
  if (mine === generation) send({ type: "openDone", request: message.request, results });
}

// A recently closed entry brought back. The host puts it back in the store; its tabs are made
// in the window that shows their browser, each given its store identifier before the host
// hears of it, in a snapshot (events wait meanwhile, and the snapshot carries them). An entry
// whose browser no window shows (a closed window) opens as a restored window.
let reopening = false;
async function reopenClosed(entry) {
  // The host must know every window as this browser shows it before it puts the entry back.
  if (!snapshotSent || snapshotInFlight || restoring !== null) throw new Error("not yet in step with the host");
  const reply = await request({ type: "reopenClosed", entry });
  if (reply.error) throw new Error(reply.error);
  const plan = reply.reopen;
  if (plan.window === undefined || plan.window === null) return sessionStoreRestore(plan.browser);
  reopening = true;
  snapshotSent = false;
  try {
    const made = [];
    for (const tab of plan.tabs) {
      let created;
      try {
        created = await api.tabs.create({
          windowId: plan.window, index: tab.index, url: tab.url || undefined, pinned: tab.pinned, active: false,
        });
      } catch {
        created = await api.tabs.create({ windowId: plan.window, index: tab.index, pinned: tab.pinned, active: false });
      }
      made.push(created.id);
      await rememberNow({ [created.id]: tab.sid });
    }
    if (plan.group && made.length > 0 && api.tabs.group) {
      if (plan.groupId !== undefined && plan.groupId !== null) {
        await api.tabs.group({ tabIds: made, groupId: plan.groupId });
      } else {
        const group = await api.tabs.group({ tabIds: made, createProperties: { windowId: plan.window } });
        await api.tabGroups.update(group, { title: plan.group.title, color: plan.group.color });
      }
    }
    if (made.length > 0) await api.tabs.update(made[0], { active: true });
    await api.windows.update(plan.window, { focused: true });
    return { window: plan.window, tabs: made.length };
  } finally {
    reopening = false;
    scheduleSnapshot();
  }
}

// What the popup and the status page ask for.
const POPUP_REQUESTS = {
  overview: async () => (await hostAnswer({ type: "overview" })).overview,
  search: async (asked) => (await hostAnswer({ type: "search", query: String(asked.query ?? "") })).matches,
  restore: (asked) => queued(() => sessionStoreRestore(String(asked.browser ?? ""))),
  reopen: (asked) => queued(() => reopenClosed(String(asked.entry ?? ""))),
  show: async (asked) => {
    await api.windows.update(Number(asked.window), { focused: true });
    if (asked.tabId !== undefined && asked.tabId !== null) await api.tabs.update(Number(asked.tabId), { active: true });
    return {};
  },
};

async function hostAnswer(message) {
  const reply = await request(message);
  if (reply.error) throw new Error(reply.error);
  return reply;
}

async function snapshotMessage() {
  const windows = await api.windows.getAll({ populate: true, windowTypes: ["normal"] });
  for (const other of await api.windows.getAll({ windowTypes: ["popup", "panel", "app", "devtools"] })) {
    unmirroredWindows.add(other.id);
  }
  const groups = api.tabGroups ? await api.tabGroups.query({}) : [];
  const described = [];
  for (const window of windows) {
    if (window.incognito) {
      unmirroredWindows.add(window.id);
      continue;
    }
    const tabs = [];
    for (const tab of window.tabs ?? []) {
      const entry = describeTab(tab);
      entry.sid = await rememberedID(tab.id);
      tabs.push(entry);
    }
    described.push({
      id: window.id,
      tabs,
      groups: groups.filter((g) => g.windowId === window.id).map(describeGroup),
    });
  }
  return { type: "snapshot", windows: described };
}

function connect() {
  try {
    port = api.runtime.connectNative(HOST);
  } catch (error) {
    stats.lastError = String(error);
    port = null;
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 30000);
    return;
  }
  port.onMessage.addListener((reply) => {
    reconnectDelay = 100;
    onReply(reply);
  });
  port.onDisconnect.addListener(() => {
    stats.lastError = String(api.runtime.lastError?.message ?? port?.error?.message ?? "disconnected");
    port = null;
    generation += 1;
    snapshotSent = false;
    snapshotInFlight = false;
    held = [];
    sentAt.clear();
    for (const resolve of waiters.values()) resolve({ error: "disconnected from the host" });
    waiters.clear();
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 30000);
  });
  generation += 1;
  snapshotSent = false;
  snapshotInFlight = false;
  firstHeldAt = 0;
  scheduleSnapshot();
}

// ---- Events, posted as they happen ----

api.windows.onCreated.addListener((window) => {
  // Private windows, and popups or app windows: neither is mirrored, nor are their tabs.
  if (window.incognito || (window.type && window.type !== "normal")) {
    unmirroredWindows.add(window.id);
    return;
  }
  post({ type: "windowCreated", window: { id: window.id, tabs: [] } });
});

api.windows.onRemoved.addListener((windowId) => {
  if (unmirroredWindows.delete(windowId)) return;
  post({ type: "windowRemoved", windowId });
});

api.tabs.onCreated.addListener((tab) => {
  if (isUnmirrored(tab)) {
    unmirroredTabs.add(tab.id);
    return;
  }
  post({ type: "tabCreated", tab: describeTab(tab) });
});

api.tabs.onRemoved.addListener((tabId, info) => {
  lastSplit.delete(tabId);
  if (unmirroredTabs.delete(tabId) || unmirroredWindows.has(info.windowId)) return;
  post({ type: "tabRemoved", tabId, windowId: info.windowId, isWindowClosing: info.isWindowClosing });
});

api.tabs.onMoved.addListener((tabId, info) => {
  if (unmirroredTabs.has(tabId)) return;
  post({ type: "tabMoved", tabId, windowId: info.windowId, fromIndex: info.fromIndex, toIndex: info.toIndex });
});

api.tabs.onDetached.addListener((tabId, info) => {
  if (unmirroredTabs.has(tabId)) return;
  post({ type: "tabDetached", tabId, oldWindowId: info.oldWindowId, oldPosition: info.oldPosition });
});

api.tabs.onAttached.addListener((tabId, info) => {
  if (unmirroredTabs.has(tabId)) return;
  post({ type: "tabAttached", tabId, newWindowId: info.newWindowId, newPosition: info.newPosition });
  // Chromium inserts a tab moved to another window unpinned, and says so in no event
  // (onUpdated reports pin changes within a strip only); Firefox keeps it pinned. So the
  // tab as it now is follows: what happened meanwhile was posted before it, in order.
  api.tabs.get(tabId).then((tab) => {
    if (!isUnmirrored(tab)) post({ type: "tabUpdated", tab: describeTab(tab) });
  }, () => {});
});

api.tabs.onActivated.addListener((info) => {
  if (unmirroredTabs.has(info.tabId) || unmirroredWindows.has(info.windowId)) return;
  post({ type: "tabActivated", tabId: info.tabId, windowId: info.windowId });
});

const followed = ["url", "title", "pinned", "groupId", "status", "splitViewId"];
api.tabs.onUpdated.addListener((tabId, changes, tab) => {
  if (isUnmirrored(tab) || unmirroredTabs.has(tabId)) return;
  if (!followed.some((key) => key in changes)) return;
  if ("splitViewId" in changes && splitValue(changes.splitViewId) === -1) {
    splitEnded(tabId);
    if (Object.keys(changes).length === 1) return; // told once the wait is over
  }
  post({ type: "tabUpdated", tab: describeTab(tab) });
});

// Chromium replaces a tab when it shows a prerendered page; Firefox registers the event but never fires it.
api.tabs.onReplaced?.addListener((addedTabId, removedTabId) => {
  if (unmirroredTabs.has(removedTabId)) {
    unmirroredTabs.add(addedTabId);
    return;
  }
  post({ type: "tabReplaced", addedTabId, removedTabId });
});

if (api.tabGroups) {
  for (const [event, type] of [
    ["onCreated", "groupCreated"],
    ["onUpdated", "groupUpdated"],
    ["onMoved", "groupMoved"],
    ["onRemoved", "groupRemoved"],
  ]) {
    api.tabGroups[event].addListener((group) => {
      if (unmirroredWindows.has(group.windowId)) return;
      post({ type, group: describeGroup(group) });
    });
  }
}

function navigation(sameDocument) {
  return (details) => {
    if (details.frameId !== 0 || unmirroredTabs.has(details.tabId)) return;
    post({
      type: "navigationCommitted",
      tabId: details.tabId,
      url: details.url,
      transitionType: details.transitionType,
      transitionQualifiers: details.transitionQualifiers,
      timeStamp: details.timeStamp,
      sameDocument,
    });
  };
}
api.webNavigation.onCommitted.addListener(navigation(false));
api.webNavigation.onHistoryStateUpdated.addListener(navigation(true));
api.webNavigation.onReferenceFragmentUpdated.addListener(navigation(true));

connect();
