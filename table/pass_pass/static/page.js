// Pass Pass scorekeeper: set up the players, enter each card as it is played (a grid of
// the 48 cards, cards seen this round greyed), answer the winners' take questions, and
// follow the cards in front of each player, the Pass Pass marks and the score sheet.
// Every click is one entry (POST /api/observations); the last one can be undone.
"use strict";
(function () {
  const GAME = "pass-pass";
  const STRINGS = {
    fr: {
      setup: "Pass Pass : joueurs", mode: "Mode", individual: "Individuel", teams: "Par équipes",
      players: "Joueurs", seat: "Place", team: "Équipe", first: "Premier joueur", name_hint: "Nom (facultatif)",
      round: "Manche", trick: "Pli", play_prompt: "Carte jouée par", take_prompt: "premier gagnant : quelle carte prenez-vous ?",
      take_low_prompt: "second gagnant : quelles cartes faibles prenez-vous ?", record_prompt: "Fin de manche : chaque équipe choisit le score qu'elle marque.",
      suggested: "conseillé", recorded: "marqué", majority: "Couleur majoritaire", first_winner: "1er gagnant",
      second_winner: "2e gagnant", out: "Défaussées", in_front: "devant lui", points: "pts", marks: "Pass Pass",
      sheet: "Feuille de score", total: "Total", ranking: "Classement", wins: "remporte la partie !",
      shared: "Victoire partagée :", pp_win: "3e PASS PASS !", undo: "Annuler la dernière saisie",
      nothing_to_undo: "Rien à annuler", current: "Pli en cours", takes: "prend", over: "Partie terminée",
      this_round: "Pass Pass cette manche", duplicate: "Deux joueurs ont le même nom.",
    },
    en: {
      setup: "Pass Pass: players", mode: "Mode", individual: "Individual", teams: "In teams",
      players: "Players", seat: "Seat", team: "Team", first: "First player", name_hint: "Name (optional)",
      round: "Round", trick: "Trick", play_prompt: "Card played by", take_prompt: "first winner: which card do you take?",
      take_low_prompt: "second winner: which low cards do you take?", record_prompt: "End of round: each team chooses the score it records.",
      suggested: "suggested", recorded: "recorded", majority: "Majority colour", first_winner: "1st winner",
      second_winner: "2nd winner", out: "Out", in_front: "in front", points: "pts", marks: "Pass Pass",
      sheet: "Score sheet", total: "Total", ranking: "Ranking", wins: "wins the game!",
      shared: "Shared victory:", pp_win: "3rd PASS PASS!", undo: "Undo the last entry",
      nothing_to_undo: "Nothing to undo", current: "Trick in progress", takes: "takes", over: "Game over",
      this_round: "Pass Pass this round", duplicate: "Two players have the same name.",
    },
  };
  const T = (key) => (STRINGS[PT.lang] || STRINGS.en)[key] || STRINGS.en[key] || key;
  const el = (...a) => PT.el(...a);
  const C = () => (PT.lang === "fr" ? " : " : ": ");  // French puts a space before the colon
  const pts = (n) => PT.plural(n, ["point", "points"], ["point", "points"]);

  document.head.append(el("style", {}, `
    .pp-card { display: inline-block; min-width: 2.2em; padding: .15rem .35rem; margin: .1rem; border-radius: .3rem;
               color: #fff; font-weight: bold; text-align: center; border: 2px solid transparent; }
    .pp-purple { background: #7b2cbf; } .pp-blue { background: #1d4ed8; } .pp-green { background: #1e7a54; }
    .pp-yellow { background: #e9b824; color: #222; }
    .grid-cards button.pp-card { font-size: 1rem; } .grid-cards button.pp-card:disabled { opacity: .2; cursor: default; }
    .pp-d { font-size: .7em; letter-spacing: -1px; display: block; }
    .pp-card { position: relative; }
    button.pp-card { min-width: 44px; min-height: 44px; }  /* a thumb's target, in the prompts too */
    .pp-l { position: absolute; top: 1px; left: 3px; font-size: .6rem; font-weight: normal; opacity: .9; }
    .pp-h { font-size: 1.1rem; margin: .8rem 0 .3rem; }
    @media (max-width: 600px) {
      .grid-cards[data-testid=pp-grid] { grid-template-columns: repeat(6, minmax(0, 1fr)); gap: 4px; }
      .grid-cards button.pp-card { min-width: 0; min-height: 48px; margin: 0; font-size: 1.1rem; }
      .pp-seats { grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); }
      table.sheet { font-size: .8rem; }
    }
    .pp-bar { display: flex; gap: 1rem; flex-wrap: wrap; align-items: baseline; font-size: 1.1rem; }
    .pp-prompt { background: #fff; padding: .6rem; border-radius: .5rem; margin: .5rem 0; border: 3px solid #ffb703; }
    .pp-prompt button { margin: .2rem; }
    .pp-seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: .5rem; margin: .5rem 0; }
    .pp-seat { background: #fff; border-radius: .5rem; padding: .4rem .6rem; border: 2px solid #ddd; }
    .pp-seat.pp-turn { border-color: #ffb703; box-shadow: 0 0 0 3px #ffb703; }
    .pp-marks { font-size: 1.3rem; color: #d62828; letter-spacing: .1em; }
    .pp-loud { font-size: 2rem; font-weight: 900; text-align: center; padding: .6rem; border-radius: .5rem;
               background: #d62828; color: #fff; animation: pp-pulse 1s ease-in-out 3; }
    @keyframes pp-pulse { 50% { transform: scale(1.05); } }
    .pp-trick { background: #fff; border-radius: .5rem; padding: .4rem .6rem; }
    .pp-first-place { font-weight: bold; font-size: 1.2rem; }
    table.sheet td.pp-win { background: #ffe8a3; font-weight: bold; }
  `));

  // ------------------------------------------------------------------ helpers
  const name = (v, seat) => v.names[PT.lang === "fr" ? "fr" : "en"][seat];
  const teamName = (t) => `${T("team")} ${t + 1}`;
  const who = (v, k) => (v.teams ? teamName(k) : name(v, k));
  function cardText(v, id) {
    const [colour, value] = [id.slice(0, id.lastIndexOf("-")), id.slice(id.lastIndexOf("-") + 1)];
    const c = v.colours[colour][PT.lang === "fr" ? "fr" : "en"];
    return PT.lang === "fr" ? `${value} ${c}` : `${c} ${value}`;
  }
  // The colour is never the only cue: each card carries its colour's letter(s), and its
  // accessible name says it all ("purple 10, 2 diamonds").
  const LETTERS = { fr: { purple: "Vi", blue: "Bl", green: "Ve", yellow: "Ja" }, en: { purple: "P", blue: "B", green: "G", yellow: "Y" } };
  function chip(v, id, tag = "span", attrs = {}) {
    const card = v.deck.find((c) => c.id === id);
    const letter = (LETTERS[PT.lang] || LETTERS.en)[card.color] || "";
    const diamonds = card.diamonds ? `, ${card.diamonds} ${PT.lang === "fr" ? "losange" : "diamond"}${card.diamonds > 1 ? "s" : ""}` : "";
    const colour = v.colours[card.color][PT.lang === "fr" ? "fr" : "en"];
    const a = { ...attrs, class: `pp-card pp-${card.color}`, title: cardText(v, id) + diamonds, "data-card": id };
    // read as people say it: "purple 10" / "10 violet" (the value is the visible text)
    const before = PT.lang === "fr" ? "" : `${colour} `, after = (PT.lang === "fr" ? ` ${colour}` : "") + diamonds;
    return el(tag, a, el("span", { class: "pp-l", "aria-hidden": "true" }, letter),
              before ? el("span", { class: "sr-only" }, before) : "", String(card.value),
              el("span", { class: "sr-only" }, after),
              el("span", { class: "pp-d", "aria-hidden": "true" }, "♦".repeat(card.diamonds) || "\u00a0"));
  }
  const entry = (kind, data) => PT.post("/api/observations", { kind, data }).catch(() => {});
  function describe(v, action) {
    if (action.type === "play") return `${name(v, action.seat)}${C()}${cardText(v, action.card)}`;
    if (action.type === "take") return `${name(v, action.seat)} ${T("takes")} ${cardText(v, action.card)}`;
    if (action.type === "take_low") return `${name(v, action.seat)} ${T("takes")} ${action.cards.map((c) => cardText(v, c)).join(", ")}`;
    return `${teamName(action.team)}${C()}${name(v, action.seat)}`;
  }

  // ------------------------------------------------------------------ the page
  function render(state, root) {
    const v = state.view;
    root.replaceChildren(...[banner(v), bar(v), prompt(v), trick(v), seats(v), sheet(v), ranking(v), undo(v)]
      .filter(Boolean));
  }

  function banner(v) {
    if (!v.over) return null;
    const names = v.winners.map((w) => who(v, w)).join(PT.lang === "fr" ? " et " : " and ");
    const line = v.winners.length > 1 ? `${T("shared")} ${names}` : `${names} ${T("wins")}`;
    return el("div", { class: v.won_by === "pass_pass" ? "pp-loud" : "winner", "data-testid": "pp-winner" },
              v.won_by === "pass_pass" ? `${T("pp_win")} ${line}` : line);
  }

  function bar(v) {
    return el("div", { class: "pp-bar" },
      el("strong", { "data-testid": "pp-round" }, `${T("round")} ${v.round}/3`),
      el("span", { "data-testid": "pp-trick" }, `${T("trick")} ${v.trick}/8`),
      v.over ? el("span", {}, T("over")) : "");
  }

  function prompt(v) {
    const p = v.prompt;
    if (!p) return null;
    const box = el("div", { class: "pp-prompt", "data-testid": "pp-prompt", "data-kind": p.kind });
    if (p.kind === "play") {
      const seen = new Set(v.seen);
      const grid = el("div", { class: "grid-cards", "data-testid": "pp-grid" });
      for (const card of v.deck) {  // deck order: colour by colour, 1 to 12: one row per colour
        const attrs = { onclick: () => entry("pass_pass.play", { seat: p.seat, card: card.id }) };
        if (seen.has(card.id)) attrs.disabled = "";
        grid.append(chip(v, card.id, "button", attrs));
      }
      box.append(el("p", {}, el("strong", {}, `${T("play_prompt")} ${name(v, p.seat)}`)), grid);
    } else if (p.kind === "take") {
      box.append(el("p", {}, el("strong", {}, `${name(v, p.seat)}, ${T("take_prompt")}`)),
        ...p.options.map((id) => chip(v, id, "button", {
          "data-take": id, onclick: () => entry("pass_pass.take", { seat: p.seat, card: id }) })));
    } else if (p.kind === "take_low") {
      box.append(el("p", {}, el("strong", {}, `${name(v, p.seat)}, ${T("take_low_prompt")}`)),
        ...p.options.map((ids) => el("button", {
          "data-take-low": ids.join(","), onclick: () => entry("pass_pass.take_low", { seat: p.seat, cards: ids }) },
          ...ids.map((id) => chip(v, id)))));
    } else if (p.kind === "record") {
      box.append(el("p", {}, el("strong", {}, T("record_prompt"))));
      for (const t of p.teams) {
        box.append(el("div", {}, `${teamName(t.team)}${C()}`, ...t.members.map((seat) => {
          const label = `${name(v, seat)} — ${pts(v.sheet.at(-1).points[seat])}, ${v.sheet.at(-1).pass_pass[seat]} PP`
            + (seat === t.suggested ? ` (${T("suggested")})` : "");
          const attrs = { "data-record": `${t.team}-${seat}`,
                          onclick: () => entry("pass_pass.record", { team: t.team, seat }) };
          if (t.recorded !== null) attrs.disabled = "";
          return el("button", attrs, t.recorded === seat ? `✔ ${label} (${T("recorded")})` : label);
        })));
      }
    }
    return box;
  }

  function trick(v) {
    const box = el("div", { class: "pp-trick" });
    const last = v.last_trick;
    const showingLast = last && v.current_trick.length === 0;
    const plays = showingLast ? last.plays.map(([seat, card]) => ({ seat, card })) : v.current_trick;
    if (!plays.length) return null;
    box.append(el("div", {}, el("strong", {}, showingLast ? `${T("trick")} ${last.trick}` : T("current")), " ",
      ...plays.map((p) => el("span", {}, `${name(v, p.seat)} `, chip(v, p.card), " "))));
    if (last && (showingLast || v.phase === "first_take" || v.phase === "second_take")) {
      const colour = v.colours[last.majority][PT.lang === "fr" ? "fr" : "en"];
      box.append(el("div", {},
        el("span", { "data-testid": "pp-majority", "data-colour": last.majority }, `${T("majority")}${C()}${colour}`), " · ",
        el("span", { "data-testid": "pp-first", "data-seat": last.first }, `${T("first_winner")}${C()}${name(v, last.first)}`), " · ",
        el("span", { "data-testid": "pp-second", "data-seat": last.second }, `${T("second_winner")}${C()}${name(v, last.second)}`)));
      if (last.out.length) box.append(el("div", { class: "muted" }, `${T("out")}${C()}`, ...last.out.map((id) => chip(v, id))));
    }
    return box;
  }

  function seats(v) {
    const turn = v.prompt && v.prompt.seat;
    return el("div", { class: "pp-seats" }, ...v.seats.map((s) => {
      const marks = v.teams ? v.team_marks[s.team] : s.marks_total;
      return el("div", { class: `pp-seat${turn === s.seat ? " pp-turn" : ""}`, "data-testid": `pp-seat-${s.seat}`,
                         "data-marks": s.marks_total },
        el("div", {}, el("strong", {}, name(v, s.seat)), v.teams ? ` — ${teamName(s.team)}` : ""),
        // three circles: the Pass Pass counting towards the win (the team's, in teams)
        el("div", { class: "pp-marks", title: T("marks") }, "●".repeat(Math.min(marks, 3)) + "○".repeat(Math.max(0, 3 - marks))),
        el("div", { class: "muted" }, `${T("this_round")}${C()}${s.marks.at(-1)}`),
        el("div", { "data-testid": `pp-front-${s.seat}` }, ...s.in_front.map((id) => chip(v, id))),
        el("div", { class: "muted" }, `${PT.plural(s.in_front.length, ["carte", "cartes"], ["card", "cards"])} ${T("in_front")}, ${pts(s.points)}`));
    }));
  }

  function sheet(v) {
    const columns = v.teams ? Array.from({ length: v.team_count }, (_, t) => t) : v.seats.map((s) => s.seat);
    const head = el("tr", {}, el("th", {}, T("round")), ...columns.map((k) => el("th", {}, who(v, k))));
    const rows = v.sheet.map((line) => el("tr", {}, el("td", {}, String(line.round)), ...columns.map((k) => {
      if (!v.teams) return el("td", {}, `${pts(line.points[k])} · ${line.pass_pass[k]} PP`);
      const seat = line.recorded[k];
      return el("td", {}, seat === null ? "…" : `${pts(line.points[seat])} · ${line.pass_pass[seat]} PP (${name(v, seat)})`);
    })));
    const winners = new Set(v.over ? v.winners : []);
    const total = el("tr", {}, el("th", {}, T("total")), ...columns.map((k) => el("td", {
      class: winners.has(k) ? "pp-win" : "" }, `${pts(v.scores[k])} · ${v.pass_pass_totals[k]} PP`)));
    return el("div", {}, el("h2", { class: "pp-h" }, T("sheet")),
              el("table", { class: "sheet", "data-testid": "pp-sheet" }, head, ...rows, total));
  }

  function ranking(v) {
    if (!v.over) return null;
    return el("div", {}, el("h2", { class: "pp-h" }, T("ranking")), el("ol", { "data-testid": "pp-ranking" }, ...v.ranking.map((r) =>
      el("li", { value: r.place, class: r.winner ? "pp-first-place" : "" },
         `${who(v, r.who)} — ${pts(r.points)}, ${r.pass_pass} PP`))));
  }

  function undo(v) {
    const last = v.last_entry;
    const attrs = { "data-testid": "pp-undo",
                    onclick: () => last && PT.post("/api/undo", { seq: last.seq }).catch(() => {}) };
    if (!last) attrs.disabled = "";
    return el("p", {}, el("button", attrs, last ? `↶ ${T("undo")} (${describe(v, last.action)})` : T("nothing_to_undo")));
  }

  PT.renderers[GAME] = render;
})();
