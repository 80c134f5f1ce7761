"""Passe Éclair's pile when the camera loses sight of a card: never lost silently.

On the centre pile cards only come (a spotted card, the box and the round's end take them
away by an entry first), so what the camera loses there is a question a person answers
with one tap, never a silent miss:

* the **top card gone** while play goes on and nothing named came over it (a card laid
  squarely on it that the camera cannot outline, a hand kept over it): "which card was
  laid on it?" (those the rules allow first, then the others: a wrong card lies there too),
  or "no card"; withdrawn as soon as the camera
  sees the pile again (a card named or unnamed on it, or the top card back);
* an **unnamed card whose outline went** ("which card?" asked) stays asked unless a card
  was placed at about the time it landed (the camera named it after all): a card covered
  or lost before it got a name still lies on the pile;
* a **copy laid on its twin** looks like the same card: when the top card comes back into
  view after a hand hid it (the camera's ``again`` sighting) and a copy of it may follow it
  (a dog on a dog in play; a dog or Gros Michi turned over on its twin before play), one tap
  says whether another was laid, and by whom.

    >>> UNKNOWN_NAMED_WITHIN_S
    1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.adapter import Alert, text
from table.observations import Observation
from table.passe_eclair import ALL_CARD_IDS, DOG, MICHI, BadInput, IllegalAction, card_label

if TYPE_CHECKING:
    from table.passe_eclair.camera import PileCamera

WHICH_CARD = "camera_which_card"
TWIN = "camera_twin"
TWINS = {"playing": (DOG,), "turning": (DOG, MICHI)}   # the copies the rules let follow their twin
UNKNOWN_NAMED_WITHIN_S = 1.0   # a card placed this soon after an unnamed one landed: that card, named after all
LANDED_SLACK_S = 0.1           # a few frames between the unnamed outline's first frame and the named card's


def top_gone(cam: PileCamera, obs: Observation) -> None:
    """The camera no longer sees the pile's top card while play goes on: ask which card
    was laid on it (answered like an unnamed card's question; "no card" if none)."""
    g = cam.a.g
    card = obs.data.get("card")
    if g.phase != "playing" or g.top is None or g.top.card != card or _asked_gone(cam, card):
        return
    hands = cam.hands(obs)
    seats = hands or list(range(g.players))
    cards = sorted({c for s in seats for c in g.playable(s)})
    cards += [c for c in ALL_CARD_IDS if c not in cards]   # then the rest: a wrong card lies there too
    t = obs.data.get("left", obs.t)
    en, fr = card_label(card, "en"), card_label(card, "fr")
    cam.a.raise_alert(Alert(
        id=cam.a.new_alert_id(obs), kind=WHICH_CARD, since=obs.t, seen=dict(obs.data),
        message=text(f"The camera no longer sees {en} on top of the pile: which card was laid on it?",
                     f"La caméra ne voit plus la carte {fr} en haut de la pile : quelle carte a été posée dessus ?"),
        choices=[{"id": c, "label": text(card_label(c, "en"), card_label(c, "fr"))} for c in cards]
        + [{"id": "none", "label": text("No card", "Pas de carte")}],
        expected={"unknown": None, "gone": card, "t": t,
                  "obs": {"zone": "pile", "landed": t, "hands": hands}}))


def pile_seen(cam: PileCamera) -> None:
    """The camera sees the pile again (a card named or unnamed on it): the questions about
    a top card it had lost are withdrawn (what it sees now is placed or asked about)."""
    for alert in _gone_questions(cam):
        alert.resolved = "seen"


def unknown_named(cam: PileCamera, alert: Alert) -> bool:
    """Was the unnamed card of ``alert`` placed since (named by the camera a little later)?"""
    landed = landed_at(alert)
    return any(e.t is not None and landed - LANDED_SLACK_S <= e.t <= landed + UNKNOWN_NAMED_WITHIN_S
               for e in cam.a.g.pile)


def twin(cam: PileCamera, obs: Observation, card: str, t: float) -> bool:
    """The top card seen again after a hand hid it: if a copy may follow it, ask whether
    another was laid (True: asked, or asked already)."""
    g = cam.a.g
    if not obs.data.get("again") or g.top is None or g.top.card != card or card not in TWINS.get(g.phase, ()):
        return False
    if any(a.kind == TWIN for a in cam.a.open_alerts()):
        return True
    hands = cam.hands(obs)
    en, fr = card_label(card, "en"), card_label(card, "fr")
    if g.phase == "turning":
        choices = [{"id": "turned", "label": text(f"Yes, another {en} was turned",
                                                  f"Oui, un autre {fr} a été retourné")}]
    else:
        names_en, names_fr = cam.a._names("en"), cam.a._names("fr")
        choices = [{"id": str(s), "label": text(f"Yes, by {names_en[s]}", f"Oui, par {names_fr[s]}")}
                   for s in [*hands, *(s for s in range(g.players) if s not in hands)]]
    cam.a.raise_alert(Alert(
        id=cam.a.new_alert_id(obs), kind=TWIN, since=obs.t, seen=dict(obs.data),
        message=text(f"Was another {en} laid on the {en} on top of the pile?",
                     f"Un autre {fr} a-t-il été posé sur le {fr} en haut de la pile ?"),
        choices=[*choices, {"id": "none", "label": text("No new card", "Pas de nouvelle carte")}],
        expected={"card": card, "t": t}))
    return True


def answered_copy(cam: PileCamera, obs: Observation, card: str) -> bool:
    """A person named the top card's twin as the card laid ("which card?"): a new copy,
    unless a question about that card is still open (it is being placed already)."""
    g = cam.a.g
    return bool(obs.data.get("answered")) and g.top is not None and g.top.card == card \
        and not any(a.expected.get("card") == card for a in cam.a.open_alerts())


def resolve_twin(cam: PileCamera, alert: Alert, obs: Observation) -> None:
    """The answer to a twin question: the copy turned or placed at the time it showed."""
    card, t = alert.expected["card"], alert.expected["t"]
    try:
        if alert.resolved == "turned" and cam.a.g.phase == "turning":
            cam._apply(obs, "passe_eclair.start_card", {"card": card}, t)
        elif alert.resolved.isdigit() and cam._apply(obs, "passe_eclair.place",
                                                     {"seat": int(alert.resolved), "card": card}, t):
            cam.together.placed(cam.seats(alert.seen.get("hands")))   # the hands in when it landed
    except (IllegalAction, BadInput) as exc:
        cam.a.refuse_entry(obs, exc.en, exc.fr)


def named_later(cam: PileCamera, obs: Observation, card: str, t: float) -> bool:
    """``card`` named on the pile with no hand seen, soon after an unnamed card landed whose
    "which card?" is still open: most likely that card, named now (a glare gone), but a
    card laid by a hand the camera missed looks the same. Not placed on that guess and not
    asked about twice: the open question shows the camera's reading first (one tap), and
    this sighting is taken up as a card of its own if the answer is another card or none
    (True: kept for that question)."""
    if obs.data.get("again") or obs.data.get("answered"):
        return False
    for alert in cam.a.open_alerts():
        if alert.kind != WHICH_CARD or alert.expected.get("unknown") is None or alert.expected.get("later") \
                or not 0.0 <= t - landed_at(alert) <= UNKNOWN_NAMED_WITHIN_S:
            continue
        alert.expected["later"] = {"card": card, "data": dict(obs.data), "t": obs.t, "source": obs.source}
        alert.choices.sort(key=lambda c: c["id"] != card)
        en, fr = card_label(card, "en"), card_label(card, "fr")
        alert.message = text(f"A card was laid on the pile but not recognised at first: which card is it? "
                             f"(the camera now reads {en})",
                             f"Une carte a été posée sur la pile mais pas reconnue d'abord : laquelle est-ce ? "
                             f"(la caméra lit maintenant {fr})")
        return True
    return False


def later_sighting(cam: PileCamera, alert: Alert, obs: Observation) -> None:
    """The "which card?" kept for a card named later (:func:`named_later`) is answered:
    with that card, it is placed as the unnamed card (its hands, its landing); with another
    card or none, the later sighting is a card of its own, taken up now."""
    later = alert.expected.get("later")
    if later and alert.resolved != later["card"]:
        cam.observe(Observation(kind="card_seen", source=later["source"], t=later["t"], seq=obs.seq,
                                data=later["data"]))


def landed_at(alert: Alert) -> float:
    """When the card of a "which card?" question landed (its sighting's first frame)."""
    return alert.expected["obs"].get("landed", alert.expected["t"])


def _gone_questions(cam: PileCamera) -> list[Alert]:
    return [a for a in cam.a.open_alerts() if a.kind == WHICH_CARD and a.expected.get("gone")]


def _asked_gone(cam: PileCamera, card: Any) -> bool:
    return any(a.expected.get("gone") == card for a in _gone_questions(cam))
