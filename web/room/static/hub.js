// The café's page: one card per table, live from /api/stream (polling /api/tables when
// the stream is refused), each card linking to that table's own page. Commands are
// signed by the hub with the PIN typed on the card; the page never stores the PIN.
"use strict";

const LANG = document.body.dataset.lang === "en" ? "en" : "fr";
const WORDS = {
  fr: { online: "en ligne", offline: "hors ligne", unknown: "inconnue", broker_up: "broker connecté",
        broker_down: "broker injoignable", empty: "Aucune table ne s'est encore annoncée sur le broker.",
        open: "ouvrir la table", changed: "dernier changement", ago: "il y a", s: "s", no_game: "aucune partie",
        new_game: "Nouvelle partie", pin: "PIN", need_pin: "Tapez le PIN de la table.", done: "fait",
        alerts: "alerte(s)", nobody: "—",
        games: { "passe-murailles": "Passe-Murailles", "pass-pass": "Pass Pass", "passe-eclair": "Passe Éclair",
                 ptipasspass: "PtiPassPass" } },
  en: { online: "online", offline: "offline", unknown: "unknown", broker_up: "broker connected",
        broker_down: "broker unreachable", empty: "No table has announced itself on the broker yet.",
        open: "open the table", changed: "last change", ago: "", s: "s ago", no_game: "no game",
        new_game: "New game", pin: "PIN", need_pin: "Type the table's PIN.", done: "done",
        alerts: "alert(s)", nobody: "—",
        games: { "passe-murailles": "Passe-Murailles", "pass-pass": "Pass Pass", "passe-eclair": "Passe Éclair",
                 ptipasspass: "PtiPassPass" } },
};
const W = WORDS[LANG];
const tx = (t) => (t && typeof t === "object" ? t[LANG] || t.en || "" : t == null ? "" : String(t));

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// What each card last showed, so that only changed cards are redrawn (inputs keep focus).
const shown = new Map();
// When each table's newest observation reached the screen ([seq, ms, table's publish time]):
// read by tests/bench/bench_hub.py.
window.hubRenders = {};

function ageText(t) {
  if (!t) return "";
  const s = Math.max(0, Math.round(Date.now() / 1000 - t));
  return LANG === "fr" ? `${W.changed} : ${W.ago} ${s} ${W.s}` : `${W.changed}: ${s} ${W.s}`;
}

async function send(table, cmd, args, card) {
  // the card may be redrawn while the table answers: write the answer on the current one
  const say = (text, bad) => {
    const answer = (shown.get(table) || { el: card }).el.querySelector(".answer");
    if (answer) { answer.textContent = text; answer.className = bad ? "answer bad" : "answer"; }
  };
  const pin = card.querySelector("input[name=pin]").value;
  if (!pin) { say(W.need_pin, true); return; }
  const resp = await fetch(`/api/tables/${encodeURIComponent(table)}/command`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin, cmd, args }) });
  const body = await resp.json().catch(() => ({}));
  say(resp.ok ? W.done : tx(body.error), !resp.ok);
}

function newGameArgs(t) {
  const options = {};
  if (t.game !== "passe-murailles" && t.players.length) {
    options.players = t.players.length;
    if (t.game !== "ptipasspass") options.names = t.players.map((p) => p.name.en);
  }
  return { game: t.game, options };
}

