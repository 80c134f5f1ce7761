// The spectator view for a TV across the room (/tv): the table drawn big, scores at least
// 64 px high, whose turn, the last few events as sentences, alerts in a banner, and in a
// corner a QR code and the short address phones open. No buttons: a tap anywhere asks for
// fullscreen, and the screen is kept awake (Wake Lock) while the page is shown.
"use strict";
(function () {
  const W = {
    fr: { turn: "À jouer", wins: "Victoire", draw: "Égalité", feed: "Derniers coups", join: "Sur votre téléphone",
          tap: "Touchez l'écran pour le plein écran.", none: "Aucune partie en cours.", alert: "Alerte" },
    en: { turn: "To play", wins: "Winner", draw: "Draw", feed: "Latest moves", join: "On your phone",
          tap: "Tap the screen for fullscreen.", none: "No game running.", alert: "Alert" },
  };
  const w = (k) => (W[PT.lang] || W.en)[k];
  const C = () => (PT.lang === "fr" ? " : " : ": ");
  const FEED_LINES = 5;

  PT.onState = function drawTv(state) {
    document.getElementById("tv-game").textContent = state.game ? PT.gameName(state.game) : "passetable";
    const summary = state.summary || { players: [], turn: null, over: false, winners: [] };
    const names = summary.players.map((p) => PT.tx(p.name));
    // whose turn, or who won
    const turn = document.getElementById("tv-turn");
    if (!state.game) turn.textContent = w("none");
    else if (summary.over) {
      const won = summary.winners.map((i) => names[i]).filter(Boolean);
      turn.textContent = won.length ? `${w("wins")}${C()}${won.join(PT.lang === "fr" ? " et " : " and ")}` : w("draw");
    } else turn.textContent = summary.turn !== null && names[summary.turn] ? `${w("turn")}${C()}${names[summary.turn]}` : "";
    turn.classList.toggle("tv-over", Boolean(summary.over));
    // the scores, one box per player (data-score: the figure a test or a person reads)
    PT.patch(document.getElementById("tv-scores"), PT.el("ol", {}, ...summary.players.map((p, i) => {
      const winner = summary.over && summary.winners.includes(i);
      const cls = ["tv-player", summary.turn === i && !summary.over ? "tv-now" : "", winner ? "tv-winner" : ""];
      return PT.el("li", { class: cls.filter(Boolean).join(" "), "data-key": `seat-${i}`, "data-seat": i },
        PT.el("span", { class: "tv-name" }, (summary.turn === i && !summary.over ? "▶ " : "") + names[i] + (winner ? " ★" : "")),
        PT.el("span", { class: "tv-points", "data-score": p.score === null || p.score === undefined ? "" : p.score,
                        "data-testid": `tv-score-${i}` }, p.score === null || p.score === undefined ? "—" : String(p.score)));
    })));
    // alerts in a banner
    PT.patch(document.getElementById("tv-alerts"), PT.el("div", {}, ...(state.alerts || []).map((a) =>
      PT.el("p", { class: "tv-alert", role: "alert", "data-key": a.id }, `⚠ ${w("alert")}${C()}${PT.tx(a.message)}`))));
    PT.redraw();  // the game's own drawing; its controls are hidden on the TV (tv.css)
    PT.renderFeed(document.getElementById("feed"), (state.feed || []).slice(-FEED_LINES));
  };

  // The game's drawing without its controls: a cup or a card stays (as a plain box), the
  // scorekeeper's forms and buttons go (tv.css hides their containers).
  PT.viewFilter = function plain(root) {
    for (const b of root.querySelectorAll("button")) {
      const box = document.createElement("div");
      for (const { name, value } of b.attributes) {
        if (!["disabled", "type", "onclick", "aria-disabled"].includes(name)) box.setAttribute(name, value);
      }
      box.classList.add("tv-was-button");
      box.append(...b.childNodes);
      b.replaceWith(box);
    }
  };

  // The QR code and the short address phones can open (the LAN address, not 0.0.0.0).
  function showAddress(url, name) {
    const box = document.getElementById("tv-qr");
    const qr = window.qrcode(0, "M");
    qr.addData(url);
    qr.make();
    const n = qr.getModuleCount(), size = 4, quiet = 2;
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${(n + 2 * quiet) * size} ${(n + 2 * quiet) * size}`);
    svg.setAttribute("aria-hidden", "true");
    const bg = document.createElementNS(NS, "rect");
    bg.setAttribute("width", "100%"); bg.setAttribute("height", "100%"); bg.setAttribute("fill", "#fff");
    svg.append(bg);
    let d = "";
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      if (qr.isDark(r, c)) d += `M${(c + quiet) * size},${(r + quiet) * size}h${size}v${size}h-${size}z`;
    }
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", d); path.setAttribute("fill", "#000");
    svg.append(path);
    box.replaceChildren(svg);
    box.setAttribute("aria-label", url);
    box.dataset.url = url;
    const short = url.replace(/^https?:\/\//, "").replace(/\/$/, "");
    document.getElementById("tv-address").replaceChildren(
      PT.el("span", {}, w("join")), PT.el("strong", { "data-testid": "tv-address" }, short),
      name ? PT.el("small", {}, name) : "");
  }
  function address() {
    const here = location.origin + "/";
    const local = ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"].includes(location.hostname);
    fetch("/api/address").then((r) => r.json()).then((a) => {
      const url = !local ? here : (a.urls && a.urls[0]) || here;
      const port = location.port ? `:${location.port}` : "";
      showAddress(url, a.name ? `${a.name}${port}` : "");
    }).catch(() => showAddress(here, ""));
  }

  // Fullscreen on a tap, and the screen kept awake.
  let lock = null;
  async function keepAwake() {
    try {
      if (navigator.wakeLock && document.visibilityState === "visible" && !lock) {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; });
        document.body.dataset.awake = "1";
      }
    } catch (e) { document.body.dataset.awake = "0"; }
  }
  document.addEventListener("click", () => {
    const root = document.documentElement;
    if (!document.fullscreenElement && root.requestFullscreen) root.requestFullscreen().catch(() => null);
    keepAwake();
  });
  document.addEventListener("visibilitychange", keepAwake);

  document.getElementById("tv-feed-title").textContent = w("feed");
  document.getElementById("tv-hint").textContent = w("tap");
  window.addEventListener("load", () => {
    fetch("/api/games").then((r) => r.json()).then((data) => {
      for (const g of data.games || []) PT.games[g.id] = g;
      if (PT.state) PT.onState(PT.state);
    }).catch(() => {});
    address();
    keepAwake();
    poll(); connect();
  });
})();
