// Passe Éclair scorekeeper: the top card and pile, one row of card faces per seat
// (one tap = one card that stays on the pile), wrong cards flagged at once, the round
// results and the goal points.
//
// Why one tap per card (22 faces per seat) and not a two-tap big/small picker: a
// placement is one tap and one request, so a fast table can be followed; the faces are
// grouped by their big footballer (its colour) and the group that may follow the top card
// is lit, so the eye goes straight to it. Cards that break a rule stay tappable: the card
// lies on the pile, it is recorded and flagged with the reason.
"use strict";
(function () {
  const GAME = "passe-eclair";
  const FOOTBALLERS = ["leon", "marlon", "rocce", "fabi", "vanessa"];
  const NAMES = { leon: "Léon", marlon: "Marlon", rocce: "Rocce", fabi: "Fabi", vanessa: "Vanessa" };
  const S = {
    fr: { round: "Tour", of: "sur", top: "Carte du dessus", pile: "Tas du milieu", cards: "cartes",
          points: "points de but", coach: "entraîneur", undo: "Annuler la dernière saisie",
          blocked: "Personne ne peut jouer", blocked_coach: "L'entraîneur retourne une carte",
          michi_blocked: "Gros Michi de", swap_with: "échange avec", cancel: "Annuler",
          wrong: "MAUVAISE CARTE", spotted: "Repérée !", start_card: "Carte de départ retournée",
          spend: "Jeton utilisé", victory: "Jeton de victoire tiré", consolation: "Jeton de consolation tiré pour",
          results: "Tours", winner: "Gagnant", token: "Jeton", consolation_col: "Consolation",
          over: "Fin de la partie", wins: "gagne", dog: "Chien", michi: "Michi", empty: "(vide)",
          players: "Joueurs", name: "Nom", oldest: "Le plus âgé (entraîneur)", goal: "pt",
          tokens: "Jetons", michi_fold: "Gros Michi joué (personne ne pouvait jouer)…",
          left: "Cartes restées en main (touchez pour corriger)", left_short: "en main" },
    en: { round: "Round", of: "of", top: "Top card", pile: "Centre pile", cards: "cards",
          points: "goal points", coach: "coach", undo: "Undo the last entry",
          blocked: "No one can play", blocked_coach: "The coach turns a card",
          michi_blocked: "Gros Michi by", swap_with: "swaps with", cancel: "Cancel",
          wrong: "WRONG CARD", spotted: "Spotted!", start_card: "Start card turned",
          spend: "Token spent", victory: "Victory token drawn", consolation: "Consolation token drawn for",
          results: "Rounds", winner: "Winner", token: "Token", consolation_col: "Consolation",
          over: "Game over", wins: "wins", dog: "Dog", michi: "Michi", empty: "(empty)",
          players: "Players", name: "Name", oldest: "Oldest (coach)", goal: "pt",
          tokens: "Tokens", michi_fold: "Gros Michi played (no one could play)…",
          left: "Cards left in hand (tap to correct)", left_short: "in hand" },
  };
  const t = (k) => (S[PT.lang] || S.en)[k] || S.en[k] || k;
  const el = (...a) => PT.el(...a);

  // Local choices between taps (a Michi swap's target, a victory token before its
  // consolation token), forgotten when the game moves on.
  let ui = { key: null, michiFrom: null, victory: null, blockedOpen: false };

  function entry(kind, data) { return PT.post("/api/observations", { kind, data: data || {} }); }
  // a token as people say it: "Fabi", "2 points de but" (never "fabi" or "goal-2")
  function tokenName(c) {
    if (String(c).startsWith("goal-")) {
      const n = Number(String(c).slice(5));
      return PT.plural(n, ["point de but", "points de but"], ["goal point", "goal points"]);
    }
    return NAMES[c] || c;
  }
  function short(name) { return NAMES[name].slice(0, 3); }
  function seatName(v, s) { return v.names[PT.lang][s] || v.names.en[s]; }

  function face(card, attrs, onclick) {
    // A card face: big footballer's colour, its name big and the receiver small.
    const cls = ["pe-face"];
    let inner;
    if (card === "dog") { cls.push("pe-dog"); inner = [el("b", {}, t("dog"))]; }
    else if (card === "michi") { cls.push("pe-michi"); inner = [el("b", {}, t("michi"))]; }
    else {
      const [big, small] = card.split("-");
      cls.push("pe-big-" + big);
      // shown short, read in full: "Léon → Marlon", never the id
      inner = [el("b", { "aria-hidden": "true" }, short(big)),
               el("small", { class: "pe-small-" + small, "aria-hidden": "true" }, "→" + short(small)),
               el("span", { class: "sr-only" }, `${NAMES[big]} → ${NAMES[small]}`)];
    }
    const spoken = card === "dog" ? t("dog") : card === "michi" ? t("michi")
      : card.split("-").map((n) => NAMES[n] || n).join(" → ");
    const a = Object.assign({ type: "button", title: spoken }, attrs,
                            { class: cls.join(" ") + (attrs.class ? " " + attrs.class : "") });
    if (onclick) a.onclick = onclick;
    return el("button", a, ...inner);
  }

  function grouped(cards, make) {
    // 5 groups of 4 by big footballer, then dog and Michi.
    const groups = FOOTBALLERS.map((f) => cards.filter((c) => c.startsWith(f + "-")));
    groups.push(cards.filter((c) => c === "dog" || c === "michi"));
    return el("div", { class: "pe-faces" }, ...groups.map((g) => el("span", { class: "pe-group" }, ...g.map(make))));
  }

  function topBox(v) {
    const box = el("div", { class: "pe-centre" });
    const top = v.top;
    box.append(el("div", { class: "pe-label" }, t("top")));
    if (top) {
      box.append(el("div", { class: "pe-top" + (top.wrong ? " pe-wrong" : ""), "data-testid": "pe-top",
                             "data-card": top.card }, PT.tx(top.label)));
    } else {
      box.append(el("div", { class: "pe-top pe-none", "data-testid": "pe-top", "data-card": "" }, t("empty")));
    }
    const strip = el("ol", { class: "pe-pile", "data-testid": "pe-pile" });
    for (const p of v.pile) {
      const who = p.by === null ? "" : " · " + seatName(v, p.by);
      strip.append(el("li", { class: p.wrong ? "pe-wrong" : "", "data-serial": p.serial }, PT.tx(p.label) + who));
    }
    box.append(el("div", { class: "pe-label" }, `${t("pile")} (${v.pile_size})`), strip);
    return box;
  }

  function wrongBanner(v) {
    return v.wrong_cards.map((w) => el("div", { class: "pe-wrong-box", role: "alert", "data-testid": "pe-wrong" },
      el("strong", {}, `${t("wrong")} — ${seatName(v, w.by)} : ${PT.tx(w.label)}. `), PT.tx(w.wrong),
      el("button", { class: "pe-spot", "data-testid": `pe-spot-${w.serial}`,
                     onclick: () => entry("passe_eclair.spot", { seat: w.by, serial: w.serial }) }, t("spotted"))));
  }

  function seatRow(v, seat) {
    const playing = v.phase === "playing";
    const ok = new Set(v.playable[seat] || []);
    const cons = v.consolation_tokens[seat].map(tokenName);
    const head = el("div", { class: "pe-seat-head" },
      el("strong", {}, seatName(v, seat) + (seat === v.coach ? ` (${t("coach")})` : "")),
      el("span", { class: "pe-size", "data-testid": `pe-size-${seat}` }, PT.plural(v.hand_sizes[seat], ["carte", "cartes"], ["card", "cards"])),
      el("span", { class: "pe-points", "data-testid": `pe-points-${seat}` }, PT.plural(v.goal_points[seat], ["point de but", "points de but"], ["goal point", "goal points"])),
      el("span", { class: "pe-tokens" }, `${t("tokens")} : ${v.victory_tokens[seat].join("+") || "—"}` +
         (cons.length ? ` · ${cons.join(", ")}` : "")));
    const row = el("div", { class: "pe-seat" + (v.hand_sizes[seat] === 0 ? " pe-out" : ""), "data-seat": seat }, head);
    if (playing) {
      row.append(grouped(v.cards, (c) => face(c, {
        class: ok.has(c) ? "pe-ok" : "pe-risky", "data-testid": `pe-card-${seat}-${c}`,
        ...(v.hand_sizes[seat] === 0 ? { disabled: "" } : {}),
      }, () => entry("passe_eclair.place", { seat, card: c }))));
    }
    if (v.phase === "dealt") {
      for (const tok of v.consolation_tokens[seat].filter((c) => FOOTBALLERS.includes(c))) {
        row.append(el("button", { class: "pe-choice", "data-testid": `pe-spend-${seat}-${tok}`,
                                  onclick: () => entry("passe_eclair.spend", { seat, token: tok }) },
                      `${t("spend")} : ${NAMES[tok]}`));
      }
    }
    return row;
  }

  function targetChooser(v, from, noOneCanPlay) {
    const box = el("div", { class: "pe-panel", "data-testid": "pe-michi" },
                   el("strong", {}, `Gros Michi : ${seatName(v, from)} ${t("swap_with")}…`));
    for (let s = 0; s < v.players; s++) {
      if (s === from) continue;
      const data = { seat: from, target: s };
      if (noOneCanPlay) data.no_one_can_play = true;
      box.append(el("button", { class: "pe-choice", "data-testid": `pe-michi-target-${s}`,
                                onclick: () => { ui.michiFrom = null; entry("passe_eclair.michi_swap", data); } },
                    seatName(v, s)));
    }
    if (noOneCanPlay) box.append(el("button", { onclick: () => { ui.michiFrom = null; PT.redraw(); } },
                                    t("cancel")));
    return box;
  }

  function blockedPanel(v) {
    // "No one can play" is one tap: the pile goes to the box and the coach turns a new start
    // card (on a camera table, the next card the camera sees on the pile). A Gros Michi played
    // because no one could play is in the fold (a camera asks about it by itself); the fold
    // stays open across re-draws (the state is pushed on every change at the table).
    const fold = el("details", { ...(ui.blockedOpen ? { open: "" } : {}) }, el("summary", {}, t("michi_fold")));
    fold.addEventListener("toggle", () => { ui.blockedOpen = fold.open; });
    for (let s = 0; s < v.players; s++) {
      if (v.hand_sizes[s] === 0) continue;
      fold.append(el("button", { class: "pe-choice", "data-testid": `pe-michi-from-${s}`,
                                 onclick: () => { ui.michiFrom = s; PT.redraw(); } },
                     `${t("michi_blocked")} ${seatName(v, s)}`));
    }
    return el("div", { class: "pe-panel", "data-testid": "pe-blocked-panel" },
              el("button", { class: "pe-choice", "data-testid": "pe-blocked",
                             onclick: () => entry("passe_eclair.blocked") }, `${t("blocked")} — ${t("blocked_coach")}`),
              fold);
  }

  function countsBox(v, r) {
    // Each player's cards left, prefilled from the sizes tracked; one tap on a number corrects
    // one count (the consolation token follows); the victory token's tap takes them as they are.
    const box = el("div", { class: "pe-counts", "data-testid": "pe-counts" }, el("div", {}, t("left")));
    for (let s = 0; s < v.players; s++) {
      if (s === r.winner) continue;
      const n = r.hand_sizes[s];
      const top = Math.max(9, n + 2);
      const row = el("div", { class: "pe-count-row", "data-testid": `pe-count-${s}`, "data-cards": n },
                     el("strong", {}, seatName(v, s) + (PT.lang === "fr" ? " : " : ": ")));
      for (let k = 0; k <= top; k++) {
        row.append(el("button", {
          class: "pe-count" + (k === n ? " pe-chosen" : ""), "data-testid": `pe-count-${s}-${k}`,
          "aria-pressed": k === n ? "true" : "false", title: `${seatName(v, s)} : ${k} ${t("left_short")}`,
          onclick: () => { if (k !== n) entry("passe_eclair.count", { seat: s, cards: k }); },
        }, String(k)));
      }
      box.append(row);
    }
    return box;
  }

  function roundPanel(v) {
    const r = v.round_over;
    const box = el("div", { class: "pe-panel", "data-testid": "pe-round" },
                   el("strong", {}, `${t("round")} ${v.round} : ${seatName(v, r.winner)} ${t("wins")} !`),
                   countsBox(v, r));
    const due = r.consolation_seat;
    const send = (points, consolation) => {
      ui.victory = null;
      entry("passe_eclair.round", { points, consolation: consolation === undefined ? null : consolation });
    };
    box.append(el("div", {}, t("victory") + " : ", ...r.victory_choices.map((p) => el("button", {
      class: "pe-choice" + (ui.victory === p ? " pe-chosen" : ""), "data-testid": `pe-victory-${p}`,
      onclick: () => { if (due === null) send(p); else { ui.victory = p; PT.redraw(); } },
    }, String(p)))));
    if (due !== null) {
      box.append(el("div", {}, `${t("consolation")} ${seatName(v, due)} : `, ...r.consolation_choices.map((c) =>
        el("button", { class: "pe-choice", "data-testid": `pe-consolation-${c}`,
                       ...(ui.victory === null ? { disabled: "" } : {}),
                       onclick: () => send(ui.victory, c) },
           tokenName(c)))));
    }
    return box;
  }

  function results(v) {
    if (!v.results.length) return "";
    const head = el("tr", {}, ...[t("round"), t("winner"), t("token"), t("consolation_col")].map((h) => el("th", {}, h)));
    const rows = v.results.map((r) => el("tr", {}, el("td", {}, String(r.round)), el("td", {}, seatName(v, r.winner)),
      el("td", {}, String(r.points)),
      el("td", {}, r.consolation ? `${seatName(v, r.consolation.seat)}${PT.lang === "fr" ? " : " : ": "}${tokenName(r.consolation.token)}` : "—")));
    return el("table", { class: "sheet", "data-testid": "pe-results" }, head, ...rows);
  }

  let root = null;
  function render(state, rootEl) {
    root = rootEl;
    const v = state.view;
    const key = `${state.game_seq}:${v.phase}:${v.round}:${v.pending_michi}`;
    if (key !== ui.key) ui = { key, michiFrom: null, victory: null, blockedOpen: false };
    const parts = [el("p", { class: "pe-status", "data-testid": "pe-phase", "data-phase": v.phase },
                      el("strong", {}, `${t("round")} ${v.round} ${t("of")} ${v.rounds}. `), PT.tx(v.prompt))];
    if (v.over) {
      const who = v.winners.map((s) => seatName(v, s)).join(", ");
      parts.push(el("p", { class: "winner", "data-testid": "pe-winner" },
                    `${t("over")} : ${who} ${t("wins")} (${Math.max(...v.goal_points)} ${t("points")})`));
    }
    parts.push(topBox(v), ...wrongBanner(v));
    if (v.phase === "dealt" || v.phase === "turning") {
      parts.push(el("div", { class: "pe-panel", "data-testid": "pe-start" }, el("strong", {}, t("start_card")),
                    grouped(v.cards, (c) => face(c, { "data-testid": `pe-start-${c}` },
                                                 () => entry("passe_eclair.start_card", { card: c })))));
    }
    // a Michi the camera saw: its alert asks the partner (one tap there, not twice on the page)
    const asked = (state.alerts || []).some((a) => a.kind === "camera_michi_partner");
    if (v.phase === "michi" && !asked) parts.push(targetChooser(v, v.pending_michi, false));
    if (v.phase === "playing") {
      parts.push(ui.michiFrom !== null ? targetChooser(v, ui.michiFrom, true) : blockedPanel(v));
    }
    if (v.phase === "round_won") parts.push(roundPanel(v));
    for (let s = 0; s < v.players; s++) parts.push(seatRow(v, s));
    if (v.last_entry) {
      parts.push(el("button", { class: "pe-undo", "data-testid": "pe-undo",
                                onclick: () => PT.post("/api/undo", { seq: v.last_entry.seq }) }, t("undo")));
    }
    parts.push(results(v));
    rootEl.replaceChildren(...parts.filter((p) => p !== ""));
  }

  PT.renderers[GAME] = render;
})();
