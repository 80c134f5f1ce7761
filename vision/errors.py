"""The one shape of every vision error: a sentence in English and in French.

    >>> err = VisionError("no marker found", "aucun repère trouvé")
    >>> err.text("fr")
    'aucun repère trouvé'
"""

from __future__ import annotations


class VisionError(Exception):
    """Base of the vision package's errors; ``str(err)`` is the English sentence."""

    def __init__(self, en: str, fr: str | None = None):
        super().__init__(en)
        self.en, self.fr = en, fr or en

    def text(self, lang: str = "en") -> str:
        return self.fr if lang == "fr" else self.en
