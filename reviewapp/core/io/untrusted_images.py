"""Decode untrusted images under byte and pixel caps, for display.

Logbook images come from data URIs in figure HTML, from paths in markdown and from workspace files. None of
them is trusted: a 49 KB PNG can declare 20000x20000 pixels, a "picture" can be a FIFO or a 300 MB file, and a
path can lead out of the logbook. Everything here checks size and location before reading, checks the declared
pixel count before decoding, and decodes only the raster formats listed.
"""

from __future__ import annotations

import base64
import binascii
import io
import os
import re
import stat
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError, features

from reviewapp.core.io.pixel_budget import PixelBudget
from reviewapp.core.io.safepath import UnsafeReference, is_contained, read_capped, resolve_inside
from reviewapp.core.io.svg_budget import svg_budget_refusal

MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_IMAGE_PIXELS = 25_000_000  # 5000 x 5000; decoding more than this would stall the window for seconds
MAX_DISPLAY_SIDE = 2400  # larger images are scaled down once after decoding; zoom never needs more

_FORMATS = ["PNG", "JPEG", "GIF", "WEBP", "BMP"]
RASTER_FORMATS: tuple[str, ...] = tuple(_FORMATS + (["AVIF"] if features.check("avif") else []))
_DATA_URI = re.compile(r"^data:(?P<mime>image/[A-Za-z0-9.+-]+)?(?P<params>(?:;[^,;]*)*),", re.IGNORECASE)


class ImageRefused(ValueError):
    """The image was not read or not decoded; the message says why (shown in the placeholder)."""


@dataclass(frozen=True, slots=True)
class DecodedImage:
    """RGBA pixels, 4 bytes per pixel, rows packed (stride = 4 * width)."""

    width: int
    height: int
    rgba: bytes
    source_width: int  # as the file declared, before any downscaling
    source_height: int
    format: str


# warnings.catch_warnings swaps a process-wide filter list: two threads opening images at once could leave the
# "error" filter installed for everyone. Only Image.open (header parsing, fast) runs under this lock.
_OPEN_LOCK = threading.Lock()


def open_untrusted(data: bytes, *, formats: Sequence[str], max_pixels: int) -> Image.Image:
    """Open image bytes from an untrusted source without decoding pixels.

    Only `formats` are tried, Pillow's decompression-bomb warning is an error, and the declared size is checked
    against `max_pixels` before anything is decoded. The caller closes the image.
    """
    try:
        with _OPEN_LOCK, warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=list(formats))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageRefused(f"image declares too many pixels ({exc})") from exc
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ImageRefused(f"not a supported image ({', '.join(formats)})") from exc
    width, height = image.size
    if width <= 0 or height <= 0:
        image.close()
        raise ImageRefused("image has no pixels")
    if width * height > max_pixels:
        image.close()
        raise ImageRefused(f"image is {width}x{height} pixels, over the {max_pixels:,}-pixel limit")
    return image


SizeCheck = Callable[[int, int], None]  # (width, height) from the header; raises ImageRefused to refuse


def charged_to(budget: PixelBudget, page: str, image: str) -> SizeCheck:
    """A size check that charges the pixels an image declares to its page's budget, and refuses past it."""

    def check(width: int, height: int) -> None:
        if not budget.take(page, image, width * height):
            raise ImageRefused(budget.refusal(page))

    return check


def decode_image(
    data: bytes,
    *,
    max_pixels: int = MAX_IMAGE_PIXELS,
    max_side: int | None = MAX_DISPLAY_SIDE,
    check: SizeCheck | None = None,
) -> DecodedImage:
    """Decode raster image bytes; ImageRefused when the format is not allowed, it declares too many pixels, or
    `check` refuses the size it declares (a page's pixel budget, say: asked before any pixel is decoded)."""
    image = open_untrusted(data, formats=RASTER_FORMATS, max_pixels=max_pixels)
    with image:
        width, height = image.size
        if check is not None:
            check(width, height)
        try:
            if max_side and image.format == "JPEG":
                image.draft("RGB", (max_side, max_side))  # decode at reduced scale: cheaper, same result
            image.load()
            shown = image.convert("RGBA")
            if max_side and max(shown.size) > max_side:
                shown.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
            return DecodedImage(shown.width, shown.height, shown.tobytes(), width, height, image.format or "")
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
            raise ImageRefused(f"image could not be decoded: {exc}") from exc


