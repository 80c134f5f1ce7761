"""Tokens, cups, pegs and markers for rendered scenes, placed from the table profile.

    >>> import numpy as np
    >>> from vision.markers import marker_pictures
    >>> from vision.synth.scene import SceneStyle, random_camera, render_table
    >>> profile = TableProfile.load()
    >>> rng = np.random.default_rng(1)
    >>> camera = random_camera(rng, SceneStyle(fill=(0.8, 0.85), turn_max_deg=6))
    >>> discs = token_discs(profile, {(0, 0): ["blue"], (1, 2): ["green", "orange"]}, cups={(2, 5)})
    >>> discs += peg_discs(profile, {0: "red", 3: "blue"})
    >>> len(discs)           # 18 cell mats, 3 tokens, 1 cup; 7 holes, 2 pegs
    31
    >>> scene = render_table([], camera, rng, pictures=marker_pictures(profile), discs=discs)
    >>> scene.image.shape, scene.cards
    ((720, 1280, 3), [])
"""

from __future__ import annotations

from vision.profile import TableProfile
from vision.synth.scene import Disc

TOKEN_BGR = {"blue": (200, 90, 30), "green": (60, 165, 60), "orange": (30, 130, 240)}
PEG_BGR = {"red": (40, 40, 200), "blue": (190, 80, 30)}
CUP_BGR = (60, 60, 150)
HOLE_BGR = (25, 25, 25)
CELL_BGR = (200, 205, 210)     # the pale mat under the cups
TOKEN_RADIUS_MM = 11.0


def token_discs(profile: TableProfile, tokens: dict, cups=frozenset(), mats: bool = True) -> list[Disc]:
    """Discs for the cup grid: a pale mat on every cell, then tokens, then cups on top.

    Several tokens in one cell are spread around the cell's centre."""
    discs = []
    for r in range(profile.cup_rows):
        for c in range(profile.cup_cols):
            x0, y0, x1, y1 = profile.cell_rect_mm(r, c)
            centre = ((x0 + x1) / 2, (y0 + y1) / 2)
            if mats:
                discs.append(Disc(centre, profile.cup_cell_mm * 0.45, CELL_BGR))
            if (r, c) in cups:
                continue
            colours = tokens.get((r, c), [])
            offsets = [(0, 0)] if len(colours) == 1 else [(-13, -10), (13, -10), (0, 13), (0, 0)]
            for colour, (dx, dy) in zip(colours, offsets):
                discs.append(Disc((centre[0] + dx, centre[1] + dy), TOKEN_RADIUS_MM, TOKEN_BGR[colour]))
    for (r, c) in cups:
        x0, y0, x1, y1 = profile.cell_rect_mm(r, c)
        discs.append(Disc(((x0 + x1) / 2, (y0 + y1) / 2), profile.cup_cell_mm * 0.47, CUP_BGR))
    return discs


def peg_discs(profile: TableProfile, pegs: dict) -> list[Disc]:
    """Every top hole drawn dark, and a peg head where ``pegs`` puts one."""
    discs = []
    for col in range(profile.frame_holes):
        centre = profile.hole_centre_mm(col)
        discs.append(Disc(centre, profile.frame_hole_radius_mm, HOLE_BGR))
        if pegs.get(col):
            discs.append(Disc(centre, profile.frame_hole_radius_mm * 0.8, PEG_BGR[pegs[col]]))
    return discs
