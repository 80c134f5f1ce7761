// passetable dashboard: one live state (Server-Sent Events, polling as a fallback),
// drawn by the renderer of the game being played (the game folder's static/page.js, served at /games/<game>/page.js).
"use strict";
const PT = (window.PT = {
  lang: document.body.dataset.lang || "fr",
  renderers: {},
  state: null,
  strings: {
    fr: { game: "Jeu", new_game: "Nouvelle partie", feed: "Déroulement", health: "État des capteurs",
          no_game: "Aucune partie en cours : choisissez un jeu et « Nouvelle partie ».",
          to_play: "À jouer", in_hand: "en main", winner: "Victoire", draw: "Égalité",
          alert: "Alerte", live: "En direct", polling: "Mise à jour toutes les 2 s",
          offline: "Connexion perdue, nouvel essai…", undo: "Annuler", error: "Erreur",
          red: "Rouge", blue: "Bleu", board: "Plateau", slide: "Coulisse", points: "points",
          open_page: "Page de la table", enrol_cards: "Apprendre les cartes" },
    en: { game: "Game", new_game: "New game", feed: "What happened", health: "Sensor health",
          no_game: "No game running: pick a game and press “New game”.",
          to_play: "To play", in_hand: "in hand", winner: "Winner", draw: "Draw",
          alert: "Alert", live: "Live", polling: "Updating every 2 s",
          offline: "Connection lost, retrying…", undo: "Undo", error: "Error",
          red: "Red", blue: "Blue", board: "Board", slide: "Slide", points: "points",
          open_page: "Table page", enrol_cards: "Teach the cards" },
  },
  t(key) { return (this.strings[this.lang] || {})[key] || this.strings.en[key] || key; },
  tx(text) { return text ? (text[this.lang] || text.en || "") : ""; },
  el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  },
  async post(url, body, retried = false) {
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                 body: JSON.stringify(body || {}), credentials: "same-origin" });
    const data = await r.json().catch(() => ({}));
    const code = data.error && data.error.code;
    if (r.status === 401 && code === "pin_needed" && !retried && await PT.askPin()) {
      return PT.post(url, body, true);  // logged in: the same tap goes through once
    }
    if (!r.ok) { PT.flash(PT.tx(data.error) || r.statusText); throw new Error(PT.tx(data.error)); }
    return data;
  },
  // The table's PIN, asked the first time someone changes something from this device.
  askPin() {
    const words = PT.lang === "fr"
      ? { title: "Code de la table", hint: "Il s'affiche sur l'écran de la table.", ok: "Valider", cancel: "Annuler" }
      : { title: "Table PIN", hint: "It is shown on the table's own screen.", ok: "OK", cancel: "Cancel" };
    return new Promise((resolve) => {
      const input = PT.el("input", { id: "pin-input", type: "password", inputmode: "numeric", autocomplete: "off",
                                     maxlength: "12", "aria-label": words.title });
      const error = PT.el("p", { class: "pin-error", role: "alert" });
      const dialog = PT.el("dialog", { id: "pin-dialog", "aria-labelledby": "pin-title" },
        PT.el("form", { method: "dialog" }, PT.el("h2", { id: "pin-title" }, words.title), PT.el("p", {}, words.hint),
              input, error,
              PT.el("p", {}, PT.el("button", { value: "cancel", type: "button", id: "pin-cancel",
                                               onclick: () => { dialog.close(); resolve(false); } }, words.cancel),
                    " ", PT.el("button", { value: "ok", id: "pin-ok" }, words.ok))));
      dialog.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const r = await fetch("/api/login", { method: "POST", headers: { "Content-Type": "application/json" },
                                              body: JSON.stringify({ pin: input.value }), credentials: "same-origin" });
        if (r.ok) { dialog.close(); dialog.remove(); resolve(true); return; }
        const data = await r.json().catch(() => ({}));
        error.textContent = PT.tx(data.error) || r.statusText;
        input.value = "";
        input.focus();
      });
      dialog.addEventListener("cancel", () => resolve(false));
      document.body.append(dialog);
      dialog.showModal();
      input.focus();
    });
  },
  flash(message) {
    const box = document.getElementById("status");
    const p = PT.el("p", { class: "alert-box", role: "alert" }, message);
    box.prepend(p); setTimeout(() => p.remove(), 6000);
  },
});

