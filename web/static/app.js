// passetable dashboard: one live state (Server-Sent Events, polling as a fallback),
// drawn by the renderer of the game being played (the game folder's static/page.js, served at /games/<game>/page.js).
"use strict";

// Every handler given to PT.el runs through here: the patcher swaps `el.__on` for the newest
// handlers, so a kept button always does what it now shows. A button whose handler sends a
// request is busy (aria-disabled, a second tap ignored) until the answer is drawn: a double
// tap enters one card. Taps on the game's own buttons run one after the other, each once the
// previous one's answer is drawn, with the handler the button has by then (the right seat).
let entries = Promise.resolve();
function dispatch(ev) {
  const target = ev.currentTarget, type = ev.type;
  if (!target.__on || !target.__on[type]) return;
  if (target.dataset.busy) { ev.preventDefault(); return; }
  const isButton = target.tagName === "BUTTON";
  const run = () => {
    const handler = target.__on && target.__on[type];
    if (!handler || (isButton && (target.disabled || !target.isConnected) && target.dataset.busy === "queued")) return null;
    const result = handler.call(target, ev, target);
    return result && typeof result.then === "function"
      ? result.then((data) => PT.afterVersion(data && data.version), () => null) : null;
  };
  if (!isButton) { run(); return; }
  const release = () => { delete target.dataset.busy; target.removeAttribute("aria-disabled"); };
  target.dataset.busy = "queued";
  target.setAttribute("aria-disabled", "true");
  if (target.closest("#table-view, #alerts")) {
    entries = entries.then(run).catch(() => null).finally(release);
  } else {
    target.dataset.busy = "1";
    Promise.resolve(run()).catch(() => null).finally(release);
  }
}
const versionWaiters = [];

const PT = (window.PT = Object.assign(window.PT || {}, {
  lang: document.body.dataset.lang || "fr",
  renderers: {},
  state: null,
  strings: {
    fr: { game: "Jeu", new_game: "Nouvelle partie", feed: "Déroulement", health: "État des capteurs",
          no_game: "Aucune partie en cours : choisissez un jeu, réglez la partie et « Commencer ».",
          to_play: "À jouer", in_hand: "en main", winner: "Victoire", draw: "Égalité",
          alert: "Alerte", live: "En direct", polling: "Mise à jour toutes les 2 s",
          offline: "Connexion perdue, nouvel essai…", undo: "Annuler", error: "Erreur",
          red: "Rouge", blue: "Bleu", board: "Plateau", slide: "Coulisse", points: "points",
          open_page: "Page de la table", enrol_cards: "Apprendre les cartes", rematch: "Revanche",
          tv: "Écran TV", history: "Parties passées" },
    en: { game: "Game", new_game: "New game", feed: "What happened", health: "Sensor health",
          no_game: "No game running: pick a game, set it up and press “Start”.",
          to_play: "To play", in_hand: "in hand", winner: "Winner", draw: "Draw",
          alert: "Alert", live: "Live", polling: "Updating every 2 s",
          offline: "Connection lost, retrying…", undo: "Undo", error: "Error",
          red: "Red", blue: "Blue", board: "Board", slide: "Slide", points: "points",
          open_page: "Table page", enrol_cards: "Teach the cards", rematch: "Rematch",
          tv: "TV screen", history: "Past games" },
  },
  dispatch,
  // resolves once the page has drawn a state at least this recent (or after 5 s)
  afterVersion(version) {
    if (!version || (PT.state && PT.state.version >= version)) return Promise.resolve();
    return new Promise((resolve) => {
      versionWaiters.push([version, resolve]);
      setTimeout(resolve, 5000);
    });
  },
  // "1 point", "2 points"; French keeps 0 and 1 singular ("0 carte"), English only 1.
  plural(n, fr, en) {
    const [one, many] = PT.lang === "fr" ? fr : en;
    return `${n} ${(PT.lang === "fr" ? Math.abs(n) < 2 : Math.abs(n) === 1) ? one : many}`;
  },
  t(key) { return (this.strings[this.lang] || {})[key] || this.strings.en[key] || key; },
  tx(text) { return text ? (text[this.lang] || text.en || "") : ""; },
  el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) {
        if (!e.__on) e.__on = {};
        if (!e.__on[k.slice(2)]) e.addEventListener(k.slice(2), dispatch);
        e.__on[k.slice(2)] = v;
      } else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  },
  async post(url, body, retried = false) {
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                 body: JSON.stringify(body || {}), credentials: "same-origin" });
    const data = await r.json().catch(() => ({}));
    const code = data.error && data.error.code;
    // the table's PIN (login.js), asked the first time someone changes something from this device
    if (r.status === 401 && code === "pin_needed" && !retried && await PT.askPin()) {
      return PT.post(url, body, true);  // logged in: the same tap goes through once
    }
    if (!r.ok) { PT.flash(PT.tx(data.error) || r.statusText); throw new Error(PT.tx(data.error)); }
    return data;
  },
  flash(message) {
    const box = document.getElementById("status");
    const p = PT.el("p", { class: "alert-box", role: "alert" }, message);
    box.prepend(p); setTimeout(() => p.remove(), 6000);
  },
}));

