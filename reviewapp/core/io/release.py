"""Let go of a large structure a piece at a time, so that freeing it never holds the interpreter for long.

Dropping the last reference to a structure of tens of thousands of objects frees all of them in one C call,
during which no other thread runs Python: a trace's links to the evidence (tens of thousands of entries) took
46 ms to free on the GUI thread when the window opened the next logbook. `take_apart`, run on a worker, empties
the structure's dicts, lists and sets one entry at a time instead, so the interpreter can switch threads between
entries. It only takes apart what nobody else refers to; anything shared is merely dropped.
"""

from __future__ import annotations

import sys

_CONTAINERS = (dict, list, set)
_SMALL = 16  # containers of this many entries or fewer are freed whole: quick enough


def take_apart(holder: list[object]) -> int:
    """Empty the one object `holder` holds, and the large dicts, lists and sets it refers to that nobody else
    does (its own attributes too), one entry at a time; returns how many containers were emptied.

    The object comes in a list of its own so that this function holds its only reference once it has taken it
    out (a caller's variable would count as another holder and keep it whole)."""
    emptied = 0
    stack: list[object] = [holder.pop()]
    while stack:
        item = stack.pop()
        if sys.getrefcount(item) > 2:  # `item` and getrefcount's argument: held elsewhere too, left whole
            continue
        if isinstance(item, dict):
            while item:
                _key, value = item.popitem()
                if isinstance(value, _CONTAINERS) and len(value) > _SMALL:
                    stack.append(value)
            emptied += 1
        elif isinstance(item, list):
            while item:
                value = item.pop()
                if isinstance(value, _CONTAINERS) and len(value) > _SMALL:
                    stack.append(value)
            emptied += 1
        elif isinstance(item, set):
            while item:
                item.pop()
            emptied += 1
        elif not isinstance(item, _CONTAINERS) and hasattr(item, "__dict__"):
            attributes = vars(item)
            stack.extend(attributes.pop(name) for name in list(attributes))
        value = item = None  # this entry's last references, before the next is looked at
    return emptied
