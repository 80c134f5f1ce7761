"""The ``enroll``, ``recognize`` and ``markers`` commands of ``passetable``.

    passetable enroll --deck pass-pass --images photos/ --out models/pass-pass
    passetable enroll --deck pass-pass --images tonight/ --out models/pass-pass --partial
    passetable recognize --model models/pass-pass table1.jpg table2.jpg --json
    passetable markers --out markers.pdf

``table/cli.py`` calls :func:`add_subcommands` on its subparsers; ``python -m vision.cli``
runs the same commands alone. Errors are one line on stderr (English / French) and exit
code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from table.rules import ProfileError
from vision.decks import DECKS, deck_card_ids
from vision.enrol import EnrolmentError, enrol_directory
from vision.ghosts import held_back
from vision.model import CardModel, ModelError

EXIT_ERROR = 2


def _fail(en: str, fr: str | None = None) -> int:
    print(f"error: {en}" + (f" / erreur : {fr}" if fr and fr != en else ""), file=sys.stderr)
    return EXIT_ERROR


def cmd_enroll(args) -> int:
    try:
        model = enrol_directory(args.deck, args.images, args.out, partial=args.partial)
    except (EnrolmentError, ModelError) as e:
        return _fail(e.en, e.fr)
    if args.partial:
        total = len(deck_card_ids(model.deck))
        print(f"enrolled {len(model.cards)} of the {total} cards of the {model.deck} deck into {args.out}; "
              "the others are not named until enrolled")
        held = held_back(deck_card_ids(model.deck), model.cards, model.faces)
        if held:
            print(f"{len(held)} of the enrolled cards are not named yet either, as cards not enrolled may look like "
                  f"them ({', '.join(held[:5])}{', ...' if len(held) > 5 else ''}): enrol more of the deck "
                  "(for Pass Pass a card of each colour and of each value) to have them named")
        return 0
    print(f"enrolled {len(model.cards)} cards of the {model.deck} deck into {args.out}")
    return 0


def cmd_recognize(args) -> int:
    from vision.recognise import CardRecogniser  # keeps `passetable --help` light

    try:
        model = CardModel.load(args.model)
    except ModelError as e:
        return _fail(e.en, e.fr)
    rec = CardRecogniser(model)
    status = 0
    for path in args.images:
        image = cv2.imread(path, cv2.IMREAD_COLOR) if Path(path).is_file() else None
        if image is None:
            status = _fail(f"cannot read image {path}", f"impossible de lire l'image {path}")
            continue
        matches = rec.recognise(image)
        if args.json:
            print(json.dumps({"image": path, "cards": [m.to_json() for m in matches]}), flush=True)
        else:
            names = ", ".join(_name(m) for m in matches) or "no card"
            print(f"{path}: {names}", flush=True)
    return status


def _name(match) -> str:
    """A match as the text output says it: its card, or why it has none."""
    if match.card:
        return match.card
    if match.like:   # nearest a face pieced for a card not enrolled (vision.ghosts)
        return f"unknown card (like {match.like}, not enrolled)"
    return "unknown card"


def cmd_markers(args) -> int:
    from vision.markers import write_marker_sheet
    from vision.profile import TableProfile

    try:
        profile = TableProfile.load(args.profile)
        out = write_marker_sheet(args.out, profile, dpi=args.dpi)
    except ProfileError as e:
        return _fail(str(e))
    except (OSError, ValueError) as e:
        return _fail(f"cannot write the marker sheet: {e}", f"impossible d'écrire la feuille de repères : {e}")
    print(f"wrote {out}: print it at 100 % and stick each marker where its label says")
    return 0


def add_subcommands(subparsers) -> None:
    """Add ``enroll``, ``recognize`` and ``markers`` to an argparse subparsers object."""
    p = subparsers.add_parser("enroll", help="learn a deck from one photo per card face")
    p.add_argument("--deck", required=True, choices=DECKS)
    p.add_argument("--images", required=True, help="folder of <card id>.png|jpg photos, one per face")
    p.add_argument("--out", required=True, help="model folder to write")
    p.add_argument("--partial", action="store_true",
                   help="enrol only the faces photographed (added to the model in --out if any)")
    p.set_defaults(func=cmd_enroll)

    p = subparsers.add_parser("recognize", help="name the cards in photos")
    p.add_argument("--model", required=True, help="model folder written by enroll")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON object per image")
    p.set_defaults(func=cmd_recognize)

    p = subparsers.add_parser("markers", help="write the printable ArUco marker sheet")
    p.add_argument("--out", default="markers.pdf", help="file to write (.pdf, .png or .jpg)")
    p.add_argument("--profile", default=None, help="table profile (TOML); default: the shipped one")
    p.add_argument("--dpi", type=int, default=300)
    p.set_defaults(func=cmd_markers)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.cli", description="passetable vision commands")
    sub = parser.add_subparsers(dest="command", required=True)
    add_subcommands(sub)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
