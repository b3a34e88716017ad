// The mas web page: it talks only to the HTTP API of mas serve, and puts
// every text it shows into the page with textContent, never as HTML.
//
// One refresh every two seconds, never two at once: GET /sessions, then,
// for the session being watched, GET /sessions/{id}/output (all its
// agents' screens in one request). While the tab is hidden, a glance every
// ten seconds instead, one light request (the watched session's agents,
// no screens) that keeps the title's count and the notifications going.
"use strict";

// The team, window by window, each window's agents manager first: the
// server puts it into the page (from package roster, its one table).
const team = JSON.parse(document.getElementById("team").textContent);
const agents = team.flatMap((w) => w.agents.map((a) => [a.id, a.name]));
const refreshEvery = 2000; // ms between the end of a refresh and the next
const glanceEvery = 10000; // the same, while the tab is hidden
const screenLines = 60; // lines asked of each agent's screen
const hideKey = "mas.hideStopped"; // localStorage: "1" hides stopped sessions

// The page's state: the session watched (its full id, "" for none), the
// ?session= value not yet matched to a session, the last list.
let selected = "";
let wanted = new URLSearchParams(location.search).get("session") || "";
let sessions = [];
let hosts = []; // the root's hosts and whether each answers, as GET /sessions says
let listKey = ""; // what the table shows, to redraw it only when it changes
let errorFromRefresh = false;
let reveal = false; // scroll to the screens once they show, the list above

// What each agent of the watched session was doing at the last refresh,
// by id, to see it change: empty until a refresh of that session.
let seen = { session: "", activity: new Map() };

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function button(text, cls, onclick) {
  const b = el("button", text, cls);
  b.type = "button";
  b.onclick = onclick;
  return b;
}

function showError(err) {
  const p = document.getElementById("error");
  p.textContent = err ? String(err.message || err) : "";
  p.hidden = !err;
  errorFromRefresh = false;
}

// api calls the API and throws its {"error": …} message on failure.
async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (e) { /* not JSON */ }
  if (!resp.ok) {
    const err = new Error((data && data.error) || (method + " " + path + ": HTTP " + resp.status));
    err.status = resp.status;
    throw err;
  }
  return data;
}

// A host's name, and the id of a host's session (NAME:<uuid>): what a
// host answered is not trusted, and a row that names its host or id
// otherwise is not shown.
const hostName = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function trustedRow(s) {
  if (!s || typeof s.sessionId !== "string") return false;
  if (s.host === undefined) return true; // this machine's
  if (typeof s.host !== "string" || !hostName.test(s.host)) return false;
  const [name, id] = [s.sessionId.slice(0, s.host.length + 1), s.sessionId.slice(s.host.length + 1)];
  return name === s.host + ":" && uuid.test(id);
}

// received keeps the list of GET /sessions: the sessions, and the hosts
// (none when the root has none).
function received(data) {
  sessions = (Array.isArray(data.sessions) ? data.sessions : []).filter(trustedRow);
  hosts = (Array.isArray(data.hosts) ? data.hosts : []).filter((h) => h && typeof h.name === "string" && hostName.test(h.name));
}

function hostOf(name) {
  return hosts.find((h) => h.name === name);
}

function sessionPath(s, tail) {
  return "/sessions/" + encodeURIComponent(s.sessionId) + (tail || "");
}

// The refresh loop: refresh() runs one now, or right after the one in
// flight; the next is planned when it ends, and only while the tab shows.
let inFlight = false;
let again = false;
let timer = 0;

async function refresh() {
  if (inFlight) {
    again = true;
    return;
  }
  inFlight = true;
  clearTimeout(timer);
  try {
    do {
      again = false;
      await refreshOnce();
    } while (again);
  } finally {
    inFlight = false;
    plan();
  }
}

function plan() {
  clearTimeout(timer);
  timer = setTimeout(refresh, visible() ? refreshEvery : glanceEvery);
}

function visible() {
  return document.visibilityState === "visible";
}

document.addEventListener("visibilitychange", () => {
  if (visible()) refresh();
  else if (!inFlight) plan(); // a glance, later; one under way plans it as it ends
});

