// The mas web page: it talks only to the HTTP API of mas serve, and puts
// every text it shows into the page with textContent, never as HTML.
"use strict";

const agents = [
  ["00", "Meta Manager"], ["10", "Design Manager"], ["11", "UI Designer"], ["12", "UX Designer"],
  ["13", "Visual Designer"], ["20", "Development Manager"], ["21", "Frontend Developer"],
  ["22", "Backend Developer"], ["23", "DevOps"], ["30", "Business Manager"], ["31", "Accounting"],
  ["32", "Strategy"], ["33", "Analytics"],
];
let selected = "";

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function showError(err) {
  const p = document.getElementById("error");
  p.textContent = err ? String(err.message || err) : "";
  p.hidden = !err;
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

async function refresh() {
  try {
    await api("GET", "/health");
    document.getElementById("health").textContent = "API ok";
    const data = await api("GET", "/sessions");
    renderSessions(data.sessions || []);
    await refreshAgents();
  } catch (err) {
    // With MAS_API_TOKEN set, the page gets in through the login URL
    // that mas serve prints; say so rather than "unreachable".
    document.getElementById("health").textContent = err.status === 401 ? "Login required" : "API unreachable";
    showError(err.status === 401 ? "Login required (401): this server has MAS_API_TOKEN set. Open the login URL " +
      "that mas serve printed on stderr (for the server that start launched: .mas_http.log in the mas root)." : err);
  }
}

function renderSessions(sessions) {
  const body = document.querySelector("#sessions tbody");
  body.replaceChildren();
  document.getElementById("no-sessions").hidden = sessions.length > 0;
  const pick = document.getElementById("message-session");
  const current = pick.value;
  pick.replaceChildren();
  for (const s of sessions) {
    const tr = el("tr");
    tr.dataset.id = s.sessionId;
    if (s.sessionId === selected) tr.className = "selected";
    tr.append(el("td", s.sessionId), el("td", s.tmuxSession), el("td", s.mode),
      el("td", s.status, "status-" + s.status), el("td", s.createdAt), el("td", s.workingDir));
    const actions = el("td");
    const show = el("button", "Agents");
    show.type = "button";
    show.onclick = () => { selected = s.sessionId; refresh(); };
    actions.append(show);
    if (s.status === "active") {
      const stop = el("button", "Stop", "stop");
      stop.type = "button";
      stop.onclick = () => stopSession(s);
      actions.append(stop);
      const opt = el("option", s.tmuxSession);
      opt.value = s.sessionId;
      pick.append(opt);
    }
    tr.append(actions);
    body.append(tr);
  }
  if (current) pick.value = current;
}

async function refreshAgents() {
  const body = document.querySelector("#agents tbody");
  const label = document.getElementById("agents-session");
  if (!selected) { body.replaceChildren(); label.textContent = ""; return; }
  const st = await api("GET", "/status?session=" + encodeURIComponent(selected));
  label.textContent = "of " + (st.session || selected) + " (" + st.status + ")";
  body.replaceChildren();
  for (const a of st.agents || []) {
    const tr = el("tr");
    tr.dataset.agent = a.id;
    tr.append(el("td", a.id), el("td", a.name), el("td", a.window), el("td", a.status, "status-" + a.status));
    body.append(tr);
  }
}

async function stopSession(s) {
  if (!window.confirm("Stop session " + s.tmuxSession + "? Its agents end; its files stay.")) return;
  try {
    showError(null);
    await api("POST", "/sessions/" + encodeURIComponent(s.sessionId) + "/stop");
  } catch (err) {
    showError(err);
  }
  refresh();
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

// agentsPayload builds the {metaManager, units} shape POST /runs reads.
function agentsPayload(form) {
  const text = (id) => form.elements["prompt-" + id].value.trim();
  const payload = { units: [] };
  if (text("00")) payload.metaManager = { id: "00", prompt: text("00") };
  for (const unit of ["1", "2", "3"]) {
    const u = { unitId: Number(unit), workers: [] };
    if (text(unit + "0")) u.manager = { id: unit + "0", prompt: text(unit + "0") };
    for (const w of ["1", "2", "3"]) {
      if (text(unit + w)) u.workers.push({ id: unit + w, prompt: text(unit + w) });
    }
    if (u.manager || u.workers.length) payload.units.push(u);
  }
  return payload;
}

document.getElementById("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const out = document.getElementById("created");
  try {
    showError(null);
    const run = await api("POST", "/runs", { sessionMode: form.elements.mode.value, agents: agentsPayload(form) });
    selected = run.sessionId;
    out.textContent = "Created " + run.sessionId + " (" + run.tmuxSession + "). Attach with: mas session attach " +
      run.sessionId.slice(0, 8) + "   or: tmux attach -t " + run.tmuxSession;
    out.hidden = false;
    if (run.error) showError(run.error);
  } catch (err) {
    showError(err);
  }
  refresh();
});

document.getElementById("message").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const out = document.getElementById("sent");
  try {
    showError(null);
    const res = await api("POST", "/message", {
      session: form.elements.session.value || undefined,
      target: form.elements.target.value,
      message: form.elements.text.value,
      execute: form.elements.execute.checked,
    });
    out.textContent = "Message sent to " + res.sent + "/" + res.total + " agents of " + res.session;
    out.hidden = false;
  } catch (err) {
    out.hidden = true;
    showError(err);
  }
});

promptFields();
refresh();
setInterval(refresh, 2000);
