"""Pair sets: which image pairs a rater compares, loaded from a manifest, two folders, or images in a logbook.

A set is found in a logbook's workspace (or Space folder) as a manifest named `<name>-pairs.json` or
`<name>-pairs.csv`. The CSV form lists pairs only:

    pair_id,left,right,prompt,seed          # any further column is metadata
    p01,baseline/p01.png,quantized/p01.png,"a red bicycle",7

The JSON form also carries the set's settings, and lists its pairs inline, names a CSV, or names two folders
whose images are matched by file name:

    {"claim": "4", "question": "Which image is more usable?", "instructions": "...",
     "conditions": ["baseline", "quantized"], "controls": {"rate": 0.1},
     "pairs": "usability-pairs.csv"}          # or [{"id", "left", "right", "prompt", ...}], or
     "folders": ["baseline", "quantized"]}

"left" and "right" in a manifest name the two conditions (a and b), never the side a rater sees: sides are
assigned per trial by the protocol. An image reference is a path relative to the manifest (inside the logbook's
folder), `figure:<page slug>/<cell ordinal>[/<image index>]` for an image embedded in a figure cell, or
`artifact:<page slug>/<cell ordinal>` for the local file an artifact cell names.

Every problem (a missing, damaged, oversized or folder-in-place image, two images of different sizes, a
duplicate id) is reported for its pair; the set stays usable with the rest.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewapp.core.io.safepath import UnsafeReference, read_capped, resolve_inside
from reviewapp.core.logbook.cell_details import figure_details
from reviewapp.core.logbook.model import CellKind, Logbook
from reviewapp.core.pairs.pair_images import (
    MAX_PAIR_IMAGE_BYTES,
    ImageInfo,
    ImageProblem,
    probe_image,
    read_image_bytes,
)
from reviewapp.core.pairs.protocol import ControlSettings

MANIFEST_SUFFIXES = ("-pairs.json", "-pairs.csv")
MAX_MANIFEST_BYTES = 8 * 1024 * 1024
MAX_PAIRS = 20_000
DEFAULT_QUESTION = "Which image is better?"
DEFAULT_INSTRUCTIONS = (
    "You will see two images at a time. Compare them closely (zoom in, flicker, wipe) and say which one is "
    "better, or that you see no difference. Mark an image unusable when you would not accept it at all."
)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif", ".tif", ".tiff")
_SCAN_DEPTH = 4
_SCAN_LIMIT = 20_000  # directory entries looked at while discovering manifests
_SKIP_DIRS = {"reviews", "node_modules", "__pycache__", "venv"}
_NAME = re.compile(r"[^A-Za-z0-9_.-]+")
_ABSOLUTE = re.compile(r"^(?:[\\/]|[A-Za-z]:[\\/]|file:)", re.IGNORECASE)


class PairSetError(ValueError):
    """The set as a whole cannot be loaded (unreadable manifest, no pairs); the message names the file."""


@dataclass(frozen=True, slots=True)
class ImageRef:
    reference: str  # as written in the manifest
    path: Path | None = None  # a file inside the logbook's folder
    embedded: tuple[str, int, int] | None = None  # (page slug, cell ordinal, image index) of a figure image

    def read(self, logbook: Logbook | None, limit: int = MAX_PAIR_IMAGE_BYTES) -> bytes:
        if self.path is not None:
            return read_image_bytes(self.path, limit)
        if self.embedded is None or logbook is None:
            raise ImageProblem("names no image")
        slug, ordinal, index = self.embedded
        page = logbook.page(slug)
        if page is None or ordinal >= len(page.cells):
            raise ImageProblem(f"no cell {ordinal} on page {slug!r}")
        cell = page.cells[ordinal]
        if cell.kind is not CellKind.FIGURE:
            raise ImageProblem(f"cell {ordinal} on page {slug!r} is not a figure")
        images = figure_details(cell).images
        if index >= len(images):
            raise ImageProblem(f"figure cell {ordinal} on page {slug!r} has no image {index}")
        try:
            return images[index].data(limit)
        except ValueError as exc:
            raise ImageProblem(str(exc)) from exc


@dataclass(frozen=True, slots=True)
class PairProblem:
    pair_id: str
    message: str

    def __str__(self) -> str:
        return f"pair {self.pair_id}: {self.message}"


@dataclass(slots=True)
class Pair:
    id: str
    a: ImageRef  # the manifest's left column: condition a
    b: ImageRef  # the manifest's right column: condition b
    prompt: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    a_info: ImageInfo | None = None  # set by validate_pairs
    b_info: ImageInfo | None = None

    def image(self, condition: str) -> ImageRef:
        return self.a if condition == "a" else self.b


@dataclass(slots=True)
class PairSet:
    name: str  # safe as a file-name part: results go to reviews/pairs/<name>-<annotator>.csv
    source: str  # the manifest or folders it came from, relative to the logbook's folder
    conditions: tuple[str, str]  # names of conditions a and b
    pairs: list[Pair]
    question: str = DEFAULT_QUESTION
    instructions: str = DEFAULT_INSTRUCTIONS
    claim: str | None = None  # claim key the set is attached to
    controls: ControlSettings = field(default_factory=ControlSettings)
    show_prompt: bool = True
    problems: list[PairProblem] = field(default_factory=list)  # per pair
    set_problems: list[str] = field(default_factory=list)  # about the set as a whole (unknown claim, ...)
    logbook: Logbook | None = field(default=None, repr=False)
    validated: bool = False
    listed_ids: set[str] = field(default_factory=set, repr=False, compare=False)  # ids of rows added so far

    @property
    def rateable(self) -> list[Pair]:
        bad = {p.pair_id for p in self.problems}
        return [p for p in self.pairs if p.id not in bad]

    def pair(self, pair_id: str) -> Pair | None:
        return next((p for p in self.pairs if p.id == pair_id), None)

    def fingerprint(self) -> str:
        """sha256 over the rateable pairs' ids and image hashes: changes when any image a rater sees changes."""
        digest = hashlib.sha256()
        for pair in self.rateable:
            a = pair.a_info.sha256 if pair.a_info else pair.a.reference
            b = pair.b_info.sha256 if pair.b_info else pair.b.reference
            digest.update(f"{pair.id}\0{a}\0{b}\n".encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def hidden_words(self) -> set[str]:
        """Text that would reveal a pair's condition if the rating window showed it."""
        words: set[str] = {c for c in self.conditions if c}
        for pair in self.pairs:
            for ref in (pair.a, pair.b):
                words.add(ref.reference)
                if ref.path is not None:
                    words.update({ref.path.name, ref.path.stem, ref.path.parent.name})
            words.update(v for v in pair.metadata.values() if v)
        return {w for w in words if len(w) >= 3}

    def shown_prompt(self, pair: Pair) -> str | None:
        """The pair's prompt when the set shows prompts and it names neither condition."""
        if not self.show_prompt or not pair.prompt:
            return None
        lowered = pair.prompt.casefold()
        if any(c.casefold() in lowered for c in self.conditions):
            return None
        return pair.prompt


# -- finding and loading --------------------------------------------------------------------------------------


def base_folder(logbook: Logbook) -> Path:
    """Where pair images live: the workspace holding .trackio/, or the Space folder itself."""
    return logbook.workspace or logbook.root


def find_manifests(logbook: Logbook) -> dict[str, Path]:
    """Set name -> manifest path for every `*-pairs.json` / `*-pairs.csv` in the logbook's folder (JSON wins)."""
    base = base_folder(logbook)
    found: dict[str, Path] = {}
    for path in sorted(_walk(base), key=lambda p: (p.suffix != ".json", len(p.parts), str(p))):
        name = set_name_of(path)
        if name and name not in found:
            found[name] = path
    return found


def _walk(base: Path) -> Iterator[Path]:
    seen = 0
    stack: list[tuple[Path, int]] = [(base, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > _SCAN_LIMIT:
                return
            if entry.name.startswith(".") or entry.name in _SKIP_DIRS:
                continue
            if entry.is_dir(follow_symlinks=False):
                if depth < _SCAN_DEPTH:
                    stack.append((Path(entry.path), depth + 1))
            elif entry.is_file(follow_symlinks=False) and entry.name.lower().endswith(MANIFEST_SUFFIXES):
                yield Path(entry.path)


def set_name_of(manifest: Path) -> str:
    lowered = manifest.name.lower()
    for suffix in MANIFEST_SUFFIXES:
        if lowered.endswith(suffix):
            return safe_name(manifest.name[: -len(suffix)])
    return safe_name(manifest.stem)


def safe_name(text: str) -> str:
    return _NAME.sub("-", text).strip("-.")[:80] or "pairs"


def load_set(logbook: Logbook, name: str | None = None, *, validate: bool = True) -> PairSet:
    """The set called `name` (the only one when None); PairSetError listing what exists otherwise."""
    manifests = find_manifests(logbook)
    if name is None:
        if len(manifests) != 1:
            listed = ", ".join(sorted(manifests)) or "none"
            raise PairSetError(f"choose a pair set with --set (sets in this logbook: {listed})")
        name = next(iter(manifests))
    path = manifests.get(safe_name(name))
    if path is None:
        listed = ", ".join(sorted(manifests)) or "none (add a <name>-pairs.csv or <name>-pairs.json)"
        raise PairSetError(f"no pair set {name!r} in this logbook (sets: {listed})")
    return load_manifest(logbook, path, validate=validate)


def load_manifest(logbook: Logbook, manifest: Path, *, validate: bool = True) -> PairSet:
    base = base_folder(logbook)
    label = _relative_label(base, manifest)
    data = _read_text(manifest, label)
    name = set_name_of(manifest)
    if manifest.suffix.lower() == ".csv":
        pair_set = PairSet(name, label, ("A", "B"), [], logbook=logbook)
        _pairs_from_csv(pair_set, data, manifest, base, label)
        pair_set.conditions = _conditions_from_folders(pair_set.pairs) or ("A", "B")
    else:
        pair_set = _from_json(logbook, data, manifest, base, label, name)
    if not pair_set.pairs:
        raise PairSetError(f"{label}: lists no pairs")
    if validate:
        validate_pairs(pair_set)
    return pair_set


def pairs_from_folders(
    logbook: Logbook, left: str, right: str, *, name: str | None = None, validate: bool = True
) -> PairSet:
    """A set from two folders (relative to the logbook's folder), pairing images with the same file name."""
    base = base_folder(logbook)
    pair_set = PairSet(
        safe_name(name or f"{Path(left).name}-vs-{Path(right).name}"),
        f"{left} | {right}",
        (Path(left).name or "A", Path(right).name or "B"),
        [],
        logbook=logbook,
    )
    _pairs_from_folders(pair_set, base, "", left, right, pair_set.source)
    if not pair_set.pairs:
        raise PairSetError(f"{left} and {right}: no images to pair")
    if validate:
        validate_pairs(pair_set)
    return pair_set


def _from_json(logbook: Logbook, text: str, manifest: Path, base: Path, label: str, name: str) -> PairSet:
    try:
        spec = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise PairSetError(f"{label}: not valid JSON ({exc})") from None
    if not isinstance(spec, dict):
        raise PairSetError(f"{label}: expected a JSON object")
    conditions = spec.get("conditions")
    pair_set = PairSet(
        safe_name(str(spec["name"])) if isinstance(spec.get("name"), str) else name,
        label,
        ("A", "B"),
        [],
        question=_text(spec.get("question")) or DEFAULT_QUESTION,
        instructions=_text(spec.get("instructions")) or DEFAULT_INSTRUCTIONS,
        show_prompt=spec.get("show_prompt") is not False,
        logbook=logbook,
    )
    _apply_controls(pair_set, spec.get("controls"), label)
    claim = spec.get("claim")
    if isinstance(claim, str | int) and not isinstance(claim, bool):
        found = logbook.claim(claim)
        if found is None:
            pair_set.set_problems.append(f"{label}: claim {claim!r} is not in this logbook; the set is not attached")
        else:
            pair_set.claim = found.key
    relative_dir = _relative_dir(base, manifest)
    pairs = spec.get("pairs")
    folders = spec.get("folders")
    if isinstance(pairs, list):
        for number, entry in enumerate(pairs[:MAX_PAIRS], start=1):
            if not isinstance(entry, dict):
                pair_set.set_problems.append(f"{label}: pair {number} is not an object; skipped")
                continue
            row = {str(k): v for k, v in entry.items()}
            _add_row(pair_set, row, base, relative_dir, label, number)
    elif isinstance(pairs, str):
        csv_path = _resolve(base, relative_dir, pairs)
        if csv_path is None:
            raise PairSetError(f"{label}: pairs file {pairs!r} is outside the logbook's folder")
        csv_label = _relative_label(base, csv_path)
        _pairs_from_csv(pair_set, _read_text(csv_path, csv_label), csv_path, base, csv_label)
    elif isinstance(folders, list | dict):
        names = list(folders.values()) if isinstance(folders, dict) else folders
        if len(names) != 2 or not all(isinstance(f, str) for f in names):
            raise PairSetError(f"{label}: 'folders' must name exactly two folders")
        _pairs_from_folders(pair_set, base, relative_dir, names[0], names[1], label)
    else:
        raise PairSetError(f"{label}: needs 'pairs' (a list or a CSV file name) or 'folders' (two folder names)")
    if isinstance(conditions, list) and len(conditions) == 2 and all(isinstance(c, str) and c for c in conditions):
        pair_set.conditions = (conditions[0], conditions[1])
    else:
        pair_set.conditions = _conditions_from_folders(pair_set.pairs) or ("A", "B")
    return pair_set


def _apply_controls(pair_set: PairSet, value: Any, label: str) -> None:
    if value is None:
        return
    if value is False:
        pair_set.controls = ControlSettings(rate=0.0)
        return
    if not isinstance(value, dict):
        pair_set.set_problems.append(f"{label}: 'controls' must be an object; defaults used")
        return
    try:
        pair_set.controls = ControlSettings.from_dict({**ControlSettings().to_dict(), **value})
    except (TypeError, ValueError) as exc:
        pair_set.set_problems.append(f"{label}: controls not used ({exc}); defaults used")


def _pairs_from_csv(pair_set: PairSet, text: str, path: Path, base: Path, label: str) -> None:
    reader = csv.DictReader(io.StringIO(text))
    fields = [f.strip().lower() for f in reader.fieldnames or []]
    if "left" not in fields or "right" not in fields:
        raise PairSetError(f"{label}: the header needs 'left' and 'right' columns (found: {', '.join(fields)})")
    reader.fieldnames = fields
    relative_dir = _relative_dir(base, path)
    for number, row in enumerate(reader, start=1):
        if number > MAX_PAIRS:
            pair_set.set_problems.append(f"{label}: more than {MAX_PAIRS:,} pairs; the rest is ignored")
            break
        _add_row(pair_set, {k: v for k, v in row.items() if k is not None}, base, relative_dir, label, number + 1)


def _add_row(pair_set: PairSet, row: dict[str, Any], base: Path, relative_dir: str, label: str, line: int) -> None:
    pair_id = _text(row.get("pair_id")) or _text(row.get("id")) or f"row-{line}"
    left, right = _text(row.get("left")), _text(row.get("right"))
    prompt = _text(row.get("prompt"))
    known = ("pair_id", "id", "left", "right", "prompt")
    metadata = {k: str(v) for k, v in row.items() if k not in known and v not in (None, "")}
    if pair_id in pair_set.listed_ids:  # a set, not a scan of the pairs: 20,000 rows stay linear
        pair_set.problems.append(PairProblem(pair_id, f"listed twice in {label} (line {line}); only the first is used"))
        return
    pair_set.listed_ids.add(pair_id)
    pair = Pair(pair_id, _ref(pair_set, base, relative_dir, left), _ref(pair_set, base, relative_dir, right), prompt)
    pair.metadata = metadata
    pair_set.pairs.append(pair)
    for side, written in (("left", left), ("right", right)):
        if not written:
            pair_set.problems.append(PairProblem(pair_id, f"no {side} image given ({label}, line {line})"))


def _ref(pair_set: PairSet, base: Path, relative_dir: str, written: str | None) -> ImageRef:
    if not written:
        return ImageRef("")
    match = re.fullmatch(r"(figure|artifact):([^/]+)/(\d+)(?:/(\d+))?", written.strip())
    if match:
        kind, slug, ordinal, index = match.group(1), match.group(2), int(match.group(3)), int(match.group(4) or 0)
        if kind == "figure":
            return ImageRef(written, embedded=(slug, ordinal, index))
        return ImageRef(written, path=_artifact_path(pair_set.logbook, base, slug, ordinal))
    return ImageRef(written, path=_resolve(base, relative_dir, written))


def _artifact_path(logbook: Logbook | None, base: Path, slug: str, ordinal: int) -> Path | None:
    page = logbook.page(slug) if logbook else None
    if page is None or ordinal >= len(page.cells) or page.cells[ordinal].kind is not CellKind.ARTIFACT:
        return None
    path = page.cells[ordinal].header.get("path")
    return _resolve(base, "", path) if isinstance(path, str) else None


def _pairs_from_folders(pair_set: PairSet, base: Path, relative_dir: str, left: str, right: str, label: str) -> None:
    folders = []
    for written in (left, right):
        folder = _resolve(base, relative_dir, written)
        if folder is None or not folder.is_dir():
            raise PairSetError(f"{label}: folder {written!r} is not a folder inside the logbook's folder")
        folders.append(folder)
    refused: list[str] = []
    images = [_images_in(base, folder, refused) for folder in folders]
    pair_set.set_problems.extend(f"{label}: {name} refused: leads outside the logbook's folder" for name in refused)
    for stem in sorted(set(images[0]) | set(images[1])):
        a, b = images[0].get(stem), images[1].get(stem)
        pair = Pair(
            stem,
            ImageRef(f"{left}/{a.name}" if a else "", path=a),
            ImageRef(f"{right}/{b.name}" if b else "", path=b),
        )
        pair_set.pairs.append(pair)
        if a is None or b is None:
            missing = left if a is None else right
            pair_set.problems.append(PairProblem(stem, f"no image of that name in {missing}/"))
        if len(pair_set.pairs) >= MAX_PAIRS:
            pair_set.set_problems.append(f"{label}: more than {MAX_PAIRS:,} pairs; the rest is ignored")
            break


def _images_in(base: Path, folder: Path, refused: list[str]) -> dict[str, Path]:
    """Image files in `folder` by stem; an entry that is a link leading out of `base` is refused, not followed."""
    found: dict[str, Path] = {}
    real_base = os.path.realpath(base)
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name.startswith(".") or not entry.name.lower().endswith(IMAGE_SUFFIXES):
            continue
        path = Path(entry.path)
        if entry.is_symlink():
            reference = os.path.relpath(os.path.join(os.path.realpath(folder), entry.name), real_base)
            try:
                path = resolve_inside(base, reference)
            except UnsafeReference:
                refused.append(f"{folder.name}/{entry.name}")
                continue
        found.setdefault(Path(entry.name).stem, path)
    return found


def _conditions_from_folders(pairs: list[Pair]) -> tuple[str, str] | None:
    """Name the conditions after the folders their images are in, when every pair agrees (baseline/ quantized/)."""
    a = {p.a.path.parent.name for p in pairs if p.a.path is not None}
    b = {p.b.path.parent.name for p in pairs if p.b.path is not None}
    if len(a) == 1 and len(b) == 1 and a != b:
        return a.pop(), b.pop()
    return None


def _resolve(base: Path, relative_dir: str, written: str) -> Path | None:
    if _ABSOLUTE.match(written.strip()):  # joined to the manifest's folder it would look relative
        return None
    reference = f"{relative_dir}/{written}" if relative_dir else written
    try:
        return resolve_inside(base, reference)
    except UnsafeReference:
        return None


def _relative_dir(base: Path, path: Path) -> str:
    try:
        return path.parent.resolve().relative_to(Path(os.path.realpath(base))).as_posix().strip(".")
    except ValueError:
        return ""


def _relative_label(base: Path, path: Path) -> str:
    real_base = Path(os.path.realpath(base))
    for candidate in (path, path.resolve()):  # as resolved inside the logbook first: a Hub cache file links to a blob
        if candidate.is_relative_to(real_base):
            return candidate.relative_to(real_base).as_posix()
    return path.name


def _read_text(path: Path, label: str) -> str:
    try:
        data = read_capped(path, MAX_MANIFEST_BYTES)
    except UnsafeReference as exc:
        raise PairSetError(f"{label}: {exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PairSetError(f"{label}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


# -- validation -----------------------------------------------------------------------------------------------


def validate_pairs(pair_set: PairSet) -> list[PairProblem]:
    """Read and check every image (format, size caps, structure, matching sizes); problems are added per pair."""
    already = {p.pair_id for p in pair_set.problems}
    # One file named by many pairs is read and hashed once (2,000 pairs on one 27 MB image took minutes).
    probed: dict[tuple[str, str], ImageInfo | ImageProblem] = {}
    for pair in pair_set.pairs:
        if pair.id in already:
            continue
        infos: dict[str, ImageInfo] = {}
        for condition, ref in (("a", pair.a), ("b", pair.b)):
            side = "left" if condition == "a" else "right"
            if ref.path is None and ref.embedded is None:
                pair_set.problems.append(PairProblem(pair.id, f"{side} image {ref.reference!r} is outside the folder"))
                continue
            key = (str(ref.path or ""), ref.reference)
            if key not in probed:
                try:
                    probed[key] = probe_image(ref.read(pair_set.logbook))
                except ImageProblem as exc:
                    probed[key] = exc
            found = probed[key]
            if isinstance(found, ImageProblem):
                pair_set.problems.append(PairProblem(pair.id, f"{side} image {ref.reference!r}: {found}"))
            else:
                infos[condition] = found
        pair.a_info, pair.b_info = infos.get("a"), infos.get("b")
        if len(infos) == 2 and infos["a"].dimensions != infos["b"].dimensions:
            pair_set.problems.append(
                PairProblem(pair.id, f"the images differ in size ({infos['a'].dimensions} vs {infos['b'].dimensions})")
            )
    pair_set.validated = True
    return pair_set.problems
