// The scorekeeper's lock: the table's PIN, asked by the header's lock button or on the first
// refused tap (PT.post), and the button showing whether this device may change the game.
// Shared by the table page and the enrolment page, so it needs nothing of app.js.
"use strict";
(() => {
  const WORDS = {
    fr: { title: "Code de la table", hint: "Il s'affiche sur l'écran de la table.", ok: "Valider", cancel: "Annuler",
          log_in: "Connexion", logged_in: "Connecté",
          out_hint: "Se connecter avec le code de la table pour tenir la marque",
          in_hint: "Connecté : cet appareil peut tenir la marque. Toucher pour se déconnecter." },
    en: { title: "Table PIN", hint: "It is shown on the table's own screen.", ok: "OK", cancel: "Cancel",
          log_in: "Log in", logged_in: "Logged in",
          out_hint: "Log in with the table's PIN to keep the score",
          in_hint: "Logged in: this device may keep the score. Tap to log out." },
  };
  const words = () => WORDS[document.body.dataset.lang === "en" ? "en" : "fr"];
  const send = (url, body) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify(body || {}), credentials: "same-origin" });

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...children);
    return e;
  }

  // Resolves true once the right PIN was typed (the cookie is set), false if cancelled.
  function askPin() {
    const w = words();
    return new Promise((resolve) => {
      const input = el("input", { id: "pin-input", type: "password", inputmode: "numeric", autocomplete: "off",
                                  maxlength: "12", "aria-label": w.title });
      const error = el("p", { class: "pin-error", role: "alert" });
      const cancel = el("button", { value: "cancel", type: "button", id: "pin-cancel" }, w.cancel);
      const dialog = el("dialog", { id: "pin-dialog", "aria-labelledby": "pin-title" },
        el("form", { method: "dialog" }, el("h2", { id: "pin-title" }, w.title), el("p", {}, w.hint), input, error,
           el("p", {}, cancel, " ", el("button", { value: "ok", id: "pin-ok" }, w.ok))));
      const done = (ok) => { dialog.close(); dialog.remove(); refresh(); resolve(ok); };
      cancel.addEventListener("click", () => done(false));
      dialog.addEventListener("cancel", (ev) => { ev.preventDefault(); done(false); });
      dialog.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const r = await send("/api/login", { pin: input.value });
        if (r.ok) { done(true); return; }
        const data = await r.json().catch(() => ({}));
        error.textContent = (data.error && (data.error[document.body.dataset.lang] || data.error.en)) || r.statusText;
        input.value = "";
        input.focus();
      });
      document.body.append(dialog);
      dialog.showModal();
      input.focus();
    });
  }

  // The lock button says what the table answers: logged in, not, or trusted (the Pi's own screen: no button).
  async function refresh() {
    const button = document.getElementById("login");
    if (!button) return;
    const who = await fetch("/api/login", { credentials: "same-origin" }).then((r) => r.json()).catch(() => null);
    if (!who) return;
    const w = words();
    button.hidden = who.trusted;
    button.dataset.state = who.writer ? "in" : "out";
    button.title = who.writer ? w.in_hint : w.out_hint;
    button.querySelector(".login-label").textContent = who.writer ? w.logged_in : w.log_in;
  }

  const button = document.getElementById("login");
  if (button) {
    button.addEventListener("click", async () => {
      if (button.dataset.state === "in") { await send("/api/logout"); refresh(); } else { askPin(); }
    });
    refresh();
  }
  window.PT = Object.assign(window.PT || {}, { askPin, refreshLogin: refresh });
})();
