"""The table's camera wired to the session: frames from the configured camera through the
current game's camera reader into ``session.submit`` (source ``camera``).

    [camera]
    source = "picamera"        # or a device number ("0"), a video file, an image folder

    >>> camera = TableCamera(session, lambda: open_source("picamera"), "data/models")  # doctest: +SKIP
    >>> camera.start()                                                                # doctest: +SKIP

**The calibration shot** is the first frame in which the four markers are found: set the
table out empty (for PtiPassPass with the calibration tokens in their cup), then start the
service. Every new game gets a fresh reader on the same shot; the game's reader is the card
watcher for a game with a deck (its model: ``<models>/<deck>``, the enrolment page's folder)
or the spec's ``camera`` factory (the cups). A game with neither (Passe-Murailles) is not
read here. A camera that cannot be opened or stops giving frames (a loose cable) is
reopened every ``retry_s`` seconds; a missing deck model or hidden markers are health
warnings on the page, in French and English; nothing is guessed meanwhile, but the game's
deadlines still pass on a live camera's clock (Pass Pass asks "who took it?" with the
cable loose: a person can answer it while nothing is seen). A recording
(a video file, an image folder) is read once, to its end. A frame the reader itself fails on
(a fault in the reading, not the camera's) is logged, counted and shown on the health panel,
and the reader is made afresh: the camera part never stops on one bad frame.

The latest frame is kept for the enrolment page (:meth:`TableCamera.frames`): one camera,
one reader.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table.observations import Observation
from table.timers import TICK, DeadlineTimer
from vision.errors import VisionError

log = logging.getLogger(__name__)

# Frames a whole card stays unnamed before the page asks which it is: half a second at 30 fps
# gives the recogniser more looks first (a Pass Pass trick card missed for a moment was asked at
# once with 3). Passe Éclair's pile keeps the quick default: a card may be covered by the next one
# within half a second, and a card never reported would be a placement lost.
CARD_UNKNOWN_FRAMES = 15
# The share of a live camera's frame interval given to reading cards (CardRecogniser.frame_budget): a table
# of new cards is read over several frames, not in one of 0.2-0.6 s with the frames meanwhile unread (the
# hands at the pile among them); the step under way is finished, so a frame overruns its share at times
# (tests/bench/bench_vision.py: 10 ms a frame at 60 fps)
FRAME_BUDGET_SHARE = 0.6
DEFAULT_FPS = 30.0   # a camera that does not say its rate
DOWN_TICK_S = 0.1   # while a live camera is down, its clock is looked at this often for the game's deadlines


class FrameTimer(DeadlineTimer):
    """The deadline timer on the frames' clock: ``at(frame.t)``, after a frame's facts are
    submitted, submits the ``tick`` of a deadline that frame time has passed (Pass Pass: a
    card that left the trick with no seat seen is asked about once the take window is over).
    Frame time, not the wall's: a recording or a simulated camera runs its own clock, and
    the tick lands in the log between the same facts on every replay.

        >>> timer = FrameTimer(session)      # doctest: +SKIP
        >>> timer.at(frame.t)                # True if a tick was submitted  # doctest: +SKIP
    """

    def __init__(self, session: Any):
        self.now = float("-inf")
        super().__init__(session, lambda: self.now)

    def at(self, t: float) -> bool:
        """Submit the tick due at frame time ``t``, if any; True if it did."""
        self.now = t
        return self.check()

    def due_at(self, t: float) -> Observation | None:
        """The tick due at frame time ``t`` (an unlogged observation for the caller to
        submit), or None."""
        self.now = t
        return Observation(kind=TICK, t=t, source="timer") if self.due() is not None else None


class CameraSetupError(VisionError):
    """Something a person must fix before the camera can read a game (``en``, ``fr``)."""


# --------------------------------------------------------------------------- the games' readers
def card_watcher(shot: Any, profile: Any, *, model: str | Path | None, session: Any, seats: int = 0,
                 unknown_frames: int | None = CARD_UNKNOWN_FRAMES) -> Any:
    """The camera reader of a card game: recogniser of the enrolled deck, stability filter,
    the shot as the empty table cards are told apart from; with ``seats``, which seat's
    hand reached the pile too (``vision.hands``, one table edge per player)."""
    from vision.calibration import calibrate
    from vision.hands import HandWatcher
    from vision.model import CardModel
    from vision.pipeline import TableWatcher
    from vision.recognise import CardRecogniser

    if model is None or not (Path(model) / "model.json").is_file():
        raise CameraSetupError("no deck enrolled for this game: enrol it on the enrolment page "
                               "(or passetable enroll)",
                               "aucun jeu de cartes appris pour ce jeu : apprenez-le sur la page "
                               "d'apprentissage (ou passetable enroll)")
    cal = calibrate(shot.image, profile)
    hands = HandWatcher(cal, profile, shot.image, seats=seats) if seats else None
    # still_frames: a table at rest is not worked on again every frame (vision.repeat.StillFrame)
    recogniser = CardRecogniser(CardModel.load(model), still_frames=True)
    return TableWatcher(recogniser, cal, profile, empty_table=shot.image, hands=hands,
                        unknown_frames=unknown_frames)


def pile_watcher(shot: Any, profile: Any, *, model: str | Path | None, session: Any) -> Any:
    """Passe Éclair's reader: the card watcher with the players' hands at the pile."""
    players = int(session.current_game().options.get("players") or 4)
    return card_watcher(shot, profile, model=model, session=session, seats=players, unknown_frames=None)


def cup_watcher(shot: Any, profile: Any, *, model: str | Path | None, session: Any) -> Any:
    """The camera reader of a cup grid: the token colours learned from the calibration
    shot, the cells of the game the session is playing; a cell blown out by a glare keeps
    its last clear look (``hardware/glare.py``)."""
    from hardware.glare import GlareHold
    from vision.calibration import calibrate
    from vision.cups import CupColours, CupWatcher

    cal = calibrate(shot.image, profile)
    cells = session.current_game().engine.layout.cells
    watcher = CupWatcher(CupColours.from_shot(shot.image, cal, profile), cal, profile, cells=list(cells))
    return GlareHold(watcher, cal, profile, shot.image)   # a glare over a cup is not a move


def reader_for(spec: Any) -> Callable[..., Any] | None:
    """The factory of ``spec``'s camera reader, or None when the camera does not read it."""
    if spec.camera:
        return spec.load("camera")
    return card_watcher if spec.deck is not None else None


