"""Seeing the table: camera sources, ArUco calibration, card enrolment and recognition,
tokens and pegs by colour, debounced observations, and a synthetic scene renderer.

The path of a frame (see vision/README.md):

    sources.Frame -> detect.CardDetector -> recognise.CardRecogniser -> pipeline.TableWatcher
                     (quads)               (names or abstains)         (stable Observations)

Only :mod:`table` is imported from the rest of the project.
"""
