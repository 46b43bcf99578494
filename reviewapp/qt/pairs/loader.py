"""Decode pair images off the GUI thread, prefetch the next pairs, and keep a cache bounded in bytes.

Workers read and decode with the core (Pillow releases the GIL), build QImages in the display format and, for
the size the canvas fits images to, scaled copies, so that switching to a prefetched pair only wraps ready
images in QPixmaps and blits them. QPixmaps are never made here: only the GUI thread may.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRunnable, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import QImage

from reviewapp.core.logbook.model import Logbook
from reviewapp.core.pairs.pair_images import ImageProblem, PixelBuffer, decode_pixels, difference
from reviewapp.core.pairs.sets import Pair

DEFAULT_BUDGET = 160 * 1024 * 1024  # about 8 pairs of 1024x1024: the shown one, 4 ahead, a few behind for undo
WORKERS = 2


@dataclass
class DecodedPair:
    pair_id: str
    images: dict[str, QImage] = field(default_factory=dict)  # "a", "b", "diff"
    fitted: dict[str, QImage] = field(default_factory=dict)  # the same, scaled to fit `fit_size`
    fit_size: QSize | None = None  # the panel size `fitted` was made for
    error: str | None = None

    @property
    def nbytes(self) -> int:
        return sum(i.sizeInBytes() for i in (*self.images.values(), *self.fitted.values()))


def to_qimage(buffer: PixelBuffer) -> QImage:
    """A QImage that owns its pixels, in the format the raster paint engine blits fastest."""
    if buffer.mode == "RGBA":
        wrapped = QImage(buffer.data, buffer.width, buffer.height, buffer.stride, QImage.Format.Format_RGBA8888)
        return wrapped.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    wrapped = QImage(buffer.data, buffer.width, buffer.height, buffer.stride, QImage.Format.Format_RGB888)
    return wrapped.convertToFormat(QImage.Format.Format_RGB32)  # a converted copy: no reference to `buffer`


def fitted_size(image: QSize, panel: QSize) -> QSize:
    """The size an image of `image` pixels is shown at when fitted into `panel` (never enlarged)."""
    if image.isEmpty() or panel.isEmpty():
        return QSize(0, 0)
    scale = min(panel.width() / image.width(), panel.height() / image.height(), 1.0)
    return QSize(max(1, round(image.width() * scale)), max(1, round(image.height() * scale)))


class _Relay(QObject):
    done = Signal(object)  # DecodedPair; emitted from a worker, delivered on the GUI thread (queued)


class _DecodeJob(QRunnable):
    def __init__(self, pair: Pair, logbook: Logbook | None, fit: QSize | None, relay: _Relay) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self.pair, self.logbook, self.fit, self.relay = pair, logbook, fit, relay

    def run(self) -> None:
        result = DecodedPair(self.pair.id)
        try:
            buffers = {
                "a": decode_pixels(self.pair.a.read(self.logbook)),
                "b": decode_pixels(self.pair.b.read(self.logbook)),
            }
            buffers["diff"] = difference(buffers["a"], buffers["b"])
            result.images = {key: to_qimage(buffer) for key, buffer in buffers.items()}
            if self.fit is not None:
                size = fitted_size(result.images["a"].size(), self.fit)
                if size != result.images["a"].size():
                    result.fitted = {
                        key: image.scaled(
                            size, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation
                        )
                        for key, image in result.images.items()
                    }
                result.fit_size = QSize(self.fit)
        except ImageProblem as exc:
            result.error = str(exc)
        except Exception as exc:  # a worker must always answer, or the window would wait for this pair forever
            result.error = f"could not be shown ({type(exc).__name__})"
        self.relay.done.emit(result)


class PairImageCache(QObject):
    """Decoded pairs by id, least recently used first out once over `budget` bytes."""

    loaded = Signal(str)  # pair id, once its images (or its error) are ready

    def __init__(self, logbook: Logbook | None, budget: int = DEFAULT_BUDGET, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.logbook = logbook
        self.budget = budget
        self.fit_size: QSize | None = None
        self._entries: OrderedDict[str, DecodedPair] = OrderedDict()
        self._pending: set[str] = set()
        self._wanted: list[str] = []
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(WORKERS)
        self._relay = _Relay(self)
        self._relay.done.connect(self._done, Qt.ConnectionType.QueuedConnection)
        self._closed = False

    @property
    def nbytes(self) -> int:
        return sum(e.nbytes for e in self._entries.values())

    @property
    def closed(self) -> bool:
        return self._closed

    def get(self, pair_id: str) -> DecodedPair | None:
        entry = self._entries.get(pair_id)
        if entry is not None:
            self._entries.move_to_end(pair_id)
        return entry

    def request(self, pairs: list[Pair]) -> None:
        """Make sure these pairs get decoded, the first one first; they are kept while they are wanted."""
        if self._closed:
            return
        self._wanted = [p.id for p in pairs]
        for rank, pair in enumerate(pairs):
            entry = self._entries.get(pair.id)
            stale = (
                entry is not None
                and entry.error is None
                and self.fit_size is not None
                and entry.fit_size != self.fit_size
            )
            if (entry is None or stale) and pair.id not in self._pending:
                self._pending.add(pair.id)
                self._pool.start(_DecodeJob(pair, self.logbook, self.fit_size, self._relay), len(pairs) - rank)

    def _done(self, result: DecodedPair) -> None:
        self._pending.discard(result.pair_id)
        if self._closed:
            return
        self._entries[result.pair_id] = result
        self._entries.move_to_end(result.pair_id)
        self._evict()
        self.loaded.emit(result.pair_id)

    def _evict(self) -> None:
        total = self.nbytes
        for pair_id in list(self._entries):
            if total <= self.budget:
                break
            if pair_id in self._wanted:
                continue
            total -= self._entries.pop(pair_id).nbytes

    def reopen(self) -> None:
        """Accept requests again after `close` (the window was shown again)."""
        self._closed = False

    def close(self) -> None:
        """Stop decoding and free the images; waits for running workers (each finishes within one decode)."""
        self._closed = True
        self._pool.clear()
        self._pool.waitForDone()
        self._entries.clear()