function card(t) {
  const status = t.online ? "online" : t.status === "offline" ? "offline" : "unknown";
  const title = t.url ? el("a", { href: t.url, target: "_blank", rel: "noopener", title: W.open }, t.table) : t.table;
  const players = el("ol", { class: "players" }, ...t.players.map((p, i) =>
    el("li", { class: [i === t.turn && !t.over ? "turn" : "", t.winners.includes(i) ? "winner" : ""].join(" ").trim(),
               "data-seat": i },
       el("span", { class: "name" }, tx(p.name)), el("span", { class: "score" }, p.score == null ? "—" : p.score))));
  const node = el("article", { class: `card ${status}${t.alerts.length ? " has-alerts" : ""}`, "data-table": t.table,
                               "data-seq": t.seq ?? "", "data-status": status },
    el("h2", {}, title, el("span", { class: `badge ${status}` }, W[status])),
    el("p", { class: "game" }, t.game ? W.games[t.game] || t.game : W.no_game),
    players,
    ...t.alerts.map((a) => el("div", { class: "alert-box", "data-alert": a.id }, tx(a.message),
      t.commands ? el("div", {}, ...(a.choices || []).map((c) =>
        el("button", { "data-choice": c.id, onclick: (e) => send(t.table, "resolve", { alert: a.id, choice: c.id },
                                                                   e.target.closest(".card")) }, tx(c.label)))) : null)),
    t.last ? el("p", { class: "last" }, tx(t.last)) : null,
    el("p", { class: "changed", "data-t": t.last_change || "" }, ageText(t.last_change)),
    t.commands && t.game ? el("div", { class: "actions" },
      el("input", { name: "pin", type: "password", inputmode: "numeric", autocomplete: "off", placeholder: W.pin,
                    "aria-label": W.pin }),
      el("button", { class: "new-game", onclick: (e) => send(t.table, "new_game", newGameArgs(t), e.target.closest(".card")) },
         W.new_game),
      el("span", { class: "answer", "aria-live": "polite" })) : null);
  return node;
}

// The room as the page knows it: the stream sends every table first, then the changed ones.
const room = new Map();
function merge(msg) {
  if (msg.full) room.clear();
  for (const t of msg.tables) room.set(t.table, t);
  const names = new Set(msg.names);
  for (const name of [...room.keys()]) if (!names.has(name)) room.delete(name);
  render({ broker: msg.broker, tables: [...room.values()].sort((a, b) => (a.table < b.table ? -1 : 1)) });
}

function render(view) {
  const broker = document.getElementById("broker");
  broker.textContent = view.broker.connected ? W.broker_up : W.broker_down;
  broker.className = view.broker.connected ? "badge" : "badge down";
  const box = document.getElementById("tables");
  const empty = document.getElementById("empty");
  empty.textContent = W.empty;
  empty.hidden = view.tables.length > 0;
  const names = new Set(view.tables.map((t) => t.table));
  for (const [name, node] of shown) if (!names.has(name)) { node.el.remove(); shown.delete(name); }
  let before = null;
  for (const t of [...view.tables].reverse()) {  // sorted by name; insert from the end
    const key = JSON.stringify(t);
    let entry = shown.get(t.table);
    if (!entry || entry.key !== key) {
      const fresh = card(t);
      if (entry) {  // keep a PIN being typed and the last command's answer
        for (const sel of ["input[name=pin]", ".answer"]) {
          const before = entry.el.querySelector(sel), after = fresh.querySelector(sel);
          if (!before || !after) continue;
          if (sel === ".answer") { after.textContent = before.textContent; after.className = before.className; }
          else after.value = before.value;
        }
        entry.el.replaceWith(fresh);
      }
      entry = { el: fresh, key };
      shown.set(t.table, entry);
      const log = (window.hubRenders[t.table] ||= []);
      if (t.seq != null && (!log.length || log[log.length - 1][0] !== t.seq)) {
        log.push([t.seq, Date.now(), t.last_change]);
        if (log.length > 2000) log.shift();
      }
    }
    if (entry.el.parentNode !== box || entry.el.nextSibling !== before) box.insertBefore(entry.el, before);
    before = entry.el;
  }
}

setInterval(() => {
  for (const p of document.querySelectorAll(".changed[data-t]")) p.textContent = ageText(Number(p.dataset.t) || 0);
}, 5000);

let pollTimer = null;
function poll() {
  fetch("/api/tables").then((r) => r.json())
    .then((tables) => merge({ full: true, broker: { connected: true }, tables, names: tables.map((t) => t.table) }))
    .catch(() => {});
}
function connect() {
  const source = new EventSource("/api/stream");
  source.onmessage = (e) => {
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
    merge(JSON.parse(e.data));
  };
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED && !pollTimer) { poll(); pollTimer = setInterval(poll, 2000); }
  };
}
connect();