async function refreshOnce() {
  if (!visible()) return glance();
  try {
    received(await api("GET", "/sessions"));
  } catch (err) {
    // With MAS_API_TOKEN set, the page gets in through the login URL
    // that mas serve prints; say so rather than "unreachable".
    document.getElementById("health").textContent = err.status === 401 ? "Login required" : "API unreachable";
    showError(err.status === 401 ? "Login required (401): this server has MAS_API_TOKEN set. Open the login URL " +
      "that mas serve printed on stderr (for the server that start launched: .mas_http.log in the mas root)." : err);
    errorFromRefresh = true;
    return;
  }
  document.getElementById("health").textContent = "API ok";
  if (errorFromRefresh) showError(null);
  pickWanted();
  renderSessions();
  try {
    await refreshView();
  } catch (err) {
    // The session may have stopped since the list: the next refresh
    // says so; the screens shown last stay.
    const note = document.getElementById("view-note");
    note.textContent = String(err.message || err);
    note.hidden = false;
  }
}

// glance is the refresh of a hidden tab: the watched session's agents
// alone (no screens), or the list when none is watched, for the title and
// the notifications. What goes wrong shows when the tab does.
async function glance() {
  try {
    if (!selected) {
      received(await api("GET", "/sessions"));
      titleOfList();
      return;
    }
    const id = selected;
    const s = await api("GET", "/sessions/" + encodeURIComponent(id));
    if (selected !== id) return;
    const list = s.status === "active" ? s.agents || [] : [];
    observe(s, list);
    titleOf(s.tmuxSession, list);
  } catch (err) {
    // The next refresh of the tab shown says it.
  }
}

// The title starts with how many agents wait for a person: of the session
// watched, or of every session when none is.
function setTitle(count, name) {
  document.title = (count ? "(" + count + ") " : "") + "mas" + (name ? " — " + name : "");
}

function titleOf(name, list) {
  setTitle(list.filter((a) => needsPerson(a.activity)).length, name);
}

function titleOfList() {
  setTitle(sessions.reduce((n, s) => n + (s.needsYou || 0), 0), "");
}

function needsPerson(activity) {
  return activity === "waiting" || activity === "asking";
}

// observe notes what the agents of session s do now, and raises a
// notification for each that was working at the last refresh and now
// waits (its turn is done) or asks: once per change, and none for what a
// session does when first seen.
function observe(s, list) {
  const before = seen.session === s.sessionId ? seen.activity : null;
  seen = { session: s.sessionId, activity: new Map(list.map((a) => [a.id, a.activity])) };
  if (!before) return;
  for (const a of list) {
    if (before.get(a.id) === "working" && needsPerson(a.activity)) notify(s, a);
  }
}

// notifications tells whether the page may raise notifications: the
// browser has them and the user allowed them.
function notifications() {
  return "Notification" in window && window.isSecureContext && Notification.permission === "granted";
}

