"""Decode figure and preview images off the GUI thread (core caps apply) and hand QImages back, cached."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QImage

from reviewapp.core.io.untrusted_images import DecodedImage, ImageRefused, SizeCheck
from reviewapp.qt.workers import TaskRunner, alive

ImageCallback = Callable[[QImage | None, str | None], None]  # (image, why not) — exactly one is None


def to_qimage(decoded: DecodedImage) -> QImage:
    image = QImage(decoded.rgba, decoded.width, decoded.height, 4 * decoded.width, QImage.Format.Format_RGBA8888)
    return image.copy()  # own the pixels: the bytes object may go away


class ImageLoader(QObject):
    def __init__(self, threads: int = 2, cache_size: int = 48, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = TaskRunner(threads, self)
        self._cache: OrderedDict[str, QImage] = OrderedDict()
        self._cache_size = cache_size
        self._waiting: dict[str, list[tuple[QObject, ImageCallback]]] = {}

    def request(
        self,
        key: str,
        produce: Callable[[], DecodedImage],
        receiver: QObject,
        callback: ImageCallback,
        charge: SizeCheck | None = None,
    ) -> None:
        """Call callback(image, None) or callback(None, reason) on the GUI thread, unless receiver is gone by then.

        `charge` is asked of an image served from the cache, with its decoded size: `produce` charges what it
        decodes to a page's pixel budget, and a cached image shown on a page whose budget is new (the logbook
        opened again) must be charged to it too, or the page would show more pixels than its cap."""
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            try:
                if charge is not None:
                    charge(cached.width(), cached.height())
            except ImageRefused as exc:
                callback(None, str(exc))
                return
            callback(cached, None)
            return
        waiting = self._waiting.setdefault(key, [])
        waiting.append((receiver, callback))
        if len(waiting) > 1:
            return
        self._runner.submit(
            lambda _progress: produce(),
            lambda decoded: self._deliver(key, to_qimage(decoded), None),
            lambda exc: self._deliver(key, None, _reason(exc)),
        )

    def _deliver(self, key: str, image: QImage | None, reason: str | None) -> None:
        if image is not None:
            self._cache[key] = image
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        for receiver, callback in self._waiting.pop(key, []):
            if alive(receiver):
                callback(image, reason)

    @property
    def pending(self) -> int:
        return len(self._waiting)

    def wait(self, msecs: int = 10_000) -> bool:
        return self._runner.wait(msecs)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ImageRefused):
        return str(exc)
    if isinstance(exc, MemoryError):
        return "image too large to decode"
    return f"image could not be decoded ({type(exc).__name__}: {exc})"