# --------------------------------------------------------------------------- the part
class TableCamera:
    """Reads the camera in a thread and feeds the current game's reader (a service part:
    ``start()``/``stop()``); its state is the ``camera`` entry of the health panel."""

    def __init__(self, session: Any, open_source: Callable[[], Any], models_dir: str | Path, *,
                 profile: Any = None, retry_s: float = 2.0):
        self.session, self.open_source, self.models_dir = session, open_source, Path(models_dir)
        self.profile, self.retry_s = profile, retry_s
        self.shot: Any = None            # the calibration frame
        self.latest: Any = None          # the last frame read (the enrolment page's picture)
        self.finished = False            # a recording read to its end
        self.figures = {"connected": False, "calibrated": False, "frames": 0, "observations": 0, "reopens": 0,
                        "reading_faults": 0}
        self._warning: dict[str, str] | None = None
        self._fault: dict[str, str] | None = None   # the last frame the reader failed on (_reading_failed)
        self._reader: Any = None
        self._reader_game = -1
        self._next_try = 0.0             # monotonic time of the next try at a reader that failed
        self._clock: Callable[[], float] | None = None   # the last live camera's clock (its frames' times)
        self._fps = DEFAULT_FPS   # the last camera's frames a second
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.timer = FrameTimer(session)   # the game's deadlines, on the frames' clock
        session.health_sources["camera"] = self.health

    # ---------------------------------------------------------------- service part
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="table-camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def wait_finished(self, timeout: float) -> bool:
        """For recordings (tests, ``watch``-like checks): True once the last frame is read."""
        end = time.monotonic() + timeout
        while not self.finished and time.monotonic() < end:
            time.sleep(0.05)
        return self.finished

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.figures)
        warnings = [w for w in (self._warning, self._fault) if w]
        if warnings:
            out["warnings"] = warnings
        return out

    def frames(self) -> Any:
        """A frame source giving the latest frame read (the enrolment page's camera)."""
        return _LatestFrame(self)

    # ---------------------------------------------------------------- the loop
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                source = self.open_source()
            except (VisionError, OSError) as exc:
                self._warn("the camera cannot be opened: {exc}; trying again",
                           "la caméra ne s'ouvre pas : {exc} ; nouvel essai", exc=exc)
                self.figures["reopens"] += 1
                self._wait_down(self.retry_s)
                continue
            self.figures["connected"] = True
            self._clock = None if getattr(source, "finite", False) else getattr(source, "clock", None)
            self._fps = getattr(source, "fps", None) or DEFAULT_FPS
            try:
                self._read(source)
            except (VisionError, OSError) as exc:
                self._warn("the camera stopped giving pictures: {exc}; reopening it",
                           "la caméra ne donne plus d'images : {exc} ; réouverture", exc=exc)
            finally:
                self.figures["connected"] = False
                source.close()
            if self.finished:
                return
            self.figures["reopens"] += 1
            self._wait_down(self.retry_s)

    def _wait_down(self, seconds: float) -> None:
        """Wait before the next try at the camera; a live camera's clock keeps the game's
        deadlines passing meanwhile (a recording's clock stops with it)."""
        end = time.monotonic() + seconds
        while not self._stop.is_set() and (left := end - time.monotonic()) > 0:
            if self._clock is not None:
                self.timer.at(self._clock())
            self._stop.wait(min(left, DOWN_TICK_S))

    def _read(self, source: Any) -> None:
        while not self._stop.is_set():
            frame = source.read()
            if frame is None:
                if getattr(source, "finite", False):
                    self.finished = True   # a recording: read once
                return
            self.latest = frame
            self.figures["frames"] += 1
            reader = self._reader_now(frame)
            if reader is None:
                continue
            try:
                observations = list(reader.process(frame))
            except Exception as exc:   # a fault in the reading itself: this frame is lost, not the camera part
                self._reading_failed(exc)
                continue
            for obs in observations:
                self.session.submit(obs)
                self.figures["observations"] += 1
            self.timer.at(frame.t)

    def _reader_now(self, frame: Any) -> Any:
        """The reader of the game being played, made at each new game on the calibration
        shot (taken now if there is none yet); None while it cannot be made."""
        # the game's number is read at every frame; its copy (current_game) only when it changed
        seq = self.session.game_seq if self.session.game is not None else -1
        if seq == self._reader_game or time.monotonic() < self._next_try:
            return self._reader
        self._reader, self._reader_game = None, seq
        record = self.session.current_game() if seq != -1 else None
        if record is None:
            return None
        from table import games
        from vision.calibration import calibrate
        from vision.profile import TableProfile

        spec = games.get(record.game)
        factory = reader_for(spec)
        if factory is None:
            self._warning = None
            return None
        try:
            self.profile = self.profile or TableProfile.load()
            if self.shot is None:
                calibrate(frame.image, self.profile)   # raises while a marker is hidden
                self.shot = frame
                self.figures["calibrated"] = True
            model = self.models_dir / spec.deck.id if spec.deck is not None else None
            self._reader = factory(self.shot, self.profile, model=model, session=self.session)
            recogniser = getattr(self._reader, "recogniser", None)
            if self._clock is not None and hasattr(recogniser, "frame_budget"):
                # a live camera: a table of new cards is read over its frames, not in one long frame
                # with the frames meanwhile unread (a recording is read frame by frame, to its end)
                recogniser.frame_budget = FRAME_BUDGET_SHARE / self._fps
            self._warning = None
        except CameraSetupError as exc:
            self._warn("{exc}", "{exc}", exc=exc)
            self._retry_later()
        except (VisionError, OSError, ValueError) as exc:   # CalibrationError: a marker hidden
            self._warn("not calibrated yet: {exc} (show the four markers of the empty table)",
                       "pas encore étalonnée : {exc} (montrez les quatre repères de la table vide)", exc=exc)
            self._retry_later()
        return self._reader

    def _reading_failed(self, exc: Exception) -> None:
        """The game's reader failed on a frame (a fault in the reading, not in the camera): logged with its
        traceback, counted and shown on the health panel until the service restarts, and the reader made
        afresh at the next frame, as after a restart (the cards on the table are seen again), so that one
        frame a bug trips on never stops the camera part, nor is passed over in silence."""
        log.exception("the camera's reader failed on a frame")
        self.figures["reading_faults"] += 1
        n = self.figures["reading_faults"]
        what = _one_line(exc)
        self._fault = {
            "en": f"Camera: a frame could not be read ({what}); {n} so far. The cards are read afresh; "
                  "if it happens again, send the service's log to its maintainers",
            "fr": f"Caméra : une image n'a pas pu être lue ({what}) ; {n} jusqu'ici. Les cartes sont relues ; "
                  "si cela se reproduit, envoyez le journal du service à ses mainteneurs"}
        self._reader, self._reader_game = None, -1   # made afresh at the next frame

    def _retry_later(self) -> None:
        """The frames go by unread until a second from now (a failed try costs a full
        calibration or a model load: not at every frame)."""
        self._reader_game, self._next_try = -1, time.monotonic() + 1.0

    def _warn(self, en: str, fr: str, *, exc: Exception) -> None:
        """A warning on the health panel (and in the service's log), in both languages."""
        exc_en, exc_fr = (exc.en, exc.fr) if isinstance(exc, VisionError) else (str(exc), str(exc))
        self._warning = {"en": "Camera: " + en.format(exc=exc_en), "fr": "Caméra : " + fr.format(exc=exc_fr)}
        log.warning("%s", self._warning["en"])


def _one_line(exc: Exception) -> str:
    """An exception said in one line: its kind and its message's last line (OpenCV's first say where in
    its C++ it was raised)."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[-1][:160]}" if lines else type(exc).__name__


class _LatestFrame:
    """The frame source the enrolment page reads: the camera part's latest frame."""

    def __init__(self, camera: TableCamera):
        self.camera = camera

    def read(self) -> Any:
        return self.camera.latest

    def close(self) -> None:
        pass
