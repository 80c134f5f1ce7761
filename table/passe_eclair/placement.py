"""What may be placed on the top card of the centre pile (RULINGS.md §3), as a pure test.

    >>> can_place("leon-marlon", "marlon-fabi", by=1, top_placed_by=0, players=3)
    True
    >>> can_place("leon-marlon", "marlon-fabi", by=0, top_placed_by=0, players=3)
    False

* On a footballer card X → Y: a footballer card whose big footballer is Y, by anyone
  but the player who placed the top card (None for a start card) — except at 2 players,
  where a player may chain.
* A dog: on anything, by anyone.
* On a dog: any card, by anyone, including the dog's own player straight away.
* A Gros Michi: only directly on a dog here. "When no one can play" is decided by the
  engine, which knows every hand.
* Nothing but a dog goes on a Gros Michi (it shows no one to pass to).
"""

from __future__ import annotations

from table.rules import IllegalAction

from .cards import FOOTBALLER_NAMES, card_label, parse_card, validate_players


def refusal_code(top: str, card: str, *, by: int, top_placed_by: int | None, players: int) -> str | None:
    """The code of the rule ``card`` on ``top`` breaks, or None (fast: builds no message)."""
    top_card, new = parse_card(top), parse_card(card)
    validate_players(players)
    if new.kind == "dog" or top_card.kind == "dog":
        return None
    if new.kind == "michi":
        return "michi_not_on_dog"
    if top_card.kind == "michi":
        return "nothing_on_michi"
    if new.big != top_card.small:
        return "wrong_footballer"
    if players > 2 and top_placed_by is not None and by == top_placed_by:
        return "own_card"
    return None


def _refusal(code: str, top: str) -> IllegalAction:
    if code == "michi_not_on_dog":
        return IllegalAction(
            "A Gros Michi may only go directly on a dog, or when no one can play.",
            "Le Gros Michi ne se pose que directement sur un chien, ou quand personne ne peut jouer.", code=code)
    if code == "nothing_on_michi":
        return IllegalAction("Only a dog may go on a Gros Michi.",
                             "Seul un chien peut se poser sur le Gros Michi.", code=code)
    if code == "wrong_footballer":
        who = FOOTBALLER_NAMES[parse_card(top).small]
        return IllegalAction(
            f"On {card_label(top, 'en')} the ball goes to {who}: only a card with {who} big may follow.",
            f"Sur {card_label(top, 'fr')} la balle va à {who} : seule une carte avec {who} en grand peut suivre.",
            code=code)
    return IllegalAction(
        "You placed the top card: another player must place a card before your next footballer card.",
        "Vous avez posé la carte du dessus : un autre joueur doit poser une carte avant votre "
        "prochaine carte footballeur.", code=code)


def placement_problem(top: str, card: str, *, by: int, top_placed_by: int | None,
                      players: int) -> IllegalAction | None:
    """Why ``card`` may not go on ``top`` (an :class:`IllegalAction` to raise or show,
    bilingual), or None when it may. Bad ids or player counts raise ``BadInput``."""
    code = refusal_code(top, card, by=by, top_placed_by=top_placed_by, players=players)
    return None if code is None else _refusal(code, top)


def can_place(top: str, card: str, *, by: int, top_placed_by: int | None, players: int) -> bool:
    """True when ``card`` may be placed on ``top`` by seat ``by`` (pure, see module doc)."""
    return refusal_code(top, card, by=by, top_placed_by=top_placed_by, players=players) is None
