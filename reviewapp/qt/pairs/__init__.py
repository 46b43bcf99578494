"""Blinded image-pair rating: `PairRatingWindow.for_set(review, set_name, parent)` opens it."""

from reviewapp.qt.pairs.window import PairRatingWindow

__all__ = ["PairRatingWindow"]
