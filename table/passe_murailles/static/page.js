// Passe-Murailles: the frame drawn live (slides with their holes, pegs, the board).
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const CELL = 44, MARGIN = 3;
  const COLOURS = { red: "#d62828", blue: "#1d4ed8" };
  function svg(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function render(state, root) {
    const v = state.view, W = v.columns;
    // room for every hole of every slide, wherever the slides stand, plus a label column
    const lo = Math.min(-MARGIN, ...v.slides.flatMap((sl) => sl.holes)) - 1;
    const hi = Math.max(W - 1 + MARGIN, ...v.slides.flatMap((sl) => sl.holes)) + 1;
    const LABEL = 64;
    const x = (c) => LABEL + (c - lo) * CELL + CELL / 2;
    const slideY = (n) => 48 + (n - 1) * 52;
    const boardY = slideY(6) + 60;
    const width = LABEL + (hi - lo + 1) * CELL, height = boardY + 110;
    const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "Passe-Murailles" });
    // frame window
    s.append(svg("rect", { x: x(0) - CELL / 2 - 4, y: 8, width: W * CELL + 8, height: slideY(6) + 40,
                           fill: "#eee", stroke: "#555", "stroke-width": 3, rx: 6 }));
    for (let c = 0; c < W; c++) {
      const open = v.open_columns.includes(c);
      s.append(svg("text", { x: x(c), y: 20, "text-anchor": "middle", "font-size": 12,
                             fill: open ? "#e85d04" : "#777" }, String(c + 1)));
    }
    for (const slide of v.slides) {
      const y = slideY(slide.number);
      const lo = Math.min(0, ...slide.holes) - 1, hi = Math.max(W - 1, ...slide.holes) + 1;
      s.append(svg("rect", { x: x(lo) - CELL / 2 + 4, y: y - 14, width: (hi - lo + 1) * CELL - 8, height: 28,
                             fill: "#fafafa", stroke: "#999", rx: 4, class: "slide", "data-slide": slide.number,
                             "data-offset": slide.offset }));
      s.append(svg("text", { x: 12, y: y + 5, "font-size": 13, fill: "#333" },
                   `${slide.number} (${slide.offset > 0 ? "+" : ""}${slide.offset})`));
      for (const h of slide.holes) {
        const inside = h >= 0 && h < W;
        s.append(svg("circle", { cx: x(h), cy: y, r: 11, fill: inside ? "#444" : "#bbb" }));
      }
    }
    const onBoard = {};
    for (const p of v.pegs) {
      if (p.where === "frame") {
        s.append(svg("circle", { cx: x(p.column), cy: slideY(p.slide), r: 9, fill: COLOURS[p.colour],
                                 class: "peg", "data-peg": p.id }));
      } else if (p.where === "board") {
        (onBoard[p.column] = onBoard[p.column] || []).push(p);
      }
    }
    // board: the section scores under each column at the current position
    const row = v.board.sections[String(v.board.position)] || [];
    s.append(svg("text", { x: 12, y: boardY - 8, "font-size": 13 }, `${PT.t("board")} : ${v.board.position}`));
    for (let c = 0; c < W; c++) {
      s.append(svg("rect", { x: x(c) - CELL / 2 + 2, y: boardY, width: CELL - 4, height: 40,
                             fill: row[c] ? "#ffe8a3" : "#ddd", stroke: "#777" }));
      s.append(svg("text", { x: x(c), y: boardY + 26, "text-anchor": "middle", "font-size": 18,
                             "font-weight": "bold" }, String(row[c] ?? "")));
      (onBoard[c] || []).forEach((p, i) => s.append(svg("circle", {
        cx: x(c) - 12 + (i % 4) * 8, cy: boardY + 52 + Math.floor(i / 4) * 8, r: 4, fill: COLOURS[p.colour] })));
    }
    root.replaceChildren(status(v), s);
  }
  function status(v) {
    const box = PT.el("div", { class: "pm-status" });
    const scores = PT.el("div", { class: "scores" });
    for (const c of ["red", "blue"]) {
      scores.append(PT.el("div", { class: `score ${c}${v.current_player === c ? " turn" : ""}`,
                                   "data-testid": `score-${c}` },
        `${PT.t(c)} ${v.scores[c]}`, PT.el("small", {}, ` (${v.in_hand[c]} ${PT.t("in_hand")})`),
        (v.pending && v.pending[c]) ? PT.el("small", { class: "pending", "data-testid": `pending-${c}` },
          ` +${v.pending[c]} ${PT.lang === "fr" ? "en attente" : "pending"}`) : ""));
    }
    box.append(scores);
    if (v.over) {
      const w = v.winners.length === 2 ? PT.t("draw") : `${PT.t("winner")} : ${PT.t(v.winners[0])}`;
      box.append(PT.el("p", { class: "winner", "data-testid": "winner" }, w));
    } else if (v.current_player) {
      box.append(PT.el("p", { "data-testid": "turn" }, `${PT.t("to_play")} : ${PT.t(v.current_player)}`));
    }
    if (v.bot) box.append(PT.el("p", { class: "bot-say", "data-testid": "bot-say", role: "status" }, PT.tx(v.bot.say)));
    if (v.hints && !v.over) box.append(hintBox(v));
    return box;
  }
  // The hint button (when the game's "hints" option is on): the best move and what each
  // move gives the opponent, kept until the position changes.
  let hinted = { moves: -1, data: null };
  function hintBox(v) {
    const fr = PT.lang === "fr";
    const button = PT.el("button", { class: "hint", "data-testid": "hint-button", onclick: async () => {
      button.disabled = true;
      try {
        const r = await fetch("/api/hint");
        if (r.ok) hinted = { moves: v.moves, data: await r.json() };
      } finally { button.disabled = false; }
      if (PT.state) render(PT.state, document.getElementById("table-view"));
    } }, fr ? "Conseil" : "Hint");
    const box = PT.el("div", { class: "hint-box" }, button);
    if (hinted.moves === v.moves && hinted.data) {
      box.append(PT.el("p", { "data-testid": "hint" }, PT.tx(hinted.data.say)));
      const risky = hinted.data.threats.filter((t) => t.danger > 0).slice(0, 3);
      if (risky.length) box.append(PT.el("ul", { class: "threats" }, ...risky.map((t) => PT.el("li", {}, PT.tx(t.say)))));
    }
    return box;
  }
  PT.renderers["passe-murailles"] = render;
})();
