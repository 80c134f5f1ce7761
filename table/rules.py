"""The small shape every rules engine follows (think python-chess's Board).

An engine's game object offers ``legal_actions()``, ``apply(action)`` (which raises
:class:`IllegalAction` with a sentence a player understands and changes nothing),
``is_over()``, ``scores()``, ``winners()`` and ``to_dict()`` / ``from_dict()``.
Engines are pure: no I/O, no clock, randomness only through an injected seeded RNG.

Messages are given in both languages: ``IllegalAction(en, fr)``; ``str(exc)`` is the
English sentence, ``exc.fr`` the French one, ``exc.text(lang)`` either.
"""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules forbid; nothing was changed."""

    def __init__(self, en: str, fr: str | None = None, *, code: str = "illegal"):
        super().__init__(en)
        self.en = en
        self.fr = fr if fr is not None else en
        self.code = code

    def text(self, lang: str = "fr") -> str:
        return self.fr if lang == "fr" else self.en


class ProfileError(ValueError):
    """A profile (game geometry, deck, layout) that cannot be used, with the reason."""