function render(state) {
  PT.state = state;
  document.body.dataset.version = state.version;
  // when each state was drawn (read by `passetable bench` for the sensor-to-page latency)
  (window.__renders = window.__renders || []).push([state.version, Date.now()]);
  if (window.__renders.length > 2000) window.__renders.splice(0, 1000);
  const names = state.game && PT.games[state.game] ? PT.games[state.game].names : null;
  document.getElementById("game-name").textContent = state.game ? "— " + (names ? PT.tx(names) : state.game) : "";
  const select = document.getElementById("game-select");
  if (state.game && !select.dataset.touched && select.value !== state.game) {
    select.value = state.game;  // "New game" offers the game being played, until someone picks another
    select.dispatchEvent(new Event("change"));
  }
  if (state.game && !render.folded) {  // a game is on: the form for the next one starts folded
    render.folded = true;
    document.getElementById("setup").open = false;
  }
  const view = document.getElementById("table-view");
  if (!state.game) { view.replaceChildren(PT.el("p", {}, PT.t("no_game"))); }
  else if (PT.renderers[state.game]) { PT.renderers[state.game](state, view); }
  renderAlerts(state.alerts || []);
  const feed = document.getElementById("feed");
  feed.replaceChildren(...(state.feed || []).slice().reverse().map(
    (f) => PT.el("li", { class: f.kind || "" }, PT.tx(f.text))));
  renderHealth(state.health || {});
}

function renderAlerts(alerts) {
  const box = document.getElementById("alerts");
  box.replaceChildren(...alerts.map((a) => {
    const buttons = (a.choices || []).map((c) => {
      // a choice may ask for details (which column, which peg): one select per field
      const selects = (c.fields || []).map((f) => PT.el("select", { "data-field": f.name, "aria-label": PT.tx(f.label) },
        ...f.options.map((o) => PT.el("option", { value: JSON.stringify(o.value) }, PT.tx(o.label)))));
      const button = PT.el("button", {
        class: "resolve", "data-alert": a.id, "data-choice": c.id,
        onclick: () => {
          const details = {};
          selects.forEach((sel) => { details[sel.dataset.field] = JSON.parse(sel.value); });
          PT.post(`/api/alerts/${encodeURIComponent(a.id)}/resolve`, { choice: c.id, details });
        },
      }, PT.tx(c.label));
      return selects.length ? PT.el("span", { class: "choice-with-fields" }, ...selects, button) : button;
    });
    return PT.el("div", { class: "alert-box", role: "alert", "data-alert": a.id },
                 PT.el("strong", {}, PT.t("alert") + " : "), PT.tx(a.message), PT.el("div", {}, ...buttons));
  }));
}

// The health panel: one small table per part (serial link, beams...), warnings on top,
// and the summary line turns red when the sensor board's link is down.
const HEALTH_LABELS = {
  fr: { serial: "Liaison série", gpio: "GPIO", beams: "Faisceaux", side_beams: "Faisceaux latéraux",
        link_lost: "Liaison capteurs perdue", ok: "Capteurs OK" },
  en: { serial: "Serial link", gpio: "GPIO", beams: "Beams", side_beams: "Side beams",
        link_lost: "Sensor link lost", ok: "Sensors OK" },
};
function renderHealth(h) {
  const labels = HEALTH_LABELS[PT.lang] || HEALTH_LABELS.en;
  const box = document.getElementById("health");
  const parts = [];
  for (const w of h.beam_warnings || []) parts.push(PT.el("p", { class: "alert-box" }, PT.tx(w)));
  for (const [name, value] of Object.entries(h)) {
    if (name === "beam_warnings" || !value || typeof value !== "object") continue;
    const rows = Object.entries(value).filter(([, v]) => v === null || typeof v !== "object")
      .map(([k, v]) => PT.el("tr", {}, PT.el("th", {}, k), PT.el("td", {}, v === null ? "—" : String(v))));
    if (rows.length) parts.push(PT.el("h3", {}, labels[name] || name), PT.el("table", { class: "health" }, ...rows));
  }
  box.replaceChildren(...parts);
  const summary = document.querySelector("#health-panel summary");
  const lost = h.serial && h.serial.alive === false;
  summary.textContent = `${PT.t("health")} — ${lost ? labels.link_lost : labels.ok}`;
  summary.classList.toggle("bad", Boolean(lost));
  summary.dataset.state = lost ? "lost" : "ok";
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
const SETUP_WORDS = { fr: { setup: "Réglages de la nouvelle partie", seat: "Place", same: "Deux joueurs ont le même nom." },
                      en: { setup: "New game setup", seat: "Seat", same: "Two players have the same name." } };
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
  box.replaceChildren(PT.el("summary", {}, sw("setup")), ...fields);
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

document.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = PT.t(e.dataset.i18n); });
const gameSelect = document.getElementById("game-select");
gameSelect.addEventListener("input", (e) => {  // a person picks a game: show its setup
  e.target.dataset.touched = "1";
  document.getElementById("setup").open = true;
});
gameSelect.addEventListener("change", () => renderSetup(gameSelect.value));
document.getElementById("new-game").addEventListener("click", () => {
  const game = gameSelect.value;
  const options = PT.newGameOptions && PT.newGameOptions[game] ? PT.newGameOptions[game]() : setupOptions();
  if (options === null) return;  // the setup form is not finished
  PT.post("/api/games", { game, options });
});
window.addEventListener("load", () => {
  fetch("/api/games").then((r) => r.json()).then((data) => {
    for (const g of data.games || []) PT.games[g.id] = g;
    renderSetup(gameSelect.value);
  }).catch(() => {});
  poll(); connect();
});
