"""Camera sources: everything that yields timestamped frames, behind one interface.

    >>> cam = open_source("0")                         # a webcam  # doctest: +SKIP
    >>> cam = open_source("picamera")                  # the Raspberry Pi camera  # doctest: +SKIP
    >>> for i in range(2):                             # a folder of photos, taken in name order
    ...     _ = cv2.imwrite(str(tmp_path / f"{i:04d}.png"), np.full((720, 1280, 3), 90 + i, np.uint8))
    >>> with open_source(str(tmp_path)) as cam:       # or "video.mp4", or RenderedSource(...)
    ...     frame = cam.read()
    >>> frame.image.shape, frame.t, frame.index
    ((720, 1280, 3), 0.0, 0)
    >>> [(f.t, f.index) for f in ImageFolderSource(tmp_path, fps=10)]
    [(0.0, 0), (0.1, 1)]

``read()`` returns ``None`` once a finite source (file, folder) is exhausted and raises
:class:`SourceError` when a device cannot be opened or stops delivering.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class SourceError(VisionError, RuntimeError):
    """A camera, video or image folder that cannot be opened or read."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray   # BGR uint8
    t: float            # seconds (service clock for live cameras, media time for files)
    index: int


class FrameSource:
    """Base class: ``read()``, ``close()``, iteration and ``with``. ``finite``: a recording
    (file, folder) whose ``None`` is its end, not a camera gone quiet."""

    finite = False

    def read(self) -> Frame | None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __iter__(self) -> Iterator[Frame]:
        while (f := self.read()) is not None:
            yield f

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class VideoCaptureSource(FrameSource):
    """A ``cv2.VideoCapture`` device (an int or ``/dev/video0``) or video file.

    Frames of a file are stamped with their media time (plus ``t0``); frames of a device
    with ``clock()`` when grabbed."""

    def __init__(self, target: int | str, *, width: int | None = None, height: int | None = None,
                 clock: Callable[[], float] = time.time, t0: float = 0.0):
        self.is_file = self.finite = isinstance(target, str) and Path(target).is_file()
        self.cap = cv2.VideoCapture(target)
        if not self.cap.isOpened():
            raise SourceError(f"cannot open camera or video {target!r}",
                              f"impossible d'ouvrir la caméra ou la vidéo {target!r}")
        if width and height and not self.is_file:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.clock, self.t0, self.index = clock, t0, 0
        self.fps = self.cap.get(cv2.CAP_PROP_FPS) or 30.0

    def read(self) -> Frame | None:
        ok, img = self.cap.read()
        if not ok:
            if self.is_file:
                return None
            raise SourceError("the camera stopped delivering frames", "la caméra ne donne plus d'images")
        if self.is_file:
            t = self.t0 + self.index / self.fps
        else:
            t = self.clock()
        f = Frame(img, t, self.index)
        self.index += 1
        return f

    def close(self) -> None:
        self.cap.release()


class ImageFolderSource(FrameSource):
    """The images of a folder in name order, ``1/fps`` seconds apart from ``t0``."""

    finite = True

    def __init__(self, folder: str | Path, fps: float = 30.0, t0: float = 0.0):
        self.paths = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) \
            if Path(folder).is_dir() else None
        if self.paths is None:
            raise SourceError(f"image folder {folder} does not exist", f"le dossier d'images {folder} n'existe pas")
        self.fps, self.t0, self.index = fps, t0, 0

    def read(self) -> Frame | None:
        while self.index < len(self.paths):
            p = self.paths[self.index]
            self.index += 1
            img = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if img is None:
                raise SourceError(f"cannot read image {p.name}", f"impossible de lire l'image {p.name}")
            return Frame(img, self.t0 + (self.index - 1) / self.fps, self.index - 1)
        return None


class RenderedSource(FrameSource):
    """Frames drawn by a function of time (the simulated table's camera).

    ``render(t)`` returns a BGR image; ``clock()`` gives t (a simulated clock in tests).
    ``frames`` limits the count (None: endless)."""

    def __init__(self, render: Callable[[float], np.ndarray], clock: Callable[[], float], frames: int | None = None):
        self.render, self.clock, self.frames, self.index = render, clock, frames, 0

    def read(self) -> Frame | None:
        if self.frames is not None and self.index >= self.frames:
            return None
        t = self.clock()
        f = Frame(self.render(t), t, self.index)
        self.index += 1
        return f


class PiCameraSource(FrameSource):  # pragma: no cover - needs a Raspberry Pi camera
    """The Raspberry Pi camera through picamera2 (Raspberry Pi OS's ``python3-picamera2``)."""

    def __init__(self, width: int = 1280, height: int = 720, clock: Callable[[], float] = time.time):
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise SourceError("picamera2 is not installed: it comes with Raspberry Pi OS's python3-picamera2 "
                              "(sudo apt-get install python3-picamera2; hardware/pi/install.sh does it)",
                              "picamera2 n'est pas installé : il vient du paquet python3-picamera2 de Raspberry Pi OS "
                              "(sudo apt-get install python3-picamera2 ; hardware/pi/install.sh s'en charge)") from None
        self.cam = Picamera2()
        self.cam.configure(self.cam.create_video_configuration(main={"size": (width, height), "format": "RGB888"}))
        self.cam.start()
        self.clock, self.index = clock, 0

    def read(self) -> Frame | None:
        img = self.cam.capture_array()   # "RGB888" is stored B, G, R in memory: already BGR
        f = Frame(np.ascontiguousarray(img[..., :3]), self.clock(), self.index)
        self.index += 1
        return f

    def close(self) -> None:
        self.cam.stop()
        self.cam.close()


def open_source(spec: str, **kw) -> FrameSource:
    """``"picamera"``, a device number (``"0"``), ``/dev/videoN``, a video file or an image folder."""
    if spec == "picamera":
        return PiCameraSource(**kw)
    if spec.isdigit():
        return VideoCaptureSource(int(spec), **kw)
    if Path(spec).is_dir():
        return ImageFolderSource(spec, **kw)
    if Path(spec).exists():
        return VideoCaptureSource(spec, **kw)
    raise SourceError(f"no camera, video or image folder called {spec!r}",
                      f"aucune caméra, vidéo ou dossier d'images nommé {spec!r}")