function notify(s, a) {
  if (!notifications()) return;
  const what = a.activity === "asking" ? " asks" : " is done";
  try {
    // One per agent at a time: a newer one of the same agent replaces it.
    const n = new Notification(a.id + " " + a.name + what + " (" + s.tmuxSession + ")", {
      body: a.message || (a.activity === "asking" ? "It asks a person." : "It waits for its next prompt."),
      tag: "mas-" + s.sessionId + "-" + a.id,
    });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch (err) {
    // A browser that only lets a service worker notify: nothing to do.
  }
}

// renderNotify shows the "Notify me" button while the browser could ask
// the user, and what the user chose otherwise.
function renderNotify() {
  const b = document.getElementById("notify");
  const state = document.getElementById("notify-state");
  const can = "Notification" in window && window.isSecureContext;
  const perm = can ? Notification.permission : "";
  b.hidden = perm !== "default";
  state.textContent = perm === "granted" ? "Notifications on" : perm === "denied" ? "Notifications blocked (site settings)" : "";
}

// The permission is asked for only on the user's click, as browsers want.
document.getElementById("notify").addEventListener("click", async () => {
  try {
    await Notification.requestPermission();
  } catch (err) {
    showError(err);
  }
  renderNotify();
});

// pickWanted selects the session that ?session= names, by its full id,
// tmux name or a unique prefix of its id, once the list is known.
function pickWanted() {
  if (!wanted) return;
  const w = wanted;
  wanted = "";
  const here = sessions.filter((s) => !s.host); // a host's session is not watched here
  const exact = here.filter((s) => s.sessionId === w || s.tmuxSession === w);
  const found = exact.length ? exact : here.filter((s) => s.sessionId.startsWith(w.toLowerCase()));
  if (found.length === 1) {
    select(found[0].sessionId, false);
  } else {
    showError("?session=" + w + ": " + (found.length ? "several sessions start so; give more of the id" :
      "no such session under this root"));
  }
}

// select watches session id ("" for none) and writes it into the URL.
function select(id, now = true) {
  if (id === selected) return;
  selected = id;
  history.replaceState(null, "", id ? "?session=" + encodeURIComponent(id) : location.pathname);
  document.getElementById("grid").replaceChildren();
  document.getElementById("sent").hidden = true;
  document.getElementById("message").elements.target.value = "";
  document.getElementById("view").classList.toggle("watching", !!id);
  reveal = !!id;
  listKey = "";
  if (now) refresh();
}

function hideStopped() {
  return document.getElementById("hide-stopped").checked;
}

function renderSessions() {
  // When an agent last reported changes all the time, and is not shown.
  const shown = sessions.map(({ lastActivity, ...s }) => s);
  const key = JSON.stringify([shown, hosts, selected, hideStopped()]);
  if (key === listKey) return; // redrawing would eat a click under way
  listKey = key;
  renderHosts();
  const body = document.querySelector("#sessions tbody");
  body.replaceChildren();
  document.getElementById("no-sessions").hidden = sessions.length > 0;
  if (!sessions.length) document.getElementById("new-session").open = true;
  let hidden = 0;
  for (const s of newestFirst(sessions)) {
    // The session watched stays listed, with its buttons.
    if (hideStopped() && s.status === "stopped" && s.sessionId !== selected) {
      hidden++;
      continue;
    }
    const tr = el("tr");
    tr.dataset.id = s.sessionId;
    if (s.sessionId === selected) tr.className = "selected";
    tr.append(el("td", s.tmuxSession, "name"), el("td", s.sessionId, "id"), el("td", s.mode, "mode"),
      el("td", s.status, "status status-" + s.status), needsYou(s), created(s.createdAt));
    if (hosts.length) tr.append(hostCell(s));
    tr.title = s.workingDir;
    tr.append(el("td", undefined, "actions"));
    tr.lastChild.append(...actions(s));
    body.append(tr);
  }
  document.getElementById("hidden-count").textContent = hidden ? "(" + hidden + " hidden)" : "";
}

// newestFirst is the sessions, the one created last first.
function newestFirst(list) {
  const at = (s) => Date.parse(s.createdAt) || 0;
  return [...list].sort((x, y) => at(y) - at(x) || (x.sessionId < y.sessionId ? -1 : 1));
}

// created is the cell of when a session was created, in the viewer's
// time zone and way of writing dates; the time as the API gives it (RFC
// 3339) in its tooltip.
function created(iso) {
  const t = Date.parse(iso);
  const td = el("td", Number.isNaN(t) ? iso : new Date(t).toLocaleString(), "created");
  td.title = iso;
  return td;
}

// needsYou is the cell that says how many agents of a running session
// wait for a person, and how many of them ask.
function needsYou(s) {
  const n = s.needsYou || 0;
  const td = el("td", n ? String(n) + (s.asking ? " (" + s.asking + " asking)" : "") : "", "needs");
  if (s.asking) td.classList.add("asking");
  return td;
}

// hostCell is the cell that says where a session runs: this machine
// (local) or a host, with a badge when that host does not answer (its
// row is then its last answer).
function hostCell(s) {
  const td = el("td", s.host || "local", "host");
  const h = s.host && hostOf(s.host);
  if (h && !h.answers) {
    const badge = el("span", "down", "badge down");
    badge.title = (h.error || "no answer") + (h.fetchedAt ? "; as listed at " + new Date(h.fetchedAt).toLocaleString() : "");
    td.append(badge);
  }
  return td;
}

// renderHosts shows the Host column and the host choice of the form when
// the root has hosts, and says which hosts do not answer.
function renderHosts() {
  document.querySelector("#sessions th.host").hidden = !hosts.length;
  const down = hosts.filter((h) => !h.answers && h.error);
  const p = document.getElementById("hosts-down");
  p.textContent = down.map((h) => "Host " + h.name + " does not answer: " + h.error +
    (h.fetchedAt ? " (its sessions as listed at " + new Date(h.fetchedAt).toLocaleString() + ")" : "")).join("\n");
  p.hidden = !down.length;
  renderHostChoice();
}

// renderHostChoice offers local, each host and auto in the form, keeping
// the choice made.
function renderHostChoice() {
  const choice = document.getElementById("host-choice");
  const select = choice.querySelector("select");
  const names = ["local", ...hosts.map((h) => h.name), "auto"];
  choice.hidden = !hosts.length;
  if (JSON.stringify([...select.options].map((o) => o.value)) === JSON.stringify(names)) return;
  const was = select.value;
  select.replaceChildren(...names.map((n) => {
    const o = el("option", n === "auto" ? "auto (the fewest sessions)" : n);
    o.value = n;
    return o;
  }));
  select.value = names.includes(was) ? was : "local";
  hostChosen();
}

// hostChosen allows legacy mode on this machine alone: a host's sessions
// are isolated.
function hostChosen() {
  const form = document.getElementById("create");
  const local = form.elements.host.value === "local" || !hosts.length;
  const legacy = [...form.elements.mode.options].find((o) => o.value === "legacy");
  legacy.disabled = !local;
  if (!local) form.elements.mode.value = "isolated";
}

document.getElementById("create").elements.host.addEventListener("change", hostChosen);

// actions are a session's buttons: watch it, and what its state allows.
// Remove is offered for a session that does not run: a running one is
// stopped first (the page never sends force). A host's session is not
// watched here: its row says the command that attaches to it.
function actions(s) {
  const out = [];
  if (s.host) {
    const ref = s.sessionId.slice(0, s.host.length + 9);
    const hint = el("span", "mas session attach " + ref, "quiet hint");
    hint.title = "Its screens are on host " + s.host + ": attach from a terminal";
    out.push(hint);
  }
  if (s.status !== "orphan" && !s.host) {
    const watch = button(s.sessionId === selected ? "Watching" : "Watch", "watch", () => select(s.sessionId));
    watch.disabled = s.sessionId === selected;
    out.push(watch);
  }
  if (s.status === "active" || s.status === "orphan") out.push(button("Stop", "stop", () => stopSession(s)));
  if (s.mode === "isolated" && s.status === "stopped") out.push(button("Resume", "resume", () => resumeSession(s)));
  if (s.mode === "isolated" && (s.status === "stopped" || s.status === "error")) {
    out.push(button("Remove", "remove", () => removeSession(s)));
  }
  return out;
}

// act runs one change of a session, shows its error, and refreshes; it
// tells whether the change was made.
async function act(question, method, path) {
  if (question && !window.confirm(question)) return false;
  let done = false;
  try {
    showError(null);
    await api(method, path);
    done = true;
  } catch (err) {
    showError(err);
  }
  listKey = "";
  refresh();
  return done;
}

function stopSession(s) {
  const q = s.status === "orphan" ?
    "End the orphaned tmux session " + s.tmuxSession + "? Its session directory is gone already." :
    "Stop session " + s.tmuxSession + where(s) + "? Its agents end; its files stay.";
  return act(q, "POST", sessionPath(s, "/stop"));
}

// where is " on host NAME" for a host's session, "" for this machine's.
function where(s) {
  return s.host ? " on host " + s.host : "";
}

function resumeSession(s) {
  return act("", "POST", sessionPath(s, "/resume"));
}

async function removeSession(s) {
  const removed = await act("Remove session " + s.tmuxSession + " (" + s.sessionId + ")" + where(s) + "?\n\nIts directory " + s.workingDir +
    " and everything in it (workspace, prompts, logs) are deleted. This cannot be undone.",
  "DELETE", sessionPath(s));
  if (removed && s.sessionId === selected) select("");
}

// refreshView shows the watched session: its agents' screens while it
// runs, why there are none otherwise.
async function refreshView() {
  const title = document.getElementById("view-title");
  const status = document.getElementById("view-status");
  const note = document.getElementById("view-note");
  const form = document.getElementById("message");
  const grid = document.getElementById("grid");
  const s = sessions.find((x) => x.sessionId === selected);
  title.textContent = s ? "Agents of " + s.tmuxSession : "Agents";
  status.textContent = s ? s.status : "";
  status.className = s ? "status status-" + s.status : "";
  document.getElementById("view-dir").textContent = s ? s.workingDir : "";
  document.getElementById("send-button").textContent = s ? "Send to " + s.tmuxSession : "Send";
  renderNotify();
  if (!s) titleOfList();
  else if (s.status !== "active") setTitle(0, s.tmuxSession);
  let why = "";
  if (!selected) why = "Choose a session above (Watch) to see its agents.";
  else if (!s) why = "Session " + selected + " is no longer listed under this root.";
  else if (s.status !== "active") why = s.tmuxSession + " is " + s.status + stoppedHint(s);
  note.textContent = why;
  note.hidden = !why;
  form.hidden = !!why;
  if (why) {
    seen = { session: "", activity: new Map() }; // a session resumed starts afresh
    grid.replaceChildren();
    document.getElementById("view-updated").textContent = "";
    return;
  }
  const out = await api("GET", sessionPath(s, "/output?lines=" + screenLines));
  if (selected !== s.sessionId) return; // another session was chosen meanwhile
  const list = out.agents || [];
  observe(s, list);
  titleOf(s.tmuxSession, list);
  renderGrid(list);
  document.getElementById("view-updated").textContent = "updated " + new Date().toLocaleTimeString();
  if (reveal) {
    reveal = false;
    document.getElementById("view").scrollIntoView({ block: "start" });
  }
}

// stoppedHint ends the note on a session that does not run: how to bring
// back a stopped one. The legacy session is started again as it was
// started (the page has no Resume for it: it has no workspace to resume).
function stoppedHint(s) {
  if (s.status !== "stopped") return ".";
  return s.mode === "legacy" ? ": start it again with mas start, or New session in legacy mode." : ": Resume brings it back.";
}

// renderGrid shows one tile per agent, kept from one refresh to the next:
// a screen whose text did not change is left alone, and one scrolled to
// its end stays at its end. The agents that wait for a person come first,
// those that ask before those that wait, each in the order of the list.
function renderGrid(list) {
  const grid = document.getElementById("grid");
  const tiles = [];
  for (const a of list) {
    const tile = grid.querySelector('[data-agent="' + CSS.escape(a.id) + '"]') || newTile(grid, a);
    renderActivity(tile, a);
    tiles.push([rank(a.activity), tiles.length, tile]);
    const screen = tile.querySelector(".screen");
    const key = JSON.stringify(a.styled || a.lines || []);
    if (shownOn.get(screen) === key) continue;
    const wasAtEnd = atEnd(screen);
    shownOn.set(screen, key);
    renderScreen(screen, a);
    if (wasAtEnd) screen.scrollTop = screen.scrollHeight;
  }
  tiles.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const order = tiles.map((t) => t[2]);
  if (order.every((t, i) => grid.children[i] === t)) return;
  // Moved, a screen forgets where it was scrolled to, and a box being
  // typed in its focus.
  const scrolled = order.map((t) => {
    const screen = t.querySelector(".screen");
    return [screen, screen.scrollTop, atEnd(screen)];
  });
  const focused = document.activeElement;
  grid.append(...order);
  for (const [screen, top, end] of scrolled) screen.scrollTop = end ? screen.scrollHeight : top;
  if (focused && focused !== document.activeElement && grid.contains(focused)) focused.focus();
}

// shownOn is what each screen shows, as the API gave it, to redraw a
// screen only when it changes.
const shownOn = new WeakMap();

// newTile makes the tile of agent a: a header, what it asks, its screen
// and a box that sends to it alone. A click on the tile makes it the
// target of the message box too.
function newTile(grid, a) {
  const tile = el("article", undefined, "tile");
  tile.dataset.agent = a.id;
  const head = el("header");
  const typed = el("span", "typed, not submitted", "typed");
  typed.title = "The last message from this page was typed into its input without Enter";
  typed.hidden = true;
  head.append(el("span", a.id, "id"), el("span", a.name, "name"), typed, el("span", "", "activity"),
    el("span", "", "since quiet"), el("span", "", "state"));
  const box = el("form", undefined, "send");
  const text = el("textarea");
  text.name = "text";
  text.rows = 1;
  text.required = true;
  text.placeholder = "Ctrl+Enter sends";
  text.setAttribute("aria-label", "Message to " + a.id + " " + a.name);
  sendOnCtrlEnter(text, box);
  const send = el("button", "Send");
  send.type = "submit";
  box.append(text, send);
  box.addEventListener("submit", (ev) => {
    ev.preventDefault();
    sendMessage(a.id, text);
  });
  tile.append(head, el("p", "", "ask"), el("pre", "", "screen"), box);
  tile.addEventListener("click", () => chooseTarget(a.id));
  grid.append(tile);
  return tile;
}

// chooseTarget makes agent id the message box's target, and marks its
// tile.
function chooseTarget(id) {
  document.getElementById("message").elements.target.value = id;
  for (const t of document.querySelectorAll("#grid .tile")) t.classList.toggle("chosen", t.dataset.agent === id);
}

// renderScreen puts an agent's lines on its screen: each run of one
// style a span of its own, whose text is set as text and whose style is
// built from numbers alone (the lines as they are when the server sent
// no runs).
function renderScreen(screen, a) {
  const styled = Array.isArray(a.styled) && a.styled.length === (a.lines || []).length ? a.styled : null;
  if (!styled) {
    screen.textContent = (a.lines || []).join("\n");
    return;
  }
  const parts = [];
  styled.forEach((runs, i) => {
    if (i > 0) parts.push("\n");
    for (const r of Array.isArray(runs) ? runs : []) parts.push(styledRun(r));
  });
  screen.replaceChildren(...parts);
}

// styledRun is a span for a run of one style: the 16 colours of the
// palette and the attributes as classes, any other colour as rgb() of
// three numbers.
function styledRun(r) {
  const span = el("span", typeof r.text === "string" ? r.text : "");
  let [fg, bg] = [r.fg, r.bg];
  if (r.inverse) {
    [fg, bg] = [bg, fg];
    span.classList.add("inverse");
  }
  colour(span, "fg", "color", fg);
  colour(span, "bg", "backgroundColor", bg);
  for (const flag of ["bold", "dim", "italic", "underline", "strike"]) {
    if (r[flag] === true) span.classList.add(flag);
  }
  return span;
}

// colour gives span colour c: a palette index 0–15 as the class fgN or
// bgN, [r, g, b] as an rgb() style; anything else leaves the default.
function colour(span, cls, property, c) {
  const byte = (n) => Number.isInteger(n) && n >= 0 && n <= 255;
  if (byte(c) && c < 16) span.classList.add(cls + c);
  else if (Array.isArray(c) && c.length === 3 && c.every(byte)) span.style[property] = "rgb(" + c.map(Number).join(", ") + ")";
}

function atEnd(screen) {
  return screen.scrollTop + screen.clientHeight >= screen.scrollHeight - 4;
}

// rank orders the tiles: asking first, then waiting, then the others.
function rank(activity) {
  return activity === "asking" ? 0 : activity === "waiting" ? 1 : 2;
}

// renderActivity shows an agent's state in its tile: its pane's, what it
// does and since when, what it asks; a tile of an agent that waits for a
// person stands out, one that asks the most.
function renderActivity(tile, a) {
  const act = a.activity || "unknown";
  tile.className = "tile state-" + a.status + " activity-" + act + (needsPerson(act) ? " needs-you" : "");
  tile.classList.toggle("chosen", document.getElementById("message").elements.target.value === a.id);
  tile.querySelector(".state").textContent = a.status;
  // The pane's state says it already of an agent gone or exited; an
  // agent that reports nothing has no activity to show.
  const shown = act !== "unknown" && act !== a.status;
  const activity = tile.querySelector(".activity");
  activity.textContent = shown ? act : "";
  activity.hidden = !shown;
  const since = tile.querySelector(".since");
  since.textContent = shown && a.activitySince ? ago(a.activitySince) : "";
  since.title = a.activitySince ? "since " + new Date(a.activitySince).toLocaleString() : "";
  const ask = tile.querySelector(".ask");
  ask.textContent = act === "asking" ? a.message || "It asks a person: answer it in its pane." : "";
  ask.hidden = act !== "asking";
}

// ago says how long ago an ISO-8601 time was, coarsely.
function ago(iso) {
  const s = Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 1000));
  if (!(s >= 0)) return "";
  if (s < 60) return s + "s";
  const m = Math.floor(s / 60);
  if (m < 60) return m + "m";
  const h = Math.floor(m / 60);
  if (h < 24) return h + "h " + (m % 60) + "m";
  return Math.floor(h / 24) + "d";
}