function render(state) {
  PT.state = state;
  document.body.dataset.version = state.version;
  // when each state was drawn (read by `passetable bench` for the sensor-to-page latency)
  (window.__renders = window.__renders || []).push([state.version, Date.now()]);
  if (window.__renders.length > 2000) window.__renders.splice(0, 1000);
  for (let i = versionWaiters.length - 1; i >= 0; i--) {
    if (versionWaiters[i][0] <= state.version) versionWaiters.splice(i, 1)[0][1]();
  }
  PT.drawn = (PT.drawn || 0) + 1;
  if (PT.onState) PT.onState(state);  // another page (the TV) draws the state its own way
  else renderDashboard(state);
}

PT.gameName = (id) => (id && PT.games[id] ? PT.tx(PT.games[id].names) : id || "");

function renderDashboard(state) {
  document.getElementById("game-name").textContent = state.game ? "— " + PT.gameName(state.game) : "";
  const select = document.getElementById("game-select");
  if (state.game && !select.dataset.touched && select.value !== state.game) {
    select.value = state.game;  // "New game" offers the game being played, until someone picks another
    select.dispatchEvent(new Event("change"));
  }
  if (state.game && !renderDashboard.folded) {  // a game is on: the form for the next one starts folded
    renderDashboard.folded = true;
    document.getElementById("setup").open = false;
  }
  document.getElementById("rematch").hidden = !state.game;
  PT.redraw();
  renderAlerts(state.alerts || []);
  renderFeed(document.getElementById("feed"), state.feed || []);
  renderHealth(state.health || {});
}

// Draw the game (again) into a fresh tree, then patch the live one: only what changed moves.
PT.redraw = function redraw() {
  const state = PT.state, view = document.getElementById("table-view");
  if (!state || !view) return;
  const fresh = document.createElement("section");
  if (!state.game) fresh.append(PT.el("p", {}, PT.t("no_game")));
  else if (PT.renderers[state.game]) PT.renderers[state.game](state, fresh);
  if (PT.viewFilter) PT.viewFilter(fresh);  // the TV turns the scorekeeper's buttons into plain boxes
  PT.patch(view, fresh);
};

// Oldest first, each line keyed by its entry, the time on the left: lines never renumber.
function renderFeed(list, feed) {
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  const seen = {};
  const fresh = PT.el("ol", {}, ...feed.map((f) => {
    const key = `${f.seq}-${f.t}`;
    seen[key] = (seen[key] || 0) + 1;
    const when = new Date(f.t * 1000);
    const hhmm = `${String(when.getHours()).padStart(2, "0")}:${String(when.getMinutes()).padStart(2, "0")}`;
    return PT.el("li", { class: f.kind || "", "data-key": `${key}-${seen[key]}` },
                 PT.el("time", {}, hhmm), " ", f.kind === "alert" ? "⚠ " : "", PT.tx(f.text));
  }));
  PT.patch(list, fresh);
  if (atEnd) list.scrollTop = list.scrollHeight;
}
PT.renderFeed = renderFeed;

