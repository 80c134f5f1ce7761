"""The empty table's model tells a change in any one colour channel from the sensor's noise,
whatever OpenCV version does the sums (5.1 changed how a 3-channel array is compared with a
number: as with (number, 0, 0), so every pixel with any deviation at all became foreground)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.background import TableBackground


def _table(rng, noise: float) -> np.ndarray:
    """A plain green cloth, 1280×720, with the camera's noise."""
    cloth = np.empty((720, 1280, 3), np.float32)
    cloth[:] = (60, 110, 70)
    cloth += rng.normal(0, noise, cloth.shape)
    return np.clip(cloth, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("channel", [0, 1, 2])
def test_a_change_in_one_channel_is_foreground_and_the_noise_is_not(channel):
    rng = np.random.default_rng(channel)
    bg = TableBackground.from_shot(_table(rng, 3.0))
    frame = _table(rng, 3.0)                     # the same table, fresh noise
    patch = (slice(300, 420), slice(500, 660))   # full-size px: 60×80 working px
    frame[patch + (channel,)] = np.clip(frame[patch + (channel,)].astype(int) + 80, 0, 255)
    small = cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)
    mask = bg.foreground(small) > 0
    inside = mask[150:210, 250:330]
    outside = mask.copy()
    outside[140:220, 240:340] = False            # the patch and a smoothing rim around it
    assert inside.mean() > 0.95, f"only {inside.mean():.0%} of a change in channel {channel} is foreground"
    assert outside.mean() < 0.01, f"{outside.mean():.0%} of the unchanged table is foreground"