function promptFields() {
  const box = document.getElementById("prompts");
  for (const [id, name] of agents) {
    const label = el("label", id + " " + name);
    const t = el("textarea");
    t.rows = 2;
    t.name = "prompt-" + id;
    label.append(t);
    box.append(label);
  }
}

// agentsPayload builds the {metaManager, units} shape POST /runs reads:
// the first window is the meta manager's, each of the others a unit,
// numbered from 1, whose first agent is its manager.
function agentsPayload(form) {
  const text = (id) => form.elements["prompt-" + id].value.trim();
  const prompt = (a) => ({ id: a.id, prompt: text(a.id) });
  const [meta, ...units] = team;
  const payload = { units: [] };
  if (text(meta.agents[0].id)) payload.metaManager = prompt(meta.agents[0]);
  units.forEach((w, i) => {
    const [manager, ...workers] = w.agents;
    const u = { unitId: i + 1, workers: [] };
    if (text(manager.id)) u.manager = prompt(manager);
    for (const a of workers) {
      if (text(a.id)) u.workers.push(prompt(a));
    }
    if (u.manager || u.workers.length) payload.units.push(u);
  });
  return payload;
}

document.getElementById("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const out = document.getElementById("created");
  try {
    showError(null);
    const body = { sessionMode: form.elements.mode.value, agents: agentsPayload(form) };
    if (hosts.length && form.elements.host.value !== "local") body.host = form.elements.host.value;
    const run = await api("POST", "/runs", body);
    if (run.host) {
      // Made on a host: the list shows it once the server has asked the
      // host again; the page cannot watch it.
      out.textContent = "Created " + run.sessionId + " (" + run.tmuxSession + ") on host " + run.host +
        ". Attach with: mas session attach " + run.sessionId.slice(0, run.host.length + 9);
      out.hidden = false;
      refresh();
      return;
    }
    // A legacy session's id is its tmux name, whole.
    const ref = run.sessionMode === "legacy" ? run.sessionId : run.sessionId.slice(0, 8);
    out.textContent = "Created " + run.sessionId + " (" + run.tmuxSession + "). Attach with: mas session attach " +
      ref + "   or: tmux attach -t " + run.tmuxSession;
    out.hidden = false;
    if (run.error) showError(run.error);
    select(run.sessionId, false);
  } catch (err) {
    showError(err);
  }
  refresh();
});

