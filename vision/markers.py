"""ArUco markers: drawing the printable sheet and finding the markers in a frame.

    >>> frame = np.full((300, 300, 3), 255, np.uint8)           # a white sheet...
    >>> frame[50:250, 50:250] = marker_image(7, 200)            # ...with marker 7 on it
    >>> found = find_markers(frame, "DICT_4X4_50")     # {id: (4, 2) corners in px}
    >>> found[7].round()
    array([[ 50.,  50.],
           [249.,  50.],
           [249., 249.],
           [ 50., 249.]])
    >>> write_marker_sheet(tmp_path / "markers.pdf", TableProfile.load()).read_bytes()[:8]
    b'%PDF-1.4'

The sheet is an A4 page at 300 dpi with the four markers at their true printed size
(print at 100 %, no "fit to page"), each labelled with its id and where it goes.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from vision.profile import TableProfile

A4_MM = (210.0, 297.0)
PLACES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}


def aruco_dictionary(name: str):
    if not hasattr(cv2.aruco, name):
        raise ValueError(f"unknown ArUco dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def marker_image(marker_id: int, side_px: int, dictionary: str = "DICT_4X4_50") -> np.ndarray:
    """The marker (black on white, with its own black border) as a BGR image."""
    img = cv2.aruco.generateImageMarker(aruco_dictionary(dictionary), int(marker_id), int(side_px))
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)


def find_markers(frame: np.ndarray, dictionary: str = "DICT_4X4_50") -> dict[int, np.ndarray]:
    """Markers seen in ``frame``: id -> corners (top-left, top-right, bottom-right,
    bottom-left of the printed marker) in image px."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    # ids is (N,) on OpenCV 5 and (N, 1) on 4.x, in no particular order
    return {int(i): np.asarray(c, np.float64).reshape(4, 2) for i, c in zip(np.asarray(ids).ravel(), corners)}


def marker_sheet(profile: TableProfile, dpi: int = 300) -> np.ndarray:
    """The A4 sheet as a white BGR image at ``dpi``."""
    px_mm = dpi / 25.4
    w, h = round(A4_MM[0] * px_mm), round(A4_MM[1] * px_mm)
    sheet = np.full((h, w, 3), 255, np.uint8)
    side = round(profile.marker_size_mm * px_mm)
    ids = sorted(profile.marker_centres_mm)
    for k, mid in enumerate(ids[:8]):
        col, row = k % 2, k // 2
        x = round((30 + col * 90) * px_mm)
        y = round((30 + row * 62) * px_mm)
        sheet[y:y + side, x:x + side] = marker_image(mid, side, profile.marker_dictionary)
        cx, cy = profile.marker_centres_mm[mid]
        lines = [f"id {mid}  {PLACES.get(mid, '')}", f"centre ({cx:g}, {cy:g}) mm"]
        for i, text in enumerate(lines):
            _text(sheet, text, x, y + side + round((6 + 5 * i) * px_mm), px_mm, 3.0)
    _text(sheet, f"Print at 100 %: each marker is {profile.marker_size_mm:g} mm wide.",
          round(20 * px_mm), round(270 * px_mm), px_mm, 3.0)
    _text(sheet, "Imprimer a 100 % : chaque repere mesure "
          f"{profile.marker_size_mm:g} mm.", round(20 * px_mm), round(277 * px_mm), px_mm, 3.0)
    return sheet


def _text(img, text, x, y, px_mm, height_mm):
    """Text whose capitals are ``height_mm`` tall on the printed page."""
    scale = height_mm * px_mm / 22.0   # FONT_HERSHEY_SIMPLEX capitals are ~22 px at scale 1
    cv2.putText(img, text, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0),
                max(1, round(px_mm / 4)), cv2.LINE_AA)


def write_marker_sheet(path: str | Path, profile: TableProfile, dpi: int = 300) -> Path:
    """Write the sheet as PDF (true A4 size) or PNG/JPG (by the file's suffix)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".pdf", ".png", ".jpg", ".jpeg"):
        raise ValueError(f"{p.name}: the sheet is written as .pdf, .png or .jpg")
    sheet = marker_sheet(profile, dpi)
    if suffix == ".pdf":
        p.write_bytes(_pdf_with_image(sheet, A4_MM))
    elif not cv2.imwrite(str(p), sheet):
        raise OSError(f"cannot write {p}")
    return p


def _pdf_with_image(img: np.ndarray, page_mm) -> bytes:
    """A one-page PDF showing ``img`` over the whole page (RGB, Flate-compressed)."""
    h, w = img.shape[:2]
    rgb = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    data = zlib.compress(rgb.tobytes(), 6)
    pw, ph = page_mm[0] / 25.4 * 72, page_mm[1] / 25.4 * 72
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
        f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
        f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def marker_pictures(profile: TableProfile, side_px: int = 240):
    """The profile's markers as flat pictures for the scene renderer: each with the white
    margin a printed marker keeps around it (a quarter of its side)."""
    from vision.synth.scene import Picture  # the renderer is only needed for synthetic frames

    pics = []
    pad = side_px // 4
    for mid in profile.marker_centres_mm:
        img = cv2.copyMakeBorder(marker_image(mid, side_px, profile.marker_dictionary), pad, pad, pad, pad,
                                 cv2.BORDER_CONSTANT, value=(255, 255, 255))
        corners = profile.marker_corners_mm(mid)
        centre = corners.mean(axis=0)
        pics.append(Picture(img, centre + (corners - centre) * (side_px + 2 * pad) / side_px))
    return pics
