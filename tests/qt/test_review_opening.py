"""What the load worker prepares for reviewing, before the window hears of the logbook."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.preferences import Preferences, save_preferences
from reviewapp.core.review.store import REVIEWS_DIR
from reviewapp.qt.opening import prepare_review
from tests.core.annotation_helpers import small_logbook


def test_where_reviews_go_is_probed_by_the_worker_not_once_the_window_has_the_logbook(tmp_path: Path) -> None:
    save_preferences(Preferences(annotator="Ada Lovelace", annotator_source="asked"))
    logbook = read_logbook(small_logbook(tmp_path))
    opening = prepare_review(logbook)
    assert opening.logbook_review is not None and opening.reason is None
    store = opening.logbook_review.store
    probed = store._location  # what `location` answers from here on, without writing again
    assert probed is not None and store.location is probed
    assert not probed.fallback and probed.folder == logbook.root.resolve() / REVIEWS_DIR
