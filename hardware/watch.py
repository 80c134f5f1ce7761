"""``passetable watch``: a folder of camera images through the real pipeline into a real
session, for checking the camera's scoring from outside.

    passetable watch --game pass-pass --options '{"players": 3}' --model MODEL_DIR --frames DIR --json
    passetable watch --game ptipasspass --options '{"players": 4}' --frames DIR --presses PRESSES.json

The images of DIR are read in name order as a camera at ``--fps`` (30 by default); the
first one shows the empty table with its markers: it is the calibration shot (and the
empty-table picture cards are told apart from; for the cups, the calibration tokens the
colours are learned from). Every frame goes through the game's camera reader — the card
watcher (:class:`vision.pipeline.TableWatcher`: recogniser, stability filter) for a game
with a deck, the game spec's ``camera`` otherwise (:class:`vision.cups.CupWatcher`) — and
each observation into a session keeping its log in a temporary folder. ``--presses FILE``
adds the seat buttons' recorded presses (``[{"t": s, "seat": 0, "button": "call"|"ok"}, …]``,
``t`` on the frames' clock: image *i* is at *i*/fps), each submitted before the first frame
at or after its time. One line is printed per observation (``{"observation": ...}``) and
per alert or question the page would show (``{"alert": ...}``) as they happen, then
``{"final": <the session's snapshot>}``. With ``--answers FILE`` (a JSON list) the page's
questions are answered in order: each item is a choice id, or ``{"choice": id,
"details": {...}}``.

It lives beside the simulated tables (``hardware``) because it wires the camera to the
session, as a real table's sensors do.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

EXIT_USAGE = 2


def add_subcommands(sub: Any) -> None:
    p = sub.add_parser("watch", help="score a folder of camera images with the real pipeline and session")
    p.add_argument("--game", required=True, help="the game being played (e.g. pass-pass)")
    p.add_argument("--options", default="{}", help="the game's start options as JSON (players, names...)")
    p.add_argument("--model", help="the enrolled deck model folder (passetable enrol); card games only")
    p.add_argument("--frames", required=True, help="folder of images, read in name order; the first is the "
                                                  "empty table with its markers")
    p.add_argument("--fps", type=float, default=30.0, help="frames per second of the images (default 30)")
    p.add_argument("--answers", help="JSON list answering the page's questions in order")
    p.add_argument("--presses", help='JSON list of seat-button presses [{"t": s, "seat": 0, "button": "ok"}, ...]')
    p.add_argument("--profile", help="table profile (TOML; default: the shipped one)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=cmd_watch)


def _fail(en: str, fr: str) -> int:
    print(f"passetable watch: {en}\npassetable watch : {fr}", file=sys.stderr)
    return EXIT_USAGE


def cmd_watch(args: argparse.Namespace) -> int:
    from hardware.camera import CameraSetupError, reader_for
    from hardware.gpio.seat_buttons import recorded_presses
    from table import games
    from table.errors import Refused
    from table.log import EventLog
    from table.session import Session
    from vision.calibration import CalibrationError
    from vision.errors import VisionError
    from vision.profile import TableProfile
    from vision.sources import ImageFolderSource

    try:
        options = json.loads(args.options)
        answers = json.loads(Path(args.answers).read_text(encoding="utf-8")) if args.answers else []
        presses = json.loads(Path(args.presses).read_text(encoding="utf-8")) if args.presses else []
    except (OSError, ValueError) as exc:
        return _fail(f"cannot read the options, answers or presses: {exc}",
                     f"options, réponses ou pressions illisibles : {exc}")
    if not isinstance(options, dict) or not isinstance(answers, list):
        return _fail("--options must be a JSON object and --answers a JSON list",
                     "--options doit être un objet JSON et --answers une liste JSON")
    try:
        presses = recorded_presses(presses)
        spec = games.get(args.game)
    except ValueError as exc:
        return _fail(*exc.args)
    except Refused as exc:
        return _fail(exc.en, exc.fr)
    emit = _printer(args.json)
    with tempfile.TemporaryDirectory(prefix="passetable-watch-") as data:
        session = Session(EventLog(Path(data) / "events.db"))
        try:
            session.start_game(args.game, options, source="watch")
            profile = TableProfile.load(args.profile)
            source = ImageFolderSource(args.frames, fps=args.fps)
            first = source.read()
            if first is None:
                return _fail("the frames folder has no image", "le dossier d'images est vide")
            factory = reader_for(spec)
            if factory is None:
                return _fail(f"the camera does not read {spec.names['en']}",
                             f"la caméra ne lit pas {spec.names['fr']}")
            watcher = factory(first, profile, model=args.model, session=session)
        except Refused as exc:
            return _fail(exc.en, exc.fr)
        except CameraSetupError as exc:
            return _fail(exc.en, exc.fr)
        except (VisionError, CalibrationError, OSError, ValueError) as exc:
            return _fail(f"cannot watch: {exc}", f"impossible de regarder : {exc}")
        try:
            _watch(session, watcher, first, source, presses, answers, emit)
        finally:
            session.log.close()
    return 0


def _watch(session: Any, watcher: Any, first: Any, source: Any, presses: list, answers: list, emit: Any) -> None:
    """Every frame (and every recorded press due before it) into the session, each alert
    shown once and answered from ``answers`` in order; then the final snapshot."""
    from hardware.camera import FrameTimer
    from table.errors import Refused

    shown: set[str] = set()
    pending, presses = list(answers), list(presses)

    def submit(obs: Any) -> None:
        emit({"observation": session.submit(obs).to_dict()})
        for alert in session.snapshot()["alerts"]:
            if alert["id"] in shown:
                continue
            shown.add(alert["id"])
            emit({"alert": alert})
            if pending and alert.get("choices"):
                answer = pending.pop(0)
                choice = answer.get("choice") if isinstance(answer, dict) else answer
                details = answer.get("details") if isinstance(answer, dict) else None
                try:
                    emit({"observation": session.resolve(alert["id"], str(choice), details,
                                                         source="watch").to_dict()})
                except Refused as exc:
                    emit({"refused": {"alert": alert["id"], "en": exc.en, "fr": exc.fr}})

    timer = FrameTimer(session)   # a take window ending is a logged tick, as with a live camera
    frame = first
    while frame is not None:
        while presses and presses[0].t <= frame.t:
            submit(presses.pop(0))
        for obs in watcher.process(frame):
            submit(obs)
        tick = timer.due_at(frame.t)
        if tick is not None:
            submit(tick)
        frame = source.read()
    for press in presses:   # pressed after the last image
        submit(press)
    emit({"final": session.snapshot()})


def _printer(as_json: bool):
    def emit(item: dict[str, Any]) -> None:
        if as_json:
            print(json.dumps(item, ensure_ascii=False, default=str), flush=True)
            return
        if "observation" in item:
            o = item["observation"]
            print(f"{o['t']:8.3f} {o['kind']} {json.dumps(o['data'], ensure_ascii=False)}", flush=True)
        elif "alert" in item:
            print(f"         ! {item['alert']['message']['en']} | {item['alert']['message']['fr']}", flush=True)
        elif "final" in item:
            summary = item["final"].get("summary") or {}
            for player in summary.get("players", []):
                print(f"{player['name']['en']}: {player['score']}", flush=True)
        else:
            print(json.dumps(item, ensure_ascii=False), flush=True)
    return emit
