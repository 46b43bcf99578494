"""Taking a structure apart a piece at a time: only what nobody else holds is emptied."""

from __future__ import annotations

from reviewapp.core.io.release import take_apart


class Links:
    def __init__(self, shared: list[int]) -> None:
        self.by_cell = {n: [(n, "reason")] * 3 for n in range(1000)}
        self.by_event = {n: list(range(50)) for n in range(1000)}
        self.seen = set(range(1000))
        self.shared = shared


def test_an_unshared_structure_is_emptied_and_a_shared_part_left_whole() -> None:
    shared = list(range(100))
    links = Links(shared)
    by_event = links.by_event[5]  # someone still reads one event's list
    holder: list[object] = [links]
    del links
    emptied = take_apart(holder)
    assert holder == []
    assert emptied == 999 + 3  # every event's list but the one still read, the two dicts and the set
    assert shared == list(range(100))  # held by the test too: not touched
    assert by_event == list(range(50))


def test_an_object_someone_else_holds_is_left_whole() -> None:
    links = Links([])
    take_apart([links])  # the test's own variable still holds it
    assert len(links.by_cell) == 1000 and len(links.seen) == 1000
