// PtiPassPass scorekeeper: the cup grid, whose turn, every hand, and the buttons the
// table uses to enter a turn (named cup, calls, announced colour, swap, lift, outcomes).
// The service knows only what the table sees (observed mode): lifted cups are entered.
"use strict";
(function () {
  const GAME = "ptipasspass", KIND = "ptipasspass.action";
  const COLOURS = ["blue", "green", "orange"];
  const S = {
    fr: { blue: "bleu", green: "vert", orange: "orange", round: "Manche", turn: "À jouer",
          players: "Joueurs", names: "Noms (facultatifs)", first: "Premier joueur", setup: "PtiPassPass",
          seat: "Joueur", victory: "victoire(s)", hand: "en main", no_call: "Personne ne conteste",
          doublon: "Doublon ! par", menteur: "Menteur ! par", announces: "annonce",
          swap: "Intervertir ces deux gobelets", reveal: "Soulever ces trois gobelets",
          clear: "Effacer la sélection", abandon: "Manche bloquée : la rejouer",
          next_round: "Manche suivante", undo: "Annuler la dernière entrée", confirm: "Valider",
          abandon_ask: "Rejouer la manche ? Tout ce qui a été saisi dans cette manche sera effacé.",
          abandon_yes: "Oui, rejouer la manche", abandon_in: "La manche sera rejouée dans",
          empty: "vide", shows: "montre", colon: " : ", row: "rangée", col: "colonne",
          p_name_cup: "tient un jeton en secret : touchez le gobelet désigné.",
          p_doublon_window: "Quelqu'un dit-il « Doublon ! » ?",
          p_announce: "Quelle couleur annonce-t-il ?",
          p_menteur_window: "Quelqu'un dit-il « Menteur ! » ?",
          p_swap_or_reveal: "n'a plus de jeton : touchez 2 gobelets contigus pour les intervertir (une fois), " +
                            "ou 3 gobelets alignés pour les soulever.",
          p_reveal: "Saisissez ce que montre chaque gobelet soulevé.",
          p_menteur: "Quel jeton est montré ?",
          p_doublon: "Saisissez ce que montre le gobelet soulevé.",
          swapped: "Gobelets déjà intervertis ce tour-ci.",
          claimed: "annoncé", not_started: "La partie n'a pas pu commencer",
          same_names: "Deux joueurs portent le même nom.", oks: "OK (boutons)",
          presses: "pressions OK du joueur actif" },
    en: { blue: "blue", green: "green", orange: "orange", round: "Round", turn: "To play",
          players: "Players", names: "Names (optional)", first: "First player", setup: "PtiPassPass",
          seat: "Player", victory: "victory token(s)", hand: "in hand", no_call: "Nobody calls",
          doublon: "Doublon! by", menteur: "Menteur! by", announces: "announces",
          swap: "Swap these two cups", reveal: "Lift these three cups",
          clear: "Clear the selection", abandon: "Round stuck: replay it",
          next_round: "Next round", undo: "Undo the last entry", confirm: "Confirm",
          abandon_ask: "Replay the round? Everything entered in this round will be cleared.",
          abandon_yes: "Yes, replay the round", abandon_in: "The round is replayed in",
          empty: "empty", shows: "shows", colon: ": ", row: "row", col: "column",
          p_name_cup: "secretly holds a token: tap the cup they name.",
          p_doublon_window: "Does anyone call “Doublon!”?",
          p_announce: "Which colour do they announce?",
          p_menteur_window: "Does anyone call “Menteur!”?",
          p_swap_or_reveal: "has no token left: tap 2 contiguous cups to swap them (once), " +
                            "or 3 cups in a line to lift them.",
          p_reveal: "Enter what each lifted cup shows.",
          p_menteur: "Which token is shown?",
          p_doublon: "Enter what the lifted cup shows.",
          swapped: "Cups already swapped this turn.",
          claimed: "claimed", not_started: "The game could not start",
          same_names: "Two players have the same name.", oks: "OK (buttons)",
          presses: "active player's OK presses" },
  };
  const s = (key) => (S[PT.lang] || S.fr)[key] || S.en[key] || key;
  const key = (cell) => `${cell[0]}-${cell[1]}`;
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  const cupLabel = (cell) => `${s("row")} ${cell[0] + 1} ${s("col")} ${cell[1] + 1}`;

  // What the person is entering, kept across re-renders of the same game moment.
  let moment = null, selected = [], drafts = {};

  function enter(action) {
    return PT.post("/api/observations", { kind: KIND, data: { action } });
  }
  function button(label, testid, onclick, attrs = {}) {
    return PT.el("button", { "data-testid": testid, onclick, ...attrs }, label);
  }
  function dot(colour, extra = "") {
    // a letter on each colour: colour is never the only cue
    const name = colour === "unknown" ? "?" : s(colour);
    return PT.el("span", { class: `ppp-dot ${colour} ${extra}`, title: name, role: "img", "aria-label": name },
                 colour === "unknown" ? "?" : name.slice(0, 1).toUpperCase());
  }

  // ------------------------------------------------------------------ the table
  function render(state, root) {
    const v = state.view;
    if (!v.started) {
      root.replaceChildren(PT.el("div", { class: "ppp-error", "data-testid": "ppp-error" },
                                 `${s("not_started")}${s("colon")}${PT.tx(v.error)}`));
      return;
    }
    const now = `${state.game_seq}:${v.entries}`;
    if (now !== moment) { moment = now; selected = []; }
    if (v.phase !== "reveal_outcome") drafts = {};  // drafts live while cups are lifted
    const names = v.names[PT.lang] || v.names.en;
    root.replaceChildren(PT.el("div", { class: "ppp", "data-phase": v.phase, "data-testid": "ppp" },
      header(v, names), banner(v), grid(v), controls(v, names), players(v, names)));
  }

  function header(v, names) {
    // between two rounds the banner names who starts the next one: the header says the same
    const seat = v.phase === "round_over" && v.next_first !== null && v.next_first !== undefined ? v.next_first : v.active;
    const who = v.over ? "" : `${s("turn")}${s("colon")}${names[seat]}`;
    return PT.el("p", { class: "ppp-head" }, PT.el("strong", { "data-testid": "ppp-round" }, `${s("round")} ${v.round}`),
                 " · ", PT.el("span", { "data-testid": "ppp-turn" }, who));
  }

  function banner(v) {
    return v.banner ? PT.el("p", { class: "winner", "data-testid": "ppp-banner" }, PT.tx(v.banner)) : "";
  }

  function grid(v) {
    const rows = v.layout.cells.map((c) => c[0]), cols = v.layout.cells.map((c) => c[1]);
    const r0 = Math.min(...rows), c0 = Math.min(...cols);
    const box = PT.el("div", { class: "ppp-grid", style: `grid-template-columns: repeat(${Math.max(...cols) - c0 + 1}, 1fr)` });
    const pending = (v.awaiting && v.awaiting.cups) || [];
    for (const cup of v.cups) {
      const c = cup.cell, classes = ["ppp-cup"];
      if (same(c, v.turn.cup)) classes.push("named");
      if (pending.some((p) => same(p, c))) classes.push("lifted");
      if (selected.some((p) => same(p, c))) classes.push("selected");
      if ((v.turn.swapped || []).some((p) => same(p, c))) classes.push("swapped");
      if ((v.turn.line || []).some((p) => same(p, c))) classes.push("in-line");
      const clickable = v.phase === "name_cup" || v.phase === "swap_or_reveal";
      const dots = [...cup.known.map((k) => dot(k)), ...Array.from({ length: cup.unknown }, () => dot("unknown"))];
      const detail = cup.claimed.length ? `${s("claimed")}${s("colon")}${cup.claimed.map(s).join(", ")}` : "";
      const b = PT.el("button", { class: classes.join(" "), "data-testid": `cup-${key(c)}`, "data-count": cup.count,
                                  title: cupLabel(c), style: `grid-row: ${c[0] - r0 + 1}; grid-column: ${c[1] - c0 + 1}`,
                                  onclick: () => cupClicked(v, c) },
        PT.el("span", { class: "ppp-count" }, String(cup.count)), PT.el("span", { class: "ppp-dots" }, ...dots),
        PT.el("small", {}, detail));
      if (!clickable) b.disabled = true;
      box.append(b);
    }
    return box;
  }

  function cupClicked(v, cell) {
    if (v.phase === "name_cup") { enter({ action: "Place", seat: v.active, colour: null, cup: cell }); return; }
    const at = selected.findIndex((p) => same(p, cell));
    if (at >= 0) selected.splice(at, 1); else if (selected.length < 3) selected.push(cell);
    PT.redraw();
  }

  // ------------------------------------------------------------------ entries by phase
  function controls(v, names) {
    const box = PT.el("div", { class: "ppp-controls", "data-testid": "ppp-controls" });
    const who = names[v.active];
    const prompt = (text) => box.append(PT.el("p", { class: "ppp-prompt", "data-testid": "ppp-prompt" }, text));
    if (v.phase === "name_cup") prompt(`${who} ${s("p_name_cup")}`);
    else if (v.phase === "doublon_window" || v.phase === "menteur_window") {
      const call = v.phase === "doublon_window" ? "doublon" : "menteur";
      prompt(s("p_" + v.phase));
      box.append(button(s("no_call"), "no-call", () => enter({ action: "Pass" })),
                 ...v.callers.map((seat) => button(`${s(call)} ${names[seat]}`, `${call}-${seat}`, () => enter(
                   { action: call === "doublon" ? "CallDoublon" : "CallMenteur", seat }))));
    } else if (v.phase === "announce") {
      prompt(`${who} — ${s("p_announce")}`);
      box.append(...COLOURS.map((c) => button(`${who} ${s("announces")} ${s(c)}`, `announce-${c}`,
        () => enter({ action: "AnnounceColour", seat: v.active, colour: c }), { class: `ppp-colour ${c}` })));
    } else if (v.phase === "swap_or_reveal") {
      box.append(...revealControls(v, who));
    } else if (v.phase === "reveal_outcome") {
      box.append(...outcomeControls(v));
    } else if (v.phase === "round_over") {
      box.append(button(s("next_round"), "next-round", () => enter({ action: "NextRound" })));
    }
    const pressed = v.presses || { oks: [], colour_presses: 0 };   // seat buttons not yet a step
    if (pressed.oks.length) {
      box.append(PT.el("p", { class: "ppp-presses", "data-testid": "ppp-oks" },
                       `${s("oks")}${s("colon")}${pressed.oks.map((seat) => names[seat]).join(", ")}`));
    }
    if (pressed.colour_presses) {
      box.append(PT.el("p", { class: "ppp-presses", "data-testid": "ppp-colour-presses" },
                       `${s("presses")}${s("colon")}${pressed.colour_presses} (${s(COLOURS[pressed.colour_presses - 1])})`));
    }
    if (v.last_entry) {
      box.append(PT.el("div", { class: "ppp-undo" }, button(s("undo"), "undo",
        () => PT.post("/api/undo", { seq: v.last_entry.seq }))));
    }
    return box;
  }

  function isLine(v, cells) {
    const want = cells.map(key).sort().join("|");
    return v.layout.lines.some((line) => line.map(key).sort().join("|") === want);
  }
  function contiguous(v, a, b) {
    return v.layout.neighbours.some(([x, y]) => (same(x, a) && same(y, b)) || (same(x, b) && same(y, a)));
  }

  function revealControls(v, who) {
    const out = [PT.el("p", { class: "ppp-prompt", "data-testid": "ppp-prompt" }, `${who} ${s("p_swap_or_reveal")}`)];
    const swap = button(s("swap"), "swap", () => enter({ action: "Swap", seat: v.active, a: selected[0], b: selected[1] }));
    swap.disabled = !(v.can_swap && selected.length === 2 && contiguous(v, selected[0], selected[1]));
    const lift = button(s("reveal"), "reveal", () => enter({ action: "Reveal", seat: v.active, line: selected }));
    lift.disabled = !(selected.length === 3 && isLine(v, selected));
    const clear = button(s("clear"), "clear-selection", () => { selected = []; PT.redraw(); });
    out.push(PT.el("div", {}, swap, lift, clear));
    if (!v.can_swap) out.push(PT.el("p", { class: "muted" }, s("swapped")));
    // replaying the round throws away what was entered in it: asked first, then 10 s to cancel
    if (v.can_abandon) {
      out.push(button(s("abandon"), "abandon", () => {
        PT.confirmThen(s("abandon_ask"), s("abandon_yes"), (n) => `${s("abandon_in")} ${n} s…`,
                       () => enter({ action: "AbandonRound" }).catch(() => null));
      }));
    }
    return out;
  }

  function outcomeControls(v) {
    const a = v.awaiting;
    if (a.kind === "menteur") {
      return [PT.el("p", { class: "ppp-prompt", "data-testid": "ppp-prompt" }, s("p_menteur")),
              PT.el("div", {}, ...COLOURS.map((c) => button(s(c), `shown-${c}`,
                () => enter({ action: "TokenShown", colour: c }), { class: `ppp-colour ${c}` })))];
    }
    const out = [PT.el("p", { class: "ppp-prompt", "data-testid": "ppp-prompt" }, s(a.kind === "reveal" ? "p_reveal" : "p_doublon"))];
    for (const cell of a.cups) out.push(cupEntry(v, cell));
    return out;
  }

  // One lifted cup: how many tokens of each colour it shows (the total is known).
  function cupEntry(v, cell) {
    const cup = v.cups.find((c) => same(c.cell, cell)), k = key(cell);
    if (!drafts[k]) {  // start from the colours known to be inside
      drafts[k] = { blue: 0, green: 0, orange: 0 };
      for (const c of cup.known) drafts[k][c] += 1;
    }
    const d = drafts[k], total = COLOURS.reduce((n, c) => n + d[c], 0);
    const redraw = () => PT.redraw();
    const counters = COLOURS.map((c) => PT.el("span", { class: `ppp-counter ${c}` }, dot(c),
      button("−", `less-${k}-${c}`, () => { d[c] = Math.max(0, d[c] - 1); redraw(); }),
      PT.el("span", { "data-testid": `n-${k}-${c}` }, String(d[c])),
      button("+", `more-${k}-${c}`, () => { if (total < cup.count) { d[c] += 1; redraw(); } })));
    const tokens = COLOURS.flatMap((c) => Array(d[c]).fill(c));
    const ok = button(`${s("confirm")} (${tokens.length ? tokens.map(s).join(", ") : s("empty")})`, `confirm-${k}`,
                      () => enter({ action: "CupShown", cup: cell, tokens }));
    ok.disabled = total !== cup.count;
    return PT.el("div", { class: "ppp-entry", "data-testid": `entry-${k}` },
                 PT.el("strong", {}, `${cupLabel(cell)} (${cup.count}) ${s("shows")}${s("colon")}`),
                 ...(cup.count ? counters : [PT.el("em", {}, s("empty"))]), ok);
  }

  // ------------------------------------------------------------------ players
  function players(v, names) {
    return PT.el("ol", { class: "ppp-players" }, ...v.hands.map((h, seat) => {
      const dots = [...COLOURS.flatMap((c) => Array(h[c]).fill(c).map((x) => dot(x))),
                    ...Array.from({ length: h.unknown }, () => dot("unknown"))];
      const stars = "★".repeat(v.victory_tokens[seat]);
      return PT.el("li", { class: `ppp-player${seat === v.active && !v.over ? " turn" : ""}`,
                           "data-testid": `player-${seat}`, "data-hand": h.size, "data-victory": v.victory_tokens[seat] },
        PT.el("strong", {}, names[seat]), " ", PT.el("span", { class: "ppp-dots" }, ...dots),
        PT.el("small", {}, ` ${PT.plural(h.size, ["jeton", "jetons"], ["token", "tokens"])} ${s("hand")}`), PT.el("span", { class: "ppp-stars" }, ` ${stars}`));
    }));
  }

  PT.renderers[GAME] = render;
})();