function renderAlerts(alerts) {
  const box = document.getElementById("alerts");
  const fresh = PT.el("div", {}, ...alerts.map((a) => {
    const buttons = (a.choices || []).map((c) => {
      // a choice may ask for details (which column, which peg): one select per field
      const selects = (c.fields || []).map((f) => PT.el("select", { "data-field": f.name, "aria-label": PT.tx(f.label) },
        ...f.options.map((o) => PT.el("option", { value: JSON.stringify(o.value) }, PT.tx(o.label)))));
      const button = PT.el("button", {
        class: "resolve", "data-alert": a.id, "data-choice": c.id,
        onclick: (ev, button) => {
          const details = {};
          // the live selects (kept by the patcher), not the ones this handler was drawn with
          const holder = button.closest(".choice-with-fields");
          (holder ? [...holder.querySelectorAll("select[data-field]")] : []).forEach((sel) => {
            details[sel.dataset.field] = JSON.parse(sel.value);
          });
          return PT.post(`/api/alerts/${encodeURIComponent(a.id)}/resolve`, { choice: c.id, details }).catch(() => null);
        },
      }, PT.tx(c.label));
      return selects.length ? PT.el("span", { class: "choice-with-fields", "data-key": c.id }, ...selects, button) : button;
    });
    return PT.el("div", { class: "alert-box", role: "alert", "data-alert": a.id },
                 PT.el("strong", {}, PT.t("alert") + (PT.lang === "fr" ? " : " : ": ")), PT.tx(a.message),
                 PT.el("div", { class: "alert-choices" }, ...buttons));
  }));
  PT.patch(box, fresh);
}

