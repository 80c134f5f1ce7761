"""Procedural card faces, table scenes with ground truth, and their scoring."""
