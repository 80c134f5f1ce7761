"""Pass Pass events (what an action caused) and their feed line in French or English.

Each event is a JSON-ready dict with a ``"type"`` and everything a feed line needs:

======================  ==================================================================
``round_started``       round, leader
``card_played``         round, trick, seat, card (id), colour, value, diamonds
``trick_resolved``      round, trick, majority (colour), ranking, first, second,
                        first_card, second_card
``card_taken``          seat, winner (``"first"``/``"second"``), cards (ids), auto
``cards_out``           cards (ids): the played cards nobody took
``pass_pass``           seat, count (this round), total (all rounds); in team mode
                        team and team_total (this count + the team's recorded ones)
``instant_win``         seat, total, team (None in individual mode)
``round_over``          round, points and pass_pass (lists, one per seat)
``member_recorded``     round, team, seat, points, pass_pass
``game_over``           winners (seats, or teams), teams (bool), by (``"pass_pass"``
                        or ``"points"``), points and pass_pass (per seat or per team)
======================  ==================================================================

    >>> e = {"type": "card_played", "round": 1, "trick": 1, "seat": 0, "card": "purple-10"}
    >>> feed_line(e, "fr"), feed_line(e, "en", names=["Ana"])
    ('Joueur 1 joue le 10 violet.', 'Ana plays purple 10.')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.pass_pass.cards import COLOUR_NAMES, Card


def _who(seat: int, lang: str, names: Sequence[str] | None) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Joueur {seat + 1}" if lang == "fr" else f"Player {seat + 1}"


def _team(team: int, lang: str) -> str:
    return f"Équipe {team + 1}" if lang == "fr" else f"Team {team + 1}"


def _cards(ids: Sequence[str], lang: str) -> str:
    names = [Card.from_id(i).name(lang) for i in ids]
    if not names:
        return "rien" if lang == "fr" else "nothing"
    joiner = " et " if lang == "fr" else " and "
    return joiner.join(names) if len(names) <= 2 else ", ".join(names[:-1]) + joiner + names[-1]


def feed_line(event: dict[str, Any], lang: str = "fr", names: Sequence[str] | None = None) -> str:
    """One sentence for the live feed. ``names`` maps seats to player names (optional)."""
    fr = lang == "fr"
    kind = event["type"]

    def who(seat: int) -> str:
        return _who(seat, lang, names)

    if kind == "round_started":
        return (f"Manche {event['round']} : {who(event['leader'])} commence." if fr
                else f"Round {event['round']}: {who(event['leader'])} leads.")
    if kind == "card_played":
        card = Card.from_id(event["card"]).name(lang)
        return f"{who(event['seat'])} joue le {card}." if fr else f"{who(event['seat'])} plays {card}."
    if kind == "trick_resolved":
        colour = COLOUR_NAMES[event["majority"]]["fr" if fr else "en"]
        return (f"Pli {event['trick']} : le {colour} est majoritaire ; {who(event['first'])} gagne, "
                f"{who(event['second'])} est second." if fr else
                f"Trick {event['trick']}: {colour} is the majority; {who(event['first'])} wins, "
                f"{who(event['second'])} is second.")
    if kind == "card_taken":
        cards = _cards(event["cards"], lang)
        return f"{who(event['seat'])} prend {cards}." if fr else f"{who(event['seat'])} takes {cards}."
    if kind == "cards_out":
        cards = _cards(event["cards"], lang)
        return f"Défaussé pour la manche : {cards}." if fr else f"Out for the round: {cards}."
    if kind == "pass_pass":
        return (f"Pass Pass pour {who(event['seat'])} ! ({event['count']} cette manche, {event['total']} en tout)"
                if fr else
                f"Pass Pass for {who(event['seat'])}! ({event['count']} this round, {event['total']} in all)")
    if kind == "instant_win":
        winner = _team(event["team"], lang) if event.get("team") is not None else who(event["seat"])
        return (f"{winner} réalise son 3e Pass Pass et gagne la partie !" if fr
                else f"{winner} makes a 3rd Pass Pass and wins the game!")
    if kind == "round_over":
        scores = ", ".join(f"{who(s)} {p}" for s, p in enumerate(event["points"]))
        return (f"Fin de la manche {event['round']} : {scores}." if fr
                else f"End of round {event['round']}: {scores}.")
    if kind == "member_recorded":
        n = event["points"]
        points = f"{n} point{'s' if (abs(n) >= 2 if fr else n != 1) else ''}"  # French: 0 and 1 singular
        return (f"{_team(event['team'], lang)} marque le score de {who(event['seat'])} : "
                f"{points}, {event['pass_pass']} Pass Pass." if fr else
                f"{_team(event['team'], lang)} records {who(event['seat'])}'s score: "
                f"{points}, {event['pass_pass']} Pass Pass.")
    if kind == "game_over":
        label = (lambda t: _team(t, lang)) if event.get("teams") else who
        winners = (" et " if fr else " and ").join(label(w) for w in event["winners"])
        if len(event["winners"]) > 1:
            return f"Victoire partagée : {winners} !" if fr else f"Shared victory: {winners}!"
        return f"{winners} remporte la partie !" if fr else f"{winners} wins the game!"
    return kind