// The health panel: one small table per part (serial link, beams...), every warning on top
// and in the summary line, which turns red when the sensor board's link is down or the log
// cannot be written. Figures are named in the page's language (the raw key stays, small).
const HEALTH_LABELS = {
  fr: { serial: "Liaison série", gpio: "GPIO", beams: "Faisceaux", side_beams: "Faisceaux latéraux", log: "Journal",
        top_holes: "Trous du haut", camera: "Caméra", link_lost: "Liaison capteurs perdue", ok: "Capteurs OK",
        log_bad: "Journal impossible à écrire", warnings: (n) => `${n} avertissement${n > 1 ? "s" : ""}` },
  en: { serial: "Serial link", gpio: "GPIO", beams: "Beams", side_beams: "Side beams", log: "Log",
        top_holes: "Top holes", camera: "Camera", link_lost: "Sensor link lost", ok: "Sensors OK",
        log_bad: "Log cannot be written", warnings: (n) => `${n} warning${n > 1 ? "s" : ""}` },
};
const FIGURES = {
  alive: ["Liaison vivante", "Link alive"], connected: ["Connectée", "Connected"], port: ["Port", "Port"],
  firmware: ["Micrologiciel", "Firmware"], in_sync: ["Synchronisée", "In sync"], bytes: ["Octets reçus", "Bytes received"],
  frames: ["Trames", "Frames"], crc_errors: ["Erreurs de somme de contrôle", "Checksum errors"],
  too_long: ["Lignes trop longues", "Lines too long"], malformed: ["Trames mal formées", "Malformed frames"],
  noise_bytes: ["Octets parasites", "Noise bytes"], connects: ["Connexions", "Connections"],
  reconnects: ["Reconnexions", "Reconnections"], board_resets: ["Redémarrages de la carte", "Board resets"],
  gaps: ["Trous dans la numérotation", "Sequence gaps"], missed_frames: ["Trames manquées", "Missed frames"],
  naks: ["Refus (NAK)", "NAKs"], resyncs: ["Resynchronisations", "Resyncs"], stale: ["Données périmées", "Stale"],
  corrections: ["Corrections", "Corrections"], bad_content: ["Contenu invalide", "Bad content"],
  unknown_types: ["Types inconnus", "Unknown types"], drops: ["Chutes", "Drops"],
  recovered_drops: ["Chutes rattrapées", "Recovered drops"], stale_drops: ["Chutes périmées", "Stale drops"],
  refused: ["Refusées", "Refused"], ok: ["En bon état", "OK"], writable: ["Inscriptible", "Writable"],
  confirmed: ["Confirmés", "Confirmed"], missing: ["Manqués", "Missing"], unexpected: ["Inattendus", "Unexpected"],
  wrong_column: ["Mauvaise colonne", "Wrong column"], late: ["En retard", "Late"], waiting: ["En attente", "Waiting"],
  expected: ["Attendus", "Expected"], seen: ["Vus", "Seen"], recovered: ["Rattrapées", "Recovered"],
  extra_alerts: ["Alertes en trop", "Extra alerts"], late_alerts: ["Alertes tardives", "Late alerts"],
  camera_seen: ["Vus par la caméra", "Seen by the camera"], camera_confirmed: ["Confirmés par la caméra", "Confirmed by the camera"],
  camera_only: ["Vus par la caméra seule", "Camera only"], wrong_colour: ["Mauvaise couleur", "Wrong colour"],
  missed_by_beam: ["Manqués par le faisceau", "Missed by the beam"], entries: ["Saisies", "Entries"],
  ignored: ["Ignorées", "Ignored"], phase: ["Phase", "Phase"], running: ["En marche", "Running"],
  lit: ["Allumées", "Lit"], buzzes: ["Bips", "Buzzes"], error: ["Erreur", "Error"],
  calibrated: ["Étalonnée", "Calibrated"], observations: ["Observations", "Observations"],
  reopens: ["Réouvertures", "Reopens"], reading_faults: ["Images non lues (erreur de lecture)", "Frames the reading failed on"],
};
const figure = (key) => (FIGURES[key] ? FIGURES[key][PT.lang === "fr" ? 0 : 1] : key.replace(/_/g, " "));
const yesNo = (v) => (v === true ? (PT.lang === "fr" ? "oui" : "yes") : v === false ? (PT.lang === "fr" ? "non" : "no") : v);

function healthWarnings(h) {  // every warning a part reports, in the page's language
  const out = [];
  for (const w of h.beam_warnings || []) out.push(PT.tx(w));
  for (const [name, part] of Object.entries(h)) {
    if (!part || typeof part !== "object" || Array.isArray(part)) continue;
    for (const w of part.warnings || []) out.push(PT.tx(w));
    if (part.error && typeof part.error === "object") out.push(PT.tx(part.error));
    else if (typeof part.error === "string") out.push(`${(HEALTH_LABELS[PT.lang] || HEALTH_LABELS.en)[name] || name}: ${part.error}`);
    if (part.refused && typeof part.refused === "object") out.push(PT.tx(part.refused));
  }
  return out;
}

