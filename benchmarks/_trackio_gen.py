"""Build a large logbook with the real trackio package (run inside trackio's own virtual environment).

Usage: python _trackio_gen.py OUT --pages N --runs N --figures N --events N [--seed N]

OUT/workspace/ becomes the agent's workspace (holding .trackio/), OUT/transcript/session.jsonl the agent
transcript that trackio attaches, and OUT/generated.json a summary of what trackio itself parsed back.

trackio rewrites its site files (manifest, trace and workspace views, token estimates over every page) after
every cell, which makes thousands of cells take hours. Those rewrites are switched off while generating and done
once at the end, which leaves the same files a real session would have left behind.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import trackio
from PIL import Image, ImageChops, ImageDraw, ImageOps
from trackio import logbook

VERDICTS = ("VERIFIED", "PARTIALLY VERIFIED", "FALSIFIED", "TOY", "INCONCLUSIVE")
VOCABULARY = (
    "the model baseline ablation seed variance dataset split loss metric gradient schedule warmup optimizer batch "
    "learning rate checkpoint evaluation accuracy paper appendix table figure claim reproduce scale kernel "
    "regularization noise budget compute sweep configuration convergence"
)
WORDS = tuple(VOCABULARY.split())


def sentence(rng: random.Random, n_words: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n_words)]
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random, n_sentences: int) -> str:
    return " ".join(sentence(rng, rng.randint(8, 20)) for _ in range(n_sentences))


# ---- run outputs -----------------------------------------------------------------------------------------


def training_log(rng: random.Random, n_chars: int, exit_code: int) -> str:
    """A training log shaped like real run output: progress lines, evals, warnings, a traceback on failure."""
    lines: list[str] = [
        f"Using device: cpu (torch {rng.randint(1, 2)}.{rng.randint(0, 9)}.{rng.randint(0, 3)})",
        f"Loaded dataset with {rng.randint(1_000, 2_000_000):,} examples",
    ]
    size = sum(len(line) + 1 for line in lines)
    step, loss, acc = 0, rng.uniform(2.0, 4.0), rng.uniform(0.05, 0.2)
    while size < n_chars:
        step += rng.choice((10, 20, 50))
        loss = max(0.01, loss * rng.uniform(0.97, 1.005))
        acc = min(0.999, acc + rng.uniform(-0.002, 0.01))
        roll = rng.random()
        if roll < 0.02:
            line = f"WARNING: grad norm {rng.uniform(5, 80):.2f} exceeds clip threshold at step {step}"
        elif roll < 0.07:
            line = (
                f"[eval] step {step} val_loss={loss * rng.uniform(1.0, 1.2):.4f} "
                f"val_acc={acc * rng.uniform(0.9, 1.0):.4f} best={acc:.4f}"
            )
        else:
            line = (
                f"step {step:>6} | loss {loss:.4f} | acc {acc:.4f} | lr {3e-4 * rng.uniform(0.1, 1):.2e} "
                f"| grad_norm {rng.uniform(0.2, 3):.3f} | {rng.uniform(5, 40):.1f} it/s"
            )
        lines.append(line)
        size += len(line) + 1
    if exit_code:
        lines += [
            "Traceback (most recent call last):",
            '  File "train.py", line 212, in <module>',
            "    main(args)",
            '  File "train.py", line 187, in main',
            "    loss.backward()",
            "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB",
        ]
    else:
        lines.append(f"final: loss={loss:.4f} acc={acc:.4f} steps={step}")
    return "\n".join(lines)


def experiment_script(rng: random.Random, claim: int) -> str:
    body = [
        f'"""Reproduce claim {claim}: {sentence(rng, 10)}"""',
        "import argparse",
        "import json",
        "",
        "",
        "def main() -> None:",
        "    parser = argparse.ArgumentParser()",
        '    parser.add_argument("--seed", type=int, default=0)',
        '    parser.add_argument("--lr", type=float, default=3e-4)',
        "    args = parser.parse_args()",
    ]
    for i in range(rng.randint(20, 50)):
        body.append(
            f"    value_{i} = args.seed * {rng.uniform(0, 3):.4f} + {rng.uniform(-1, 1):.4f}  # {sentence(rng, 6)}"
        )
    body += ['    print(json.dumps({"ok": True}))', "", "", 'if __name__ == "__main__":', "    main()", ""]
    return "\n".join(body)


# ---- figures ---------------------------------------------------------------------------------------------


def photo_png(rng: random.Random, w: int, h: int) -> Image.Image:
    gx = Image.linear_gradient("L").rotate(rng.uniform(0, 360)).resize((w, h))
    gr = Image.radial_gradient("L").resize((w, h))
    img = Image.merge("RGB", (gx, gr, ImageChops.invert(gx)))
    blob = Image.effect_noise((w // 16, h // 16), 80).resize((w, h), Image.Resampling.BICUBIC)
    img = Image.blend(img, Image.merge("RGB", (blob, gx, blob)), 0.4)
    grain = Image.effect_noise((w, h), rng.uniform(25, 50))
    img = Image.blend(img, Image.merge("RGB", (grain, grain, grain)), rng.uniform(0.08, 0.15))
    return ImageOps.posterize(img, rng.choice((5, 6)))


def plot_png(rng: random.Random, w: int, h: int) -> Image.Image:
    """Line plot beside a noisy heatmap panel, the usual shape of a results figure."""
    img = Image.new("RGB", (w, h), "white")
    heat = photo_png(rng, w // 2, h)
    img.paste(heat, (w // 2, 0))
    draw = ImageDraw.Draw(img)
    draw.line([(20, h - 20), (w // 2 - 10, h - 20)], fill="black")
    draw.line([(20, 10), (20, h - 20)], fill="black")
    for color in ("#1f77b4", "#ff7f0e", "#2ca02c"):
        y = rng.uniform(h * 0.2, h * 0.8)
        points = []
        for x in range(22, w // 2 - 10, 3):
            y = min(h - 22, max(12, y + rng.gauss(0, 4)))
            points.append((x, y))
        draw.line(points, fill=color, width=2)
        for x, y in points[::6]:
            draw.ellipse([x - 2, y - 2, x + 2, y + 2], outline=color)
    return img


def figure_file(rng: random.Random, folder: Path, index: int) -> Path:
    maker = photo_png if index % 2 else plot_png
    img = maker(rng, rng.choice((320, 360)), rng.choice((220, 240, 260)))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    path = folder / f"figure_{index:04d}.png"
    path.write_bytes(buf.getvalue())
    return path


def figure_raw(rng: random.Random, large: bool) -> str:
    rows = ["step,loss,accuracy"]
    for step in range(rng.randint(120, 400) if large else rng.randint(5, 12)):
        rows.append(f"{step * 100},{rng.uniform(0.01, 3):.4f},{rng.uniform(0.1, 1):.4f}")
    return "\n".join(rows)


# ---- transcript ------------------------------------------------------------------------------------------


class Transcript:
    """Claude Code JSONL records; trackio turns each content block into one trace event."""

    def __init__(self, rng: random.Random, session_id: str, cwd: str) -> None:
        self.rng = rng
        self.session_id = session_id
        self.cwd = cwd
        self.records: list[dict] = []
        self.events = 0
        self.clock = datetime(2026, 7, 20, 9, 0, 0, tzinfo=UTC)
        self.parent: str | None = None
        self.call = 0

    def _record(self, kind: str, message: dict, n_events: int) -> None:
        self.clock += timedelta(seconds=self.rng.randint(1, 40))
        uid = str(uuid.UUID(int=self.rng.getrandbits(128)))
        self.records.append(
            {
                "parentUuid": self.parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": self.cwd,
                "sessionId": self.session_id,
                "version": "2.0.14",
                "gitBranch": "main",
                "type": kind,
                "message": message,
                "uuid": uid,
                "timestamp": self.clock.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
            }
        )
        self.parent = uid
        self.events += n_events

    def user_text(self, text: str) -> None:
        self._record("user", {"role": "user", "content": [{"type": "text", "text": text}]}, 1)

    def assistant(self, blocks: list[dict]) -> None:
        message = {
            "id": f"msg_{self.rng.getrandbits(64):016x}",
            "type": "message",
            "role": "assistant",
            "model": "agent-model-large",
            "content": blocks,
            "stop_reason": None,
            "usage": {"input_tokens": self.rng.randint(10, 4000), "output_tokens": self.rng.randint(10, 900)},
        }
        self._record("assistant", message, len(blocks))

    def tool_step(self, remaining: int, claim: int) -> None:
        """A thought plus a tool call (2 events), or just the call when only one event is left."""
        rng = self.rng
        self.call += 1
        tool = rng.choice(("Bash", "Bash", "Bash", "Read", "Edit", "Grep"))
        if tool == "Bash":
            tool_input = {"command": f'trackio logbook run --page "Claim {claim}" -- python exp_{claim}.py'}
        elif tool == "Read":
            tool_input = {"file_path": f"{self.cwd}/exp_{claim}.py"}
        elif tool == "Edit":
            tool_input = {
                "file_path": f"{self.cwd}/exp_{claim}.py",
                "old_string": sentence(rng, 6),
                "new_string": sentence(rng, 7),
            }
        else:
            tool_input = {"pattern": rng.choice(WORDS), "path": self.cwd}
        call = {"type": "tool_use", "id": f"toolu_{self.call:08d}", "name": tool, "input": tool_input}
        thought = {"type": "thinking", "thinking": paragraph(rng, rng.randint(2, 10)), "signature": ""}
        self.assistant([thought, call] if remaining >= 2 else [call])

    def tool_result(self, claim: int) -> None:
        rng = self.rng
        n_chars = int(rng.expovariate(1 / 900)) + 40
        content = training_log(rng, n_chars, 0) if rng.random() < 0.6 else paragraph(rng, max(1, n_chars // 120))
        block = {"type": "tool_result", "tool_use_id": f"toolu_{self.call:08d}", "content": content}
        if rng.random() < 0.03:
            block["is_error"] = True
        self._record("user", {"role": "user", "content": [block]}, 1)


def build_transcript(rng: random.Random, n_events: int, n_claims: int, cwd: str) -> Transcript:
    """Exactly n_events trace events: turns of user prompt, thought+tool call, tool result, closing remark."""
    tr = Transcript(rng, str(uuid.UUID(int=rng.getrandbits(128))), cwd)
    claim = 0
    while tr.events < n_events:
        claim = claim % max(1, n_claims) + 1
        tr.user_text(f"Reproduce claim {claim} from the paper and record the runs in the logbook.")
        for _ in range(rng.randint(5, 40)):
            remaining = n_events - tr.events
            if remaining <= 0:
                break
            tr.tool_step(remaining, claim)
            if tr.events < n_events:
                tr.tool_result(claim)
        if tr.events < n_events:
            tr.assistant([{"type": "text", "text": paragraph(rng, rng.randint(1, 4))}])
    return tr


# ---- logbook ---------------------------------------------------------------------------------------------


def spread(total: int, buckets: int) -> list[int]:
    base, extra = divmod(total, buckets)
    return [base + (1 if i < extra else 0) for i in range(buckets)]


def claim_markdown(rng: random.Random, claim: int) -> str:
    return (
        f"## Exact claim\n\n> {sentence(rng, 18)}\n\n## Setup\n\n{paragraph(rng, rng.randint(4, 10))}\n\n"
        f"- dataset: `{rng.choice(WORDS)}-{rng.randint(1, 99)}`\n- seeds: 0-{rng.randint(2, 9)}\n"
        f"- budget: {rng.randint(1, 48)} CPU-hours\n"
    )


def verdict_markdown(rng: random.Random, verdict: str) -> str:
    rows = "\n".join(
        f"| {seed} | {rng.uniform(0, 1):.4f} | {rng.uniform(0, 1):.4f} |" for seed in range(rng.randint(5, 20))
    )
    return (
        f"## Verdict: {verdict}\n\n| seed | paper | ours |\n|---:|---:|---:|\n{rows}\n\n"
        f"{paragraph(rng, rng.randint(3, 12))}\n\n### Caveats\n\n{paragraph(rng, rng.randint(2, 6))}\n"
    )


def generate(out: Path, pages: int, runs: int, figures: int, events: int, seed: int) -> dict:
    rng = random.Random(seed)
    workspace = out / "workspace"
    transcript_dir = out / "transcript"
    figure_dir = out / "figures"
    for folder in (workspace, transcript_dir, figure_dir):
        folder.mkdir(parents=True, exist_ok=True)
    os.chdir(workspace)  # trackio finds its logbook, and resolves script paths, from the working directory
    proj = logbook.create_logbook(title="Reproduction: Scaling Laws for Sparse Widgets")

    index = logbook.logbook_root(proj) / "pages" / "index.md"
    index.write_text(
        "# Reproduction: Scaling Laws for Sparse Widgets\n\n"
        f"{paragraph(rng, 6)}\n\n## Pages\n\n| Page | Status |\n| --- | --- |\n"
        '| Add a page with `trackio logbook page "..."` | |\n',
        encoding="utf-8",
    )
    metadata = logbook.read_metadata(proj)
    metadata.update(
        {
            "paper": {"openreview_id": "SpWdgt2026", "arxiv_id": "2607.01234", "title": "Sparse Widgets"},
            "tags": ["icml2026-repro", "paper-SpWdgt2026"],
        }
    )
    logbook.write_metadata(proj, metadata)

    real_write_site_files = logbook.write_site_files
    logbook.write_site_files = lambda _proj: {}  # every cell would otherwise rebuild the whole site
    try:
        started = time.perf_counter()
        tr = build_transcript(rng, events, pages, str(workspace))
        source = transcript_dir / "session.jsonl"
        with source.open("w", encoding="utf-8") as handle:
            for record in tr.records:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        # Attached first so the scripts and results written below count as files the session touched.
        logbook.attach_trace(proj, source, title="Reproduction session")
        print(f"  transcript: {tr.events:,} events attached in {time.perf_counter() - started:.1f}s", flush=True)

        summary = logbook.ensure_page(proj, "Executive summary", status="done")
        logbook.add_markdown_cell(proj, summary, f"# Executive summary\n\n{paragraph(rng, 12)}")
        figure_index = 0
        for claim, (n_runs, n_figures) in enumerate(
            zip(spread(runs, pages), spread(figures, pages), strict=True), start=1
        ):
            verdict = rng.choice(VERDICTS)
            slug = logbook.ensure_page(proj, f"Claim {claim}: {sentence(rng, 5)[:-1]}", status=verdict.lower())
            logbook.add_markdown_cell(proj, slug, claim_markdown(rng, claim), title=f"Claim {claim} setup")
            script = workspace / f"exp_{claim}.py"
            script.write_text(experiment_script(rng, claim), encoding="utf-8")
            for run in range(n_runs):
                exit_code = 1 if rng.random() < 0.05 else 0
                long_output = rng.random() < 0.1
                n_chars = rng.randint(25_000, 80_000) if long_output else rng.randint(2_000, 10_000)
                # run_and_log truncates long output exactly like this before writing the cell.
                output = logbook._truncate_run_output(training_log(rng, n_chars, exit_code))
                command = ["python", script.name, "--seed", str(run), "--lr", f"{rng.uniform(1e-4, 1e-3):.1e}"]
                logbook.add_run_cell(proj, slug, command, output, exit_code, rng.uniform(0.5, 900), [script.name])
            for _ in range(n_figures):
                figure_index += 1
                image = figure_file(rng, figure_dir, figure_index)
                raw = figure_raw(rng, large=rng.random() < 0.5)
                logbook.add_figure_cell(proj, slug, image=image, raw=raw, title=f"Figure {figure_index}")
            logbook.add_markdown_cell(proj, slug, verdict_markdown(rng, verdict), title=f"{verdict}: claim {claim}")
            # Result files the session wrote; trackio lists them in workspace.json.
            results = workspace / "results" / f"claim_{claim}.csv"
            results.parent.mkdir(exist_ok=True)
            results.write_text(figure_raw(rng, large=False), encoding="utf-8")
            if claim % 10 == 0:
                (results.parent / f"claim_{claim}.pt").write_bytes(rng.randbytes(4096))
            if claim % 25 == 0:
                print(f"  {claim}/{pages} claim pages", flush=True)
        conclusion = logbook.ensure_page(proj, "Conclusion", status="done")
        logbook.add_markdown_cell(proj, conclusion, f"# Conclusion\n\n{paragraph(rng, 15)}")
    finally:
        logbook.write_site_files = real_write_site_files

    started = time.perf_counter()
    logbook.write_site_files(proj)
    print(f"  site files written once in {time.perf_counter() - started:.1f}s", flush=True)

    # Count what trackio itself parses back, so the figures describe the files actually on disk.
    parsed = logbook.list_pages(proj)
    cells_by_type: dict[str, int] = {}
    for page in logbook.read_logbook_data(proj)["pages"]:
        for cell in page["cells"]:
            cells_by_type[cell["type"]] = cells_by_type.get(cell["type"], 0) + 1
    traces = json.loads((logbook.logbook_root(proj) / "traces" / "index.json").read_text(encoding="utf-8"))
    return {
        "trackio_version": trackio.__version__,
        "workspace": str(workspace),
        "pages": len(parsed),
        "cells": sum(page["cell_count"] for page in parsed),
        "cells_by_type": cells_by_type,
        "trace_events": sum(session.get("event_count", 0) for session in traces.get("sessions", [])),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--pages", type=int, required=True)
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--figures", type=int, required=True)
    parser.add_argument("--events", type=int, required=True)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    out = args.out.resolve()
    started = time.perf_counter()
    stats = generate(out, args.pages, args.runs, args.figures, args.events, args.seed)
    stats["generation_seconds"] = round(time.perf_counter() - started, 2)
    (out / "generated.json").write_text(json.dumps(stats, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
