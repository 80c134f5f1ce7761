// Enrolment: walk the owner through their deck, one card under the camera at a time.
"use strict";
(function () {
  const lang = document.body.dataset.lang || "fr";
  const S = {
    fr: { title: "Apprendre le jeu de cartes", deck: "Jeu", enrol: "Enregistrer cette carte",
          put: (c) => `Posez la carte ${c} seule sous la caméra, puis « Enregistrer cette carte ».`,
          done: "Toutes les cartes sont apprises : le jeu est prêt.", progress: (n, t) => `${n} / ${t} cartes apprises`,
          saved: (c) => `${c} enregistrée.`,
          held: (n) => `${n} carte${n > 1 ? "s" : ""} apprise${n > 1 ? "s" : ""} (✓*) pas encore nommée${n > 1 ? "s" : ""} en jeu : `
            + "une carte pas encore apprise pourrait leur ressembler. Apprenez davantage de cartes du jeu.",
          heldTitle: "apprise, nommée quand davantage du jeu sera appris" },
    en: { title: "Teach the deck", deck: "Deck", enrol: "Enrol this card",
          put: (c) => `Put the card ${c} alone under the camera, then press “Enrol this card”.`,
          done: "Every card is enrolled: the deck is ready.", progress: (n, t) => `${n} / ${t} cards enrolled`,
          saved: (c) => `${c} enrolled.`,
          held: (n) => `${n} enrolled card${n > 1 ? "s are" : " is"} (✓*) not named in play yet: `
            + "a card not enrolled yet may look like them. Enrol more of the deck.",
          heldTitle: "enrolled, named once more of the deck is enrolled" },
  }[lang === "en" ? "en" : "fr"];
  // A card as people say it ("violet 6", "Léon → Marlon"), never its id alone.
  const WORDS = { purple: ["violet", "purple"], blue: ["bleu", "blue"], green: ["vert", "green"],
                  yellow: ["jaune", "yellow"], orange: ["orange", "orange"], red: ["rouge", "red"],
                  leon: ["Léon", "Léon"], marlon: ["Marlon", "Marlon"], rocce: ["Rocce", "Rocce"], fabi: ["Fabi", "Fabi"],
                  vanessa: ["Vanessa", "Vanessa"], dog: ["chien", "dog"], michi: ["Gros Michi", "Gros Michi"] };
  const word = (w) => (WORDS[w] ? WORDS[w][lang === "en" ? 1 : 0] : w);
  function spoken(id) {
    const parts = String(id).split("-");
    const last = parts[parts.length - 1];
    if (/^\d+$/.test(last)) return `${parts.slice(0, -1).map(word).join(" ")} ${last}`;
    return parts.map(word).join(" → ");
  }
  const again = lang === "en" ? (c) => `${c} is already enrolled: replace its photo?`
                              : (c) => `${c} est déjà apprise : remplacer sa photo ?`;
  const lookalike = lang === "en"
    ? (seen, asked) => `The card under the camera looks like ${seen}, already enrolled. Save it as ${asked} anyway?`
    : (seen, asked) => `La carte sous la caméra ressemble à ${seen}, déjà apprise. L'enregistrer quand même comme ${asked} ?`;
  document.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = S[e.dataset.i18n]; });
  const deckSelect = document.getElementById("deck");
  let current = null;  // the card the page asks for

  async function refresh() {
    const r = await fetch(`/api/enrol?deck=${encodeURIComponent(deckSelect.value)}`);
    const st = await r.json();
    if (st.deck !== deckSelect.value) return;  // an answer for the deck shown before: stale
    const cards = document.getElementById("cards");
    cards.replaceChildren(...st.cards.map((c) => {
      const b = document.createElement("button");
      b.textContent = (c.held_back ? "✓* " : c.enrolled ? "✓ " : "") + spoken(c.card);
      b.dataset.card = c.card; b.dataset.enrolled = c.enrolled ? "1" : "0";
      b.className = c.held_back ? "enrolled held" : c.enrolled ? "enrolled" : "";
      b.title = c.held_back ? `${c.card}: ${S.heldTitle}` : c.card;
      b.onclick = () => { current = c.card; show(); };
      return b;
    }));
    const enrolled = st.cards.filter((c) => c.enrolled).length;
    document.getElementById("progress").textContent = S.progress(enrolled, st.cards.length);
    // cards enrolled but not named in play until more of the deck is (vision.ghosts.held_back)
    const held = st.cards.filter((c) => c.held_back).length;
    const note = document.getElementById("held");
    note.textContent = held ? S.held(held) : "";
    note.hidden = !held;
    if (!current || st.cards.find((c) => c.card === current && c.enrolled)) current = st.next;
    show();
  }
  function show() {
    const instruction = document.getElementById("instruction");
    instruction.replaceChildren(current ? S.put(spoken(current)) : S.done);
    if (current) {  // the card's id, small, for whoever checks the deck's files
      const id = document.createElement("small");
      id.className = "card-id";
      id.textContent = ` (${current})`;
      instruction.append(id);
    }
    document.getElementById("enrol-next").disabled = !current;
    document.querySelectorAll("#cards button").forEach((b) => b.classList.toggle("asked", b.dataset.card === current));
  }
  document.getElementById("enrol-next").addEventListener("click", async () => {
    const msg = document.getElementById("message");
    const known = document.querySelector(`#cards button[data-card="${CSS.escape(current || "")}"]`);
    if (known && known.dataset.enrolled === "1" && !window.confirm(again(spoken(current)))) return;  // never silently
    const send = (confirm) => fetch("/api/enrol", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ deck: deckSelect.value, card: current, confirm }) });
    let r = await send(false);
    let data = await r.json().catch(() => ({}));
    if (r.status === 401 && data.error && data.error.code === "pin_needed" && await window.PT.askPin()) {
      r = await send(false);  // logged in (login.js): the same tap goes through once
      data = await r.json().catch(() => ({}));
    }
    if (r.status === 409 && data.looks_like) {  // the right card in view? ask before saving
      if (!window.confirm(lookalike(spoken(data.looks_like), spoken(current)))) return;
      r = await send(true);
      data = await r.json().catch(() => ({}));
    }
    msg.textContent = r.ok ? S.saved(spoken(current)) : (data.error ? data.error[lang] || data.error.en : r.statusText);
    msg.className = r.ok ? "" : "alert-box";
    if (r.ok) {  // the saved photo, so the person sees what was kept
      const saved = document.getElementById("saved-photo");
      saved.src = `/api/enrol/${encodeURIComponent(deckSelect.value)}/${encodeURIComponent(current)}.jpg?t=${Date.now()}`;
      saved.alt = S.saved(spoken(current));
      saved.hidden = false;
      current = null;
      await refresh();
    }
  });
  deckSelect.addEventListener("change", () => { current = null; refresh(); });
  // the live picture: a new frame twice a second
  setInterval(() => { document.getElementById("camera").src = `/api/camera.jpg?t=${Date.now()}`; }, 500);
  refresh();
})();