function renderHealth(h) {
  const labels = HEALTH_LABELS[PT.lang] || HEALTH_LABELS.en;
  const box = document.getElementById("health");
  const warnings = healthWarnings(h);
  const parts = warnings.map((w, i) => PT.el("p", { class: "alert-box", "data-key": `warning-${i}` }, w));
  for (const [name, value] of Object.entries(h)) {
    if (name === "beam_warnings" || !value || typeof value !== "object" || Array.isArray(value)) continue;
    const rows = Object.entries(value).filter(([k, v]) => k !== "warnings" && (v === null || typeof v !== "object"))
      .map(([k, v]) => PT.el("tr", { "data-key": k }, PT.el("th", {}, figure(k), " ", PT.el("code", { class: "key" }, k)),
                             PT.el("td", {}, v === null ? "—" : String(yesNo(v)))));
    if (rows.length) {
      parts.push(PT.el("h3", { "data-key": `h-${name}` }, labels[name] || name),
                 PT.el("table", { class: "health", "data-key": `t-${name}` }, ...rows));
    }
  }
  PT.patch(box, PT.el("div", {}, ...parts));
  const summary = document.querySelector("#health-panel summary");
  const lost = h.serial && h.serial.alive === false;
  const logBad = h.log && h.log.ok === false;
  const words = [lost ? labels.link_lost : null, logBad ? labels.log_bad : null,
                 warnings.length ? labels.warnings(warnings.length) : null].filter(Boolean);
  summary.textContent = `${PT.t("health")} — ${words.length ? words.join(" · ") : labels.ok}`;
  summary.classList.toggle("bad", Boolean(lost || logBad));
  summary.classList.toggle("warn", Boolean(!lost && !logBad && warnings.length));
  summary.dataset.state = lost ? "lost" : logBad ? "log" : warnings.length ? "warn" : "ok";
}

let pollTimer = null;
function poll() {
  fetch("/api/state").then((r) => r.json()).then(render).catch(() => {});
}
function connect() {
  const link = document.getElementById("link");
  const es = new EventSource("/api/stream");
  es.onmessage = (ev) => { link.textContent = PT.t("live"); render(JSON.parse(ev.data)); };
  es.onerror = () => {
    link.textContent = PT.t("offline");
    if (es.readyState === EventSource.CLOSED) {  // refused (too many pages): poll instead
      link.textContent = PT.t("polling");
      if (!pollTimer) pollTimer = setInterval(poll, 2000);
      setTimeout(() => { clearInterval(pollTimer); pollTimer = null; connect(); }, 60000);
    }
  };
}

// ------------------------------------------------------------------ setup form
// Built from the game's option schema (GET /api/games): bounds, labels in both languages.
// It lives outside #table-view, so live updates never wipe what is being typed.
PT.games = {};
const SETUP_WORDS = { fr: { setup: "Réglages de la nouvelle partie", seat: "Place", same: "Deux joueurs ont le même nom.",
                            start: "Commencer" },
                      en: { setup: "New game setup", seat: "Seat", same: "Two players have the same name.",
                            start: "Start" } };
const sw = (k) => (SETUP_WORDS[PT.lang] || SETUP_WORDS.en)[k];
const optionLabel = (p, name) => (PT.lang === "fr" ? p.fr || p.title || name : p.title || name);

function renderSetup(gameId) {
  const box = document.getElementById("setup");
  const spec = PT.games[gameId];
  if (!spec || (PT.newGameOptions && PT.newGameOptions[gameId])) { box.hidden = true; box.replaceChildren(); return; }
  if (box.dataset.game === gameId && box.childElementCount) { box.hidden = false; return; }  // keep what is typed
  box.dataset.game = gameId;
  box.hidden = false;
  const fields = [];
  for (const [name, p] of Object.entries(spec.options.properties || {})) {
    if (p.hidden) continue;
    const id = `setup-${name}`, label = optionLabel(p, name);
    if (p.per_seat) { fields.push(PT.el("div", { class: "setup-seats", "data-option-list": name, "aria-label": label })); continue; }
    let input;
    if (p.seat) input = PT.el("select", { id, "data-option": name, "data-kind": "integer", "data-seat-choice": "1" });
    else if (p.type === "boolean") input = PT.el("input", { id, type: "checkbox", "data-option": name, "data-kind": "boolean" });
    else if (p.type === "integer" && p.minimum !== undefined && p.maximum !== undefined) {
      input = PT.el("select", { id, "data-option": name, "data-kind": "integer" });
      for (let v = p.minimum; v <= p.maximum; v++) input.append(PT.el("option", { value: v }, v));
    } else if (p.enum) {
      input = PT.el("select", { id, "data-option": name, "data-kind": "string" },
        ...p.enum.map((v) => PT.el("option", { value: v }, PT.tx((p.labels || {})[v]) || v)));
    } else continue;  // a kind of option the form does not draw: the game's default applies
    if (p.default !== undefined && p.default !== null) {
      if (input.type === "checkbox") input.checked = Boolean(p.default); else input.value = String(p.default);
    }
    fields.push(PT.el("label", { for: id }, label + " ", input));
  }
  const start = PT.el("p", { class: "setup-actions" },
    PT.el("button", { id: "setup-start", type: "button", class: "primary", onclick: startFromSetup },
          `${sw("start")} — ${PT.tx(spec.names)}`));
  box.replaceChildren(PT.el("summary", {}, `${sw("setup")} — ${PT.tx(spec.names)}`),
                      PT.el("div", { class: "setup-fields" }, ...fields), start);
  box.addEventListener("change", refreshSeats);
  box.addEventListener("input", (e) => { if (e.target.dataset.seat !== undefined) refreshSeats(); });
  refreshSeats();
}

