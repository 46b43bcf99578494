"""Blinded perceptual rating of image pairs: pair sets, the trial protocol, results, statistics and checking.

Qt-free, like the rest of reviewapp.core; the rating window in reviewapp.qt.pairs is a thin layer over it.
"""
