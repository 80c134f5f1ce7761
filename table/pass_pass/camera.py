"""Pass Pass from the camera: ``card_seen`` / ``card_gone`` facts → rule-checked plays and takes.

The camera (``vision/pipeline.py``) reports a card once it has lain still in a zone of the
table profile (``trick``, ``seat1`` … ``seat6``; seat ``i`` of the game sits behind zone
``seat{i+1}``). What it means follows from the rules, not from the camera:

* a card laid in the ``trick`` zone while the game waits for a play is the play of the
  player whose turn it is (the engine knows the order);
* a card leaving the trick zone while the trick is being taken, with a card coming to rest
  in a seat's zone just before (``TAKE_WINDOW``), is a take by that seat: the first winner's
  choice, then the second winner's lowest cards (once the cards taken make one of the
  allowed sets; a forced take is applied by the engine already, and the camera only checks
  the cards went to the right seat). The card's name comes from the trick (each was named
  while it lay there, or tapped when it could not be), the seat from where a card came to
  rest: named there as that card, or unnamed (a pile's top read badly). Two seats at once →
  "who took it?"; no seat yet → the card waits a ``TAKE_WINDOW`` for a card coming to rest at
  one seat (the taker's pile is often named or found unnamed a little after the card left the
  trick), and only then, with still no seat, asks "who took it?". A card named at a seat as a
  card still lying in the trick is that card on its way (its ``card_gone`` comes a few frames
  later) until it has stayed in the trick a whole window: only then is it a misread of the
  pile's top, the seat of the card that left around it. A take seen at a seat whose turn has
  not come while an earlier take is unplaced waits for it (no "wrong taker" alert for a
  take the camera has not placed yet); a card laid in the trick while a take is unplaced (the
  players have moved on) asks "who took it?" at once and is played once it is answered,
  never refused as laid too early. The wait ends on the next fact or on a
  ``tick`` (the adapter's ``next_deadline()``; the camera's frame timer submits it, see
  ``hardware/camera.py`` ``FrameTimer``), so a question never shows for a moment only to be
  withdrawn, and a replay asks at the same place;
* in team mode, the member a team records is chosen by itself when one member has both
  the most points and the most Pass Pass; otherwise a one-tap question asks.

What the rules do not allow raises an alert saying what to put back (a card already played
this round, a card laid while the trick is being taken, a take by the wrong seat, a card
that did not come from the trick). What the camera is unsure of — a card that came to rest
half off every zone while a play is awaited, or a whole card it cannot name laid in the
trick (``card_unknown``: "which card did <player> play?", the legal cards and "no card") —
becomes a question with one-tap answers, never a guess. ``card_gone`` facts change nothing
(cards are gathered at the end of each round, and the cards nobody took leave the trick).

    >>> from table.pass_pass.adapter import PassPassAdapter
    >>> start = Observation.now("game_start", source="t", game="pass-pass", options={"players": 3})
    >>> pp = PassPassAdapter(start)
    >>> pp.observe(Observation.now("card_seen", source="camera", card="blue-7", zone="trick"))
    >>> pp.view()["current_trick"]
    [{'seat': 0, 'card': 'blue-7'}]
    >>> pp.observe(Observation.now("card_seen", source="camera", card="blue-7", zone="trick"))   # the same card: seen
    >>> pp.observe(Observation.now("card_seen", source="camera", card="green-2", zone="seat3"))
    >>> [a.kind for a in pp.open_alerts()]
    ['camera_not_from_trick']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.adapter import Alert, looks_like, text
from table.observations import (
    CARD_GONE,
    CARD_KINDS,
    CARD_SEEN,
    CARD_UNKNOWN,
    CARD_UNKNOWN_GONE,
    Observation,
)
from table.pass_pass import IllegalAction, InvalidInput, PlayCard, RecordMember, feed_line
from table.pass_pass.camera_takes import TAKE_PHASES, TAKE_WINDOW, TRICK_ZONE, TakeReading
from table.pass_pass.cards import Card
from table.timers import TICK

if TYPE_CHECKING:  # the adapter imports this module
    from table.pass_pass.adapter import PassPassAdapter

CAMERA_KINDS = CARD_KINDS | {TICK}   # a tick: the clock passed a take window (only its time matters)
UNKNOWN_QUESTION = "camera_unknown_question"
NO_CARD = {"id": "none", "label": text("No card", "Pas de carte")}
DONE = [{"id": "done", "label": text("Done", "C'est fait")}]
# Alerts this module raises; a resolve naming one of the questions acts on its answer.
QUESTION_KINDS = frozenset({"camera_play_question", "camera_record_question", "camera_take_question",
                            "camera_order_question", UNKNOWN_QUESTION})


def seat_of_zone(zone: Any, players: int) -> int | None:
    """The seat whose cards lie in ``zone`` (``"seat1"`` is seat 0), or None.

        >>> seat_of_zone("seat2", 4), seat_of_zone("seat5", 4), seat_of_zone("trick", 4)
        (1, None, None)
    """
    if isinstance(zone, str) and zone.startswith("seat") and zone[4:].isdigit():
        seat = int(zone[4:]) - 1
        return seat if 0 <= seat < players else None
    return None


class CameraReader(TakeReading):
    """The camera half of :class:`~table.pass_pass.adapter.PassPassAdapter` (it keeps
    the cards seen in the second winner's zone until they make an allowed set; the takes
    are read by :class:`~table.pass_pass.camera_takes.TakeReading`)."""

    def __init__(self, adapter: PassPassAdapter, feed_kinds: dict[str, str]):
        self.a, self.feed_kinds = adapter, feed_kinds
        self.low_seen: list[str] = []     # cards seen arriving at the second winner's seat this trick
        self.last_round: dict[str, int] = {}   # card -> seat it went to in the round just finished
        self.last_play: dict[str, Any] | None = None   # the latest camera play: its frame time, the game before it
        self.in_trick: set[str] = set()      # the cards the camera holds in the trick zone now
        self.unknown_cards: dict[Any, str] = {}   # an unnamed trick card's id -> the card a tap said it is
        # a card that came to rest at a seat during a take, not yet matched with a card leaving
        # the trick: (seat, frame time, the name read there or None, a name not from the trick)
        self.arrivals: list[tuple[int, float, str | None, str | None]] = []
        # trick cards that left during a take with no seat seen yet: (card id, frame time);
        # "who took it?" is asked once TAKE_WINDOW has passed with no card coming to rest at a seat
        self.unseen: list[tuple[str, float]] = []
        # takes seen at a seat whose turn has not come while an earlier take is still unplaced
        # (a card that left unseen, or asked about): (the fact, card id, seat), placed after it
        self.held: list[tuple[Observation, str, int]] = []
        # cards laid in the trick while a take is unplaced (the table has moved on): played after it
        self.held_plays: list[Observation] = []

    def next_deadline(self) -> float | None:
        """When a ``tick`` must come if no fact does: the end of the take window of a card
        that left unseen, or of a card named at a seat that no card leaving the trick matched."""
        times = [t for _, t in self.unseen] + [t for _, t, _, foreign in self.arrivals if foreign is not None]
        return min(times) + TAKE_WINDOW if times else None

    # ------------------------------------------------------------------ helpers
    def _name(self, seat: int, lang: str) -> str:
        return self.a.name(seat, lang)

    def _card(self, card_id: str):
        return self.a.g.deck.canonical(Card.from_id(card_id))

    def _alert(self, obs: Observation, kind: str, en: str, fr: str, *, choices=None, expected=None) -> None:
        self.a.raise_alert(Alert(id=self.a.new_alert_id(obs), kind=kind, since=obs.t, message=text(en, fr),
                                 seen=dict(obs.data), expected=expected, choices=choices or DONE))

    def apply(self, action, obs: Observation) -> None:
        """Apply ``action`` as the adapter applies an entry (feed lines, undo button)."""
        g = self.a.g
        round_before = g.round
        fronts = {c.id: s for s in range(g.players) for c in g.in_front(s)}
        outcome = g.apply(action)
        for event in outcome.events:
            if event["type"] == "card_taken":
                fronts.update({c: event["seat"] for c in event["cards"]})
        if g.round != round_before or g.is_over():
            self.last_round = fronts   # their late sightings at these seats are not news
        self.a.actions.append(action)
        self.a.entry_seqs.append(obs.seq)
        for event in outcome.events:
            self.a.say(obs.t, feed_line(event, "en", self.a._names("en")), feed_line(event, "fr", self.a._names("fr")),
                       kind=self.feed_kinds.get(event["type"], "info"), seq=obs.seq)
        if self.a.g.phase != "second_take":
            self.low_seen = []
        if self.a.g.phase == "record":
            self._record_obvious(obs)

    # ------------------------------------------------------------------ facts
    def observe(self, obs: Observation) -> None:
        self._observe(obs)
        self._replay_held()

    def _observe(self, obs: Observation) -> None:
        self._expire(obs)
        if obs.kind == CARD_SEEN and obs.data.get("zone") == TRICK_ZONE and isinstance(obs.data.get("card"), str):
            self.in_trick.add(obs.data["card"])
        if obs.kind == CARD_GONE and obs.data.get("zone") == TRICK_ZONE:
            self.in_trick.discard(str(obs.data.get("card")))
        if obs.kind == CARD_GONE and not self.a.g.is_over():
            self._gone(obs)
        if obs.kind in (CARD_UNKNOWN, CARD_UNKNOWN_GONE):
            self._unknown(obs)
            return
        if obs.kind != CARD_SEEN or self.a.g.is_over():
            return
        card_id, zone = obs.data.get("card"), obs.data.get("zone")
        try:
            card = self._card(card_id) if isinstance(card_id, str) else None
        except (InvalidInput, ValueError, KeyError):
            card = None
        if card is None:
            return   # not a Pass Pass card (another deck on the table): nothing to score
        seat = seat_of_zone(zone, self.a.g.players)
        if zone == TRICK_ZONE:
            self._in_trick(obs, card)
        elif seat is not None:
            self._seen_at_seat(obs, card, seat)
        elif zone is None and self.a.g.phase == "play" and card not in self.a.g.seen_this_round():
            to_act = self.a.g.to_act
            self._alert(obs, "camera_play_question",
                        f"The camera saw {card.name('en')} half off the trick zone. Did "
                        f"{self._name(to_act, 'en')} play it?",
                        f"La caméra a vu la carte {card.name('fr')} à moitié hors du pli. "
                        f"{self._name(to_act, 'fr')} l'a-t-il jouée ?",
                        choices=[{"id": "played", "label": text("Yes, played", "Oui, jouée")},
                                 {"id": "not_played", "label": text("No", "Non")}],
                        expected={"card": card.id, "seat": to_act})

    def _answered_by_camera(self, card_id: str) -> None:
        self.unseen = [u for u in self.unseen if u[0] != card_id]
        for alert in self.a.open_alerts():
            if alert.kind == "camera_take_question" and alert.expected["card"] == card_id:
                alert.resolved = "seen"

    # ------------------------------------------------------------------ unnamed cards
    def _unknown(self, obs: Observation) -> None:
        """A whole card the camera cannot name laid in the trick while a play is awaited:
        ask which card, never guess; withdrawn when it leaves or gets a name. At a seat it
        asks nothing: a trick card leaving unseen already asks who took it (``_gone``), and
        a pile's top card that flickers unnamed is no news."""
        g, unknown = self.a.g, obs.data.get("unknown")
        if obs.kind == CARD_UNKNOWN_GONE:
            for alert in self.a.open_alerts():
                if alert.kind == UNKNOWN_QUESTION and alert.expected.get("unknown") == unknown:
                    alert.resolved = "gone"   # named since (its card_seen did the move) or taken back
            card = self.unknown_cards.pop(unknown, None)   # a tapped card left the trick (not renamed there)
            if card is not None and obs.data.get("zone") == TRICK_ZONE and card not in self.in_trick \
                    and not g.is_over():
                self._left_trick(obs, self._card(card))
            return
        seat = seat_of_zone(obs.data.get("zone"), g.players)
        if seat is not None and g.phase in TAKE_PHASES:
            self._arrived(obs, seat, None)   # an unnamed card came to rest at a seat: maybe the take
            return
        if g.is_over() or obs.data.get("zone") != TRICK_ZONE or g.phase != "play":
            return
        seat = g.to_act
        # the engine's legal plays: the hand if known, else the cards not seen this round
        cards = {c.id: c for c in (self._card(a.card if isinstance(a.card, str) else a.card.id)
                                   for a in g.legal_actions())}
        ids, hint_en, hint_fr = looks_like(list(cards), obs.data.get("like"), lambda c, lang: cards[c].name(lang))
        self._alert(obs, UNKNOWN_QUESTION,
                    f"A card was laid but not recognised: which card did {self._name(seat, 'en')} play?" + hint_en,
                    f"Une carte a été posée mais pas reconnue : quelle carte {self._name(seat, 'fr')} a-t-il jouée ?"
                    + hint_fr,
                    choices=[{"id": c, "label": text(cards[c].name("en"), cards[c].name("fr"))} for c in ids]
                    + [NO_CARD], expected={"unknown": unknown, "seat": seat})

    def _in_trick(self, obs: Observation, card) -> None:
        g = self.a.g
        if card in g.table_cards:
            return   # already played (typed on the page, or seen again after a hand passed over it)
        if g.phase in TAKE_PHASES and self._pending_take():
            # the table has moved on to the next trick: the take it has not placed is asked now, the
            # card played once it is answered
            if not any(h.data.get("card") == card.id for h in self.held_plays):
                self.held_plays.append(obs)
            self._decide_unseen(obs, list(self.unseen), waited=False)
            return
        if g.phase != "play":
            self._alert(obs, "camera_extra_card",
                        f"{card.name('en')} was laid in the trick before it was taken: take it back "
                        f"({self._waiting('en')}).",
                        f"La carte {card.name('fr')} a été posée avant que le pli soit pris : reprenez-la "
                        f"({self._waiting('fr')}).")
            return
        last = self.last_play
        if last is not None and last["t"] == obs.t and self.a.actions and self.a.actions[-1] == last["action"]:
            self._same_moment(obs, last, card)
            return
        saved = g.to_dict()
        try:
            self.apply(PlayCard(g.to_act, card.id), obs)
            self.last_play = {"t": obs.t, "action": self.a.actions[-1], "before": saved}
        except (IllegalAction, InvalidInput):
            self._alert(obs, "camera_card_seen_twice",
                        f"{card.name('en')} was already played this round: take it back.",
                        f"La carte {card.name('fr')} a déjà été jouée cette manche : reprenez-la.")

    def _same_moment(self, obs: Observation, last: dict[str, Any], card) -> None:
        """Two cards confirmed by the same frame: the camera cannot say which was laid
        first, so the first one is taken back from the game and a question asks."""
        from table.pass_pass.game import Game

        played = last["action"].card
        first = self._card(played if isinstance(played, str) else played.id)
        self.a.g = Game.from_dict(last["before"])
        self.a.actions.pop()
        self.a.entry_seqs.pop()
        self.last_play = None
        seat = self.a.g.to_act
        nxt = (seat + 1) % self.a.g.players
        self._alert(obs, "camera_order_question",
                    f"{first.name('en')} and {card.name('en')} were laid at the same moment. Which did "
                    f"{self._name(seat, 'en')} play (the other is {self._name(nxt, 'en')}'s)?",
                    f"Les cartes {first.name('fr')} et {card.name('fr')} ont été posées en même temps. Laquelle "
                    f"{self._name(seat, 'fr')} a-t-il jouée (l'autre est celle de {self._name(nxt, 'fr')}) ?",
                    choices=[{"id": c.id, "label": text(c.name("en"), c.name("fr"))} for c in (first, card)],
                    expected={"seat": seat, "cards": [first.id, card.id]})
        self.a.say(obs.t, f"Play of {first.name('en')} set aside until the page says the order.",
                   f"Carte {first.name('fr')} mise de côté en attendant l'ordre.", seq=obs.seq)

    def _waiting(self, lang: str) -> str:
        g = self.a.g
        who = self._name(g.to_act, lang) if g.to_act is not None else ""
        if g.phase == "first_take":
            return f"{who} takes a card first" if lang == "en" else f"{who} prend d'abord une carte"
        if g.phase == "second_take":
            return f"{who} takes the lowest cards" if lang == "en" else f"{who} prend les cartes les plus faibles"
        return "the round is being recorded" if lang == "en" else "la manche est en cours d'inscription"

    # ------------------------------------------------------------------ team record
    def _record_obvious(self, obs: Observation) -> None:
        """Record each team's member when one member leads on both points and Pass Pass;
        ask otherwise."""
        g = self.a.g
        line = g.round_scores[-1]
        for team in range(g.team_count):
            if g.phase != "record" or line.recorded[team] is not None:
                continue
            members = g.members(team)
            best = [m for m in members if all(line.points[m] >= line.points[o] and line.pass_pass[m]
                                              >= line.pass_pass[o] for o in members)]
            if best:
                self.apply(RecordMember(team, best[0]), obs)
                line = g.round_scores[-1] if g.round_scores else line
                continue
            self._alert(obs, "camera_record_question",
                        f"Team {team + 1}: whose round do you record?", f"Équipe {team + 1} : quel score inscrire ?",
                        choices=[{"id": str(m), "label": text(
                            f"{self._name(m, 'en')}: {line.points[m]} pts, {line.pass_pass[m]} Pass Pass",
                            f"{self._name(m, 'fr')} : {line.points[m]} pts, {line.pass_pass[m]} Pass Pass")}
                            for m in members], expected={"team": team})

    # ------------------------------------------------------------------ answers
    def resolve(self, obs: Observation) -> bool:
        """Act on the answer to one of this module's questions; False if the alert is not one."""
        alert = self.a.find_alert(str(obs.data.get("alert")))
        if alert is None or alert.kind not in QUESTION_KINDS:
            return False
        alert.resolved = str(obs.data.get("choice"))
        try:
            if alert.kind == "camera_play_question" and alert.resolved == "played":
                card, seat = alert.expected["card"], alert.expected["seat"]
                if self.a.g.phase == "play" and self.a.g.to_act == seat:
                    self.apply(PlayCard(seat, card), obs)
            elif alert.kind == "camera_order_question" and alert.resolved in alert.expected["cards"]:
                seat = alert.expected["seat"]
                other = next(c for c in alert.expected["cards"] if c != alert.resolved)
                if self.a.g.phase == "play" and self.a.g.to_act == seat:
                    self.apply(PlayCard(seat, alert.resolved), obs)
                    self.apply(PlayCard(self.a.g.to_act, other), obs)
            elif alert.kind == "camera_take_question" and alert.resolved != "back":
                seat = seat_of_zone(alert.resolved, self.a.g.players)
                if seat is not None:
                    self._at_seat(obs, self._card(alert.expected["card"]), seat)
            elif alert.kind == UNKNOWN_QUESTION and alert.resolved != NO_CARD["id"]:
                seat = alert.expected["seat"]
                self.unknown_cards[alert.expected["unknown"]] = alert.resolved
                if self.a.g.phase == "play" and self.a.g.to_act == seat:
                    self.apply(PlayCard(seat, alert.resolved), obs)
            elif alert.kind == "camera_record_question" and alert.resolved.isdigit():
                self.apply(RecordMember(alert.expected["team"], int(alert.resolved)), obs)
        except (IllegalAction, InvalidInput) as exc:
            self.a.refuse_entry(obs, exc.en, exc.fr)
        self._replay_held()
        return True