function refreshSeats() {  // one name per seat, and seat choices named after them
  const box = document.getElementById("setup");
  const players = box.querySelector("[data-option=players]");
  const spec = PT.games[box.dataset.game];
  const n = players ? Number(players.value) : (spec ? spec.players[1] : 0);
  for (const list of box.querySelectorAll("[data-option-list]")) {
    const old = [...list.querySelectorAll("input")].map((i) => i.value);
    if (old.length !== n) {
      list.replaceChildren(...Array.from({ length: n }, (_, i) => PT.el("label", { for: `setup-${list.dataset.optionList}-${i}` },
        `${sw("seat")} ${i + 1} `, PT.el("input", { id: `setup-${list.dataset.optionList}-${i}`, type: "text", maxlength: "24",
                                                       "data-seat": i, value: old[i] || "" }))));
    }
  }
  const names = [...box.querySelectorAll("[data-option-list] input")].map((i) => i.value.trim());
  for (const select of box.querySelectorAll("[data-seat-choice]")) {
    const keep = select.value;
    select.replaceChildren(...Array.from({ length: n }, (_, i) => PT.el("option", { value: i }, names[i] || `${sw("seat")} ${i + 1}`)));
    select.value = keep && Number(keep) < n ? keep : "0";
  }
}

function setupOptions() {  // what the form says, or null when it cannot be sent as it is
  const box = document.getElementById("setup");
  const options = {};
  for (const input of box.querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    options[input.dataset.option] = kind === "boolean" ? input.checked : kind === "integer" ? Number(input.value) : input.value;
  }
  for (const list of box.querySelectorAll("[data-option-list]")) {
    const names = [...list.querySelectorAll("input")].map((i) => i.value.trim());
    const given = names.filter((x) => x).map((x) => x.toLowerCase());
    if (new Set(given).size !== given.length) { PT.flash(sw("same")); return null; }
    options[list.dataset.optionList] = names;
  }
  return options;
}

// ------------------------------------------------------------------ new game, safely
// "New game" (and a game's "replay the round") ask first, then wait 10 s with a countdown
// and a Cancel button before the request is sent: a wrong tap costs nothing.
const GRACE_S = 10;
const GRACE_WORDS = {
  fr: { ask: "Commencer une nouvelle partie ? La partie en cours sera terminée.", yes: "Oui, nouvelle partie",
        no: "Non", pending: (n) => `Nouvelle partie dans ${n} s…`, cancel: "Annuler", rematch: "Revanche",
        rematch_ask: "Revanche avec les mêmes joueurs et les mêmes réglages ?", cancelled: "Rien n'a changé." },
  en: { ask: "Start a new game? The game being played will end.", yes: "Yes, new game", no: "No",
        pending: (n) => `New game in ${n} s…`, cancel: "Cancel", rematch: "Rematch",
        rematch_ask: "Rematch with the same players and the same options?", cancelled: "Nothing changed." },
};
const gw = (k) => (GRACE_WORDS[PT.lang] || GRACE_WORDS.en)[k];

