"""Points passed between the detector's shrunk frame and the full-size frame.

The detector finds outlines in the frame shrunk by ``k`` (``cv2.INTER_AREA``: a shrunk pixel is the mean
of a k × k block), so shrunk pixel i stands for full-size pixels i·k .. i·k + k − 1, whose middle is
i·k + (k − 1)/2. Every conversion goes through here so that the half-pixel is never forgotten.

    >>> import numpy as np
    >>> full_px(np.array([[0.0, 10.0]]), 2)
    array([[ 0.5, 20.5]])
    >>> shrunk_px(full_px(np.array([[3.0, 4.0]]), 2), 2)
    array([[3., 4.]])
"""

from __future__ import annotations

import numpy as np


def full_px(points: np.ndarray, k: int) -> np.ndarray:
    """``points`` in px of the frame shrunk by ``k``, in full-size px (the middle of each block)."""
    return points * k + (k - 1) / 2


def shrunk_px(points: np.ndarray, k: int) -> np.ndarray:
    """``points`` in full-size px, in px of the frame shrunk by ``k`` (the inverse of :func:`full_px`)."""
    return (points - (k - 1) / 2) / k


def full_px_matrix(k: int) -> np.ndarray:
    """:func:`full_px` as a 3 × 3 homography, to compose with other mappings of the plane."""
    return np.array([[k, 0, (k - 1) / 2], [0, k, (k - 1) / 2], [0, 0, 1.0]])
