// A small keyed DOM patcher: PT.patch(live, fresh) makes `live`'s children look like
// `fresh`'s, keeping every element that is still there (same tag, same key) instead of
// replacing it. A button under a finger, an open <select>, a choice being made or text
// being typed survive a live update; only what changed is touched.
//
// Keys: an element's data-key, id, data-testid or the data-* that names what it shows
// (card, alert, choice, field...), with its rank when siblings share it; otherwise its tag
// and rank among unkeyed siblings.
// Event handlers given to PT.el are kept in `el.__on` and copied across, so a kept
// button always runs the newest handler. Values a person sets (input/select value,
// checked, <details open>) are properties the patcher never writes on a kept element.
"use strict";
(function () {
  const KEY_ATTRS = ["data-key", "id", "data-testid", "data-card", "data-alert", "data-choice", "data-field",
                     "data-take", "data-take-low", "data-record", "data-seat", "data-option", "data-option-list",
                     "value"];
  const KEEP_ATTRS = new Set(["open"]);  // what a person toggles on a kept element

  function keyOf(node, counters) {
    if (node.nodeType !== 1) {
      const k = "#" + node.nodeType;
      counters[k] = (counters[k] || 0) + 1;
      return k + ":" + counters[k];
    }
    for (const a of KEY_ATTRS) {
      const v = node.getAttribute(a);
      if (v === null) continue;
      // siblings sharing a key (an alert's choice buttons all carry its data-alert) are told
      // apart by rank: one map entry each, so no old twin is left behind at every update
      const k = `${node.nodeName}[${a}=${v}]`;
      counters[k] = (counters[k] || 0) + 1;
      return counters[k] === 1 ? k : `${k}#${counters[k]}`;
    }
    const k = node.nodeName;
    counters[k] = (counters[k] || 0) + 1;
    return k + ":" + counters[k];
  }

  function patchAttributes(live, fresh) {
    const busy = live.dataset && live.dataset.busy;  // waiting for its answer: keep it so
    for (const { name } of [...live.attributes]) {
      if (fresh.hasAttribute(name) || KEEP_ATTRS.has(name)) continue;
      if (busy && (name === "aria-disabled" || name === "data-busy")) continue;
      live.removeAttribute(name);
    }
    for (const { name, value } of [...fresh.attributes]) {
      if (KEEP_ATTRS.has(name) && live.__seen) continue;
      if (live.getAttribute(name) !== value) live.setAttribute(name, value);
    }
    live.__on = fresh.__on;
    for (const type of Object.keys(fresh.__on || {})) live.addEventListener(type, window.PT.dispatch);
    live.__seen = true;
  }

  function patchChildren(live, fresh) {
    const oldByKey = new Map();
    const counters = {};
    for (const child of [...live.childNodes]) oldByKey.set(keyOf(child, counters), child);
    const freshCounters = {};
    let cursor = live.firstChild;
    for (const child of [...fresh.childNodes]) {
      const key = keyOf(child, freshCounters);
      const old = oldByKey.get(key);
      let node;
      if (old && old.nodeName === child.nodeName) {
        oldByKey.delete(key);
        if (child.nodeType === 1) patchNode(old, child);
        else if (old.nodeValue !== child.nodeValue) old.nodeValue = child.nodeValue;
        node = old;
      } else {
        node = child;  // new: moved over from the fresh tree as it is
      }
      if (node !== cursor) live.insertBefore(node, cursor);
      else cursor = cursor.nextSibling;
    }
    for (const gone of oldByKey.values()) gone.remove();
  }

  function patchNode(live, fresh) {
    patchAttributes(live, fresh);
    patchChildren(live, fresh);
  }

  window.PT = window.PT || {};
  // Patch `live`'s children to match `fresh`'s (the children of `fresh` may be moved).
  window.PT.patch = function patch(live, fresh) { patchChildren(live, fresh); };
})();
