"""Camera sources: every frame carries a timestamp, and bad sources say so."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.sources import ImageFolderSource, RenderedSource, SourceError, VideoCaptureSource, open_source


def pictures(n):
    return [np.full((48, 64, 3), 20 * i, np.uint8) for i in range(n)]


def test_image_folder_in_name_order_with_times(tmp_path):
    for i, img in enumerate(pictures(3)):
        cv2.imwrite(str(tmp_path / f"f{2 - i}.png"), img)          # names in reverse of creation
    with open_source(str(tmp_path), fps=10.0, t0=5.0) as src:
        frames = list(src)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.t for f in frames] == pytest.approx([5.0, 5.1, 5.2])
    assert [int(f.image[0, 0, 0]) for f in frames] == [40, 20, 0]


def test_video_file_frames_come_back_with_media_time(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (64, 48))
    assert writer.isOpened()
    for img in pictures(5):
        writer.write(img)
    writer.release()
    src = VideoCaptureSource(str(path))
    frames = list(src)
    src.close()
    assert len(frames) == 5
    assert [f.t for f in frames] == pytest.approx([0, 0.04, 0.08, 0.12, 0.16])
    assert abs(int(frames[3].image.mean()) - 60) <= 3


def test_rendered_source_uses_the_given_clock():
    clock = iter([1.0, 1.5, 2.0])
    src = RenderedSource(lambda t: np.full((4, 4, 3), int(t * 10), np.uint8), lambda: next(clock), frames=2)
    frames = list(src)
    assert [(f.t, int(f.image[0, 0, 0])) for f in frames] == [(1.0, 10), (1.5, 15)]


def test_bad_sources_are_reported(tmp_path):
    with pytest.raises(SourceError, match="no camera, video or image folder"):
        open_source(str(tmp_path / "nothing"))
    (tmp_path / "broken.png").write_bytes(b"nope")
    with pytest.raises(SourceError, match="broken.png"):
        ImageFolderSource(tmp_path).read()
