"""Decoded pixels a page may cost: 60 images of 25 megapixels on one page took 2.3 GB in the window.

Each image is charged once, by its own key (showing it again costs nothing); an image that would take the page
past its budget is not decoded and says why. Thread-safe: images are decoded on worker threads.
"""

from __future__ import annotations

import threading

PAGE_PIXELS = 100_000_000  # 100 decoded megapixels a page


class PixelBudget:
    def __init__(self, per_page: int | None = None) -> None:
        self.per_page = PAGE_PIXELS if per_page is None else per_page
        self._lock = threading.Lock()
        self._spent: dict[str, int] = {}
        self._charged: dict[str, int] = {}  # image key -> pixels charged

    def take(self, page: str, image: str, pixels: int) -> bool:
        """Charge `pixels` for `image` on `page`; False (nothing charged) when the page's budget would be passed."""
        with self._lock:
            if image in self._charged:
                return True
            spent = self._spent.get(page, 0)
            if spent + pixels > self.per_page:
                return False
            self._spent[page] = spent + pixels
            self._charged[image] = pixels
            return True

    def refusal(self, page: str) -> str:
        return (
            f"not decoded: the images of this page already take {self._spent.get(page, 0):,} of the "
            f"{self.per_page:,} decoded pixels a page may use"
        )