// Ask `question`; on yes, run `action` after a visible 10 s countdown unless cancelled.
PT.confirmThen = function confirmThen(question, yesLabel, pendingWords, action) {
  return new Promise((resolve) => {
    const dialog = PT.el("dialog", { id: "confirm-dialog", "aria-labelledby": "confirm-question" },
      PT.el("p", { id: "confirm-question" }, question),
      PT.el("p", { class: "dialog-buttons" },
        PT.el("button", { id: "confirm-no", type: "button", onclick: () => { dialog.close(); } }, gw("no")),
        PT.el("button", { id: "confirm-yes", type: "button", class: "danger", onclick: () => { dialog.returnValue = "yes"; dialog.close(); } }, yesLabel)));
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (dialog.returnValue !== "yes") { resolve(false); return; }
      PT.grace(pendingWords, action).then(resolve);
    });
    document.body.append(dialog);
    dialog.showModal();
    document.getElementById("confirm-no").focus();
  });
};

PT.grace = function grace(pendingWords, action) {
  return new Promise((resolve) => {
    document.getElementById("grace")?.remove();
    let left = GRACE_S;
    const text = PT.el("span", { id: "grace-text" }, pendingWords(left));
    const bar = PT.el("div", { id: "grace", class: "grace", role: "status" }, text, " ",
      PT.el("button", { id: "grace-cancel", type: "button", onclick: () => {
        clearInterval(timer); bar.remove(); PT.flash(gw("cancelled")); resolve(false);
      } }, gw("cancel")));
    (document.querySelector("main") || document.body).append(bar);
    const timer = setInterval(() => {
      left -= 1;
      text.textContent = pendingWords(left);
      if (left > 0) return;
      clearInterval(timer);
      bar.remove();
      Promise.resolve(action()).then(() => resolve(true), () => resolve(false));
    }, 1000);
  });
};

function startNewGame(game, options) {
  return PT.post("/api/games", { game, options }).then(() => {
    document.getElementById("setup").open = false;
  }).catch(() => null);
}

if (document.getElementById("table-view")) {
  document.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = PT.t(e.dataset.i18n); });
  const gameSelect = document.getElementById("game-select");
  gameSelect.addEventListener("input", (e) => {  // a person picks a game: show its setup
    e.target.dataset.touched = "1";
    document.getElementById("setup").open = true;
  });
  gameSelect.addEventListener("change", () => renderSetup(gameSelect.value));
  // "New game" opens the setup form; its own Start button starts the game (asking first
  // when a game is being played).
  document.getElementById("new-game").addEventListener("click", () => {
    const setup = document.getElementById("setup");
    setup.open = true;
    setup.scrollIntoView({ block: "nearest" });
    document.getElementById("setup-start")?.focus();
  });
  document.getElementById("rematch").addEventListener("click", async () => {
    const current = await fetch("/api/game").then((r) => r.json()).catch(() => null);
    if (!current || !current.game) return;
    PT.confirmThen(gw("rematch_ask"), gw("rematch"), gw("pending"), () => startNewGame(current.game, current.options));
  });
  window.addEventListener("load", () => {
    fetch("/api/games").then((r) => r.json()).then((data) => {
      for (const g of data.games || []) PT.games[g.id] = g;
      renderSetup(gameSelect.value);
      if (PT.state) render(PT.state);
    }).catch(() => {});
    poll(); connect();
  });
}

// The setup form's Start button: straight away when no game is on, else ask and wait 10 s.
function startFromSetup() {
  const game = document.getElementById("game-select").value;
  const options = PT.newGameOptions && PT.newGameOptions[game] ? PT.newGameOptions[game]() : setupOptions();
  if (options === null) return null;  // the setup form is not finished
  if (!PT.state || !PT.state.game || (PT.state.view && PT.state.view.over)) return startNewGame(game, options);
  PT.confirmThen(gw("ask"), gw("yes"), gw("pending"), () => startNewGame(game, options));
  return null;
}
