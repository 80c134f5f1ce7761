"""The enrolment desk: the live camera and the deck models, for the dashboard's
enrolment page (``web/enrol.py`` talks to it without importing vision).

    >>> from vision.sources import VideoCaptureSource
    >>> desk = EnrolmentDesk(VideoCaptureSource(0), "data/models")  # doctest: +SKIP
    >>> desk = simulated_desk(tmp_path / "models", clock=lambda: 0.0)  # the simulated camera instead
    >>> desk.status("pass-pass")["next"]
    'purple-1'
    >>> desk.enrol("pass-pass", "purple-1")   # the card under the camera now
    {'deck': 'pass-pass', 'card': 'purple-1', 'saved': True, 'enrolled': 1, 'of': 48}
    >>> desk.status("pass-pass")["next"]
    'purple-2'

Each deck's model lives in ``<models_dir>/<deck>``, the same folder ``passetable
enroll --out`` writes and ``passetable recognize --model`` reads.
"""

from __future__ import annotations

import threading
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import features
from vision.decks import deck_card_ids
from vision.enrol import EnrolmentError, describe_photo, enrol_frame, enrolment_status
from vision.model import CardModel
from vision.sources import FrameSource, RenderedSource

SAME_CARD = 0.995  # descriptor likeness of a card photographed again where it lay


class EnrolmentDesk:
    """Reads the camera on demand (one frame per request: enrolment is slow work for a
    person, not a video stream) and keeps one model folder per deck."""

    def __init__(self, source: FrameSource, models_dir: str | Path):
        self.source = source
        self.models_dir = Path(models_dir)
        self._lock = threading.Lock()  # one camera, one reader at a time
        self.asked: str | None = None  # the card the page last asked for (the simulated camera shows it)

    def model_dir(self, deck: str) -> Path:
        return self.models_dir / deck

    def frame(self) -> np.ndarray | None:
        with self._lock:
            f = self.source.read()
        return None if f is None else f.image

    def snapshot_jpeg(self) -> bytes | None:
        image = self.frame()
        if image is None:
            return None
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None

    def status(self, deck: str) -> dict[str, Any]:
        status = enrolment_status(self.model_dir(deck), deck)
        self.asked = status["next"]
        return status

    def enrol(self, deck: str, card: str, *, confirm: bool = False) -> dict[str, Any]:
        """Save the card in view as ``card``. Unless ``confirm``, a card in view that looks
        like another card already enrolled is not saved: the answer says which one
        (``{"looks_like": card, "confidence"}``) and the page asks the person."""
        self.asked = card
        image = self.frame()
        if image is None:
            raise EnrolmentError("The camera gives no picture.", "La caméra ne donne pas d'image.")
        if not confirm:
            seen = self.looks_like(deck, image)
            if seen is not None and seen[0] != card:
                return {"deck": deck, "card": card, "saved": False, "looks_like": seen[0], "confidence": seen[1]}
        model = enrol_frame(image, card, self.model_dir(deck), deck=deck)
        return {"deck": deck, "card": card, "saved": True, "enrolled": len(model.cards),
                "of": len(deck_card_ids(deck))}

    def looks_like(self, deck: str, image: np.ndarray) -> tuple[str, float] | None:
        """The enrolled card the photo in view *is* (the person forgot to change the card:
        the same card, lying as it was, matches its template to within ``SAME_CARD``), or
        None. Two different faces of a deck stay below it (a 1 and a 2 of one colour: 0.992
        on the synthetic deck), so sibling cards are not taken for one another."""
        path = self.model_dir(deck)
        if not (path / "model.json").exists():
            return None
        model = CardModel.load(path)
        if not model.cards:
            return None
        try:
            descriptor, flat = describe_photo(image)
        except EnrolmentError:
            return None  # enrol() says why the photo cannot be used
        turned = features.describe(np.ascontiguousarray(flat[::-1, ::-1]))  # the same card turned half round
        scores = np.maximum(model.templates @ np.asarray(descriptor, np.float32).reshape(-1),
                            model.templates @ np.asarray(turned, np.float32).reshape(-1))
        best = int(np.argmax(scores))
        confidence = float(scores[best])
        return (model.cards[best], round(confidence, 4)) if confidence >= SAME_CARD else None

    def face_jpeg(self, deck: str, card: str) -> bytes | None:
        """The saved photo of an enrolled card (rectified), for the page's preview."""
        if card not in deck_card_ids(deck):
            return None
        face = cv2.imread(str(self.model_dir(deck) / "faces" / f"{card}.png"))
        if face is None:
            return None
        ok, data = cv2.imencode(".jpg", face, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return data.tobytes() if ok else None


def simulated_desk(models_dir: str | Path, clock: Any) -> EnrolmentDesk:
    """An enrolment desk over the simulated table's camera, which shows, alone on the
    table, the card the page asks for (as the person would put it there)."""
    from vision.synth.scene import IMAGE_SIZE, card_photo

    desk = EnrolmentDesk(None, models_dir)  # type: ignore[arg-type]  # its camera comes next

    def render(t: float) -> np.ndarray:
        if desk.asked is None:
            return np.full((IMAGE_SIZE[1], IMAGE_SIZE[0], 3), 90, np.uint8)  # an empty table
        return card_photo(desk.asked, seed=zlib.crc32(desk.asked.encode()) % 1000)

    desk.source = RenderedSource(render, clock)
    return desk