// sendMessage sends the text of box to target in the session watched,
// the one whose screens show, pressing Enter after it as "press Enter"
// says, and empties the box once it is sent. One to an agent that asks a
// person would answer its dialog: the server refuses it (409), and the
// page sends it again only if the user says so. The tiles of agents it
// was typed to without Enter say so until a message with Enter reaches
// them.
async function sendMessage(target, box) {
  const out = document.getElementById("sent");
  if (!selected) return;
  const execute = document.getElementById("message").elements.execute.checked;
  const msg = { session: selected, target, message: box.value, execute };
  try {
    showError(null);
    let res;
    try {
      res = await api("POST", "/message", msg);
    } catch (err) {
      // The server says when "force" would send it.
      const asking = err.status === 409 && err.message.includes('"force": true');
      if (!asking || !window.confirm(err.message + "\n\nSend it anyway, as the answer?")) throw err;
      res = await api("POST", "/message", { ...msg, force: true });
    }
    out.textContent = "Message sent to " + res.sent + "/" + res.total + " agents of " + res.session +
      (execute ? "" : " (typed, not submitted: Enter not pressed)");
    out.hidden = false;
    if (box.value === msg.message) box.value = "";
    markTyped(target, !execute);
  } catch (err) {
    out.hidden = true;
    showError(err);
  }
  refresh();
}

// markTyped shows or clears "typed, not submitted" on the tiles of the
// agents a target names by id (NN or agent-NN), or on all for "all"; for
// a unit or a group, the line under the message box says it.
function markTyped(target, typed) {
  const ids = target.split(",").map((t) => t.trim().replace(/^agent-/, ""));
  for (const t of document.querySelectorAll("#grid .tile")) {
    if (ids.includes("all") || ids.includes(t.dataset.agent)) t.querySelector(".typed").hidden = !typed;
  }
}

// sendOnCtrlEnter submits form on Ctrl+Enter (Cmd+Enter on a Mac) in
// box; Enter alone starts a new line.
function sendOnCtrlEnter(box, form) {
  box.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
}

const messageForm = document.getElementById("message");
sendOnCtrlEnter(messageForm.elements.text, messageForm);
messageForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  sendMessage(messageForm.elements.target.value, messageForm.elements.text);
});

const hide = document.getElementById("hide-stopped");
hide.checked = localStorage.getItem(hideKey) === "1";
hide.addEventListener("change", () => {
  if (hide.checked) localStorage.setItem(hideKey, "1");
  else localStorage.removeItem(hideKey);
  renderSessions();
});

promptFields();
renderNotify();
refresh();