def read_local_image(
    root: Path,
    reference: str,
    *,
    max_bytes: int = MAX_IMAGE_BYTES,
    max_pixels: int = MAX_IMAGE_PIXELS,
    max_side: int | None = MAX_DISPLAY_SIDE,
    check: SizeCheck | None = None,
) -> DecodedImage:
    """Decode the image `reference` names relative to `root`, refusing anything outside it or over the caps."""
    try:
        target = resolve_inside(root, reference)
    except UnsafeReference as exc:
        raise ImageRefused(str(exc)) from exc
    return read_image_file(root, target, max_bytes=max_bytes, max_pixels=max_pixels, max_side=max_side, check=check)


def read_image_file(
    root: Path,
    path: Path,
    *,
    max_bytes: int = MAX_IMAGE_BYTES,
    max_pixels: int = MAX_IMAGE_PIXELS,
    max_side: int | None = MAX_DISPLAY_SIDE,
    check: SizeCheck | None = None,
) -> DecodedImage:
    """Decode `path`, which must really lie inside `root` and be a regular file of at most `max_bytes`."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        raise ImageRefused("file not found") from exc
    if not is_contained(root, real):
        raise ImageRefused(f"{path.name} leads outside {Path(os.path.realpath(root)).name}/")
    try:
        info = real.stat()  # stat only: a FIFO or device is refused without ever being opened
    except OSError as exc:
        raise ImageRefused(f"cannot read: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise ImageRefused("not a regular file")
    if info.st_size > max_bytes:
        raise ImageRefused(f"file is {info.st_size:,} bytes, over the {max_bytes:,}-byte limit")
    try:
        data = read_capped(real, max_bytes)
    except UnsafeReference as exc:
        raise ImageRefused(str(exc)) from exc
    return decode_image(data, max_pixels=max_pixels, max_side=max_side, check=check)


def data_uri_bytes(uri: str, *, max_bytes: int = MAX_IMAGE_BYTES) -> bytes:
    """The payload of a base64 `data:image/...` URI, refused before decoding when it would exceed `max_bytes`."""
    match = _DATA_URI.match(uri.strip())
    if match is None or not match.group("mime"):
        raise ImageRefused("not an image data URI")
    if "base64" not in match.group("params").lower():
        raise ImageRefused("image data URI is not base64")
    payload = uri.strip()[match.end() :]
    if len(payload) * 3 // 4 > max_bytes:
        raise ImageRefused(f"embedded image is about {len(payload) * 3 // 4:,} bytes, over {max_bytes:,}")
    payload = re.sub(r"\s+", "", payload)
    try:
        return base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ImageRefused("embedded image is not valid base64") from exc


_SVG_EXTERNAL = re.compile(
    r"""(?:xlink:)?href\s*=\s*["']\s*(?!#)|<image\b|@import|url\(\s*["']?\s*(?!#)|<!ENTITY|<foreignObject\b""",
    re.IGNORECASE,
)
MAX_SVG_CHARS = 2_000_000


def svg_refusal(svg: str) -> str | None:
    """Why an inline SVG must not be rendered (it names something outside itself, is too big, or would take too
    long to draw); None if fine."""
    if len(svg) > MAX_SVG_CHARS:
        return f"SVG is {len(svg):,} characters, over the {MAX_SVG_CHARS:,} limit"
    match = _SVG_EXTERNAL.search(svg)
    if match:
        return f"SVG refers to content outside itself ({match.group(0).strip()!r})"
    return svg_budget_refusal(svg)  # after the check above: no entities, so parsing cannot expand
