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
  async post(url, body) {
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                 body: JSON.stringify(body || {}) });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) { PT.flash(PT.tx(data.error) || r.statusText); throw new Error(PT.tx(data.error)); }
    return data;
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
  document.getElementById("game-name").textContent = state.game ? "— " + state.game : "";
  const select = document.getElementById("game-select");
  if (state.game && !select.dataset.touched && select.value !== state.game) {
    select.value = state.game;  // "New game" offers the game being played, until someone picks another
    select.dispatchEvent(new Event("change"));
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

document.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = PT.t(e.dataset.i18n); });
document.getElementById("game-select").addEventListener("input", (e) => { e.target.dataset.touched = "1"; });
document.getElementById("new-game").addEventListener("click", () => {
  const game = document.getElementById("game-select").value;
  const options = PT.newGameOptions && PT.newGameOptions[game] ? PT.newGameOptions[game]() : {};
  if (options === null) return;  // the game's setup form is not finished
  PT.post("/api/games", { game, options });
});
window.addEventListener("load", () => { poll(); connect(); });
