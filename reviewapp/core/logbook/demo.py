"""The built-in demo: a small but complete logbook a newcomer can review at once.

It is generated, not shipped, so it is always in the current format and costs nothing in the wheel. It has a
claim for every verdict kind, run cells (one failing), figures with raw data, an artifact, a scorecard that
contradicts one claim page, an attached agent trace, workspace files, and an image-pair set for perceptual
rating.
"""

from __future__ import annotations

import json
import math
import random
import shutil
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from reviewapp.core.io.paths import user_data_dir
from reviewapp.core.logbook.demo_marker import DEMO_FLAG
from reviewapp.core.logbook.writer import LogbookDraft, png_bytes, write_trace

DEMO_VERSION = 3
DEMO_VERDICTS_FILE = "logbook-judge-verdicts.json"  # beside .trackio/, never inside the logbook
PAIR_COUNT = 8


def demo_workspace() -> Path:
    """The user's copy of the demo, generated on first use (in the data folder, so it can be annotated)."""
    target = user_data_dir() / f"demo-v{DEMO_VERSION}"
    if not (target / ".trackio" / "logbook" / "pages" / "index.md").is_file():
        staging = target.with_name(target.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        write_demo(staging)
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
    return target


def write_demo(workspace: Path) -> Path:
    """Write the demo workspace (folder holding .trackio/); returns the logbook root."""
    workspace.mkdir(parents=True, exist_ok=True)
    draft = LogbookDraft(
        "Reproduction: Sparse Widgets Are All You Need",
        metadata={
            "space_id": "demo-user/repro-sparse-widgets",  # made up, as a real logbook's would be; never committed to
            DEMO_FLAG: True,
            "emoji": "🎯",
            "created_at": "2026-07-20T09:14:02+00:00",
            "paper": {"openreview_id": "DemoWidg01", "title": "Sparse Widgets Are All You Need"},
            "tags": ["icml2026-repro", "paper-DemoWidg01"],
        },
        intro="A demo logbook that ships with reviewapp. Every number in it is made up.",
    )
    _executive_summary(draft)
    _claim_sparsity(draft)
    _claim_speedup(draft)
    _claim_scale(draft)
    _claim_images(draft)
    _conclusion(draft)
    root = draft.write(workspace, traces=None)
    trace = write_trace(root, "demo-session", _trace_events(), title="Reproduction session", provider="Claude Code")
    manifest = json.loads((root / "logbook.json").read_text(encoding="utf-8"))
    manifest["traces"] = [trace]
    (root / "logbook.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    write_demo_verdicts(workspace)
    files = _workspace_files(workspace)
    (root / "workspace.json").write_text(
        json.dumps({"schema_version": 1, "file_count": len(files), "files": files}, indent=2), encoding="utf-8"
    )
    return root


def write_demo_verdicts(workspace: Path) -> Path:
    """A Logbook Judge verdicts file for the demo, in the published shape (made up, like the rest of the demo).

    Its claims are in the registry's order, not the logbook's, so opening the demo shows claims matched by text;
    two verdicts differ from the agent's so that the disagreement list has something to show.
    """
    claims = [
        ("Sparse widgets train 2x faster than dense widgets (Section 4.2)", "falsified",
         "Measured 1.02x over 500 steps; the custom kernel did not build, so the paper's setup was not run."),
        ("Pruning widgets to 90% sparsity keeps top-1 accuracy within 0.5 points (Table 1)", "verified",
         "Sparse 76.1 vs dense 76.4 after retraining with the paper's schedule."),
        ("The sparsity pattern is robust to distribution shift on ImageNet-C (Table 3)", "inconclusive",
         "Only severity 3 on a 10% subsample was evaluated; the stopping point is too early to say."),
        ("Quantized widgets still produce usable images (Figure 5)", "toy",
         "FID 14.8 vs 12.1 on 8 prompts; no human rating of the samples yet."),
    ]  # fmt: skip
    entry = {
        "space_id": "demo-user/repro-sparse-widgets",
        "orid": "DemoWidg01",
        "paper_title": "Sparse Widgets Are All You Need",
        "judged_at": "2026-07-21T10:00:00+00:00",
        "model": "zai-org/GLM-5.2",
        "claims": [{"claim": text, "verdict": verdict, "evidence": evidence} for text, verdict, evidence in claims],
        "overall": "Accuracy reproduces; the speed-up does not; robustness and image quality need more work.",
        "quality": "medium",
    }
    path = workspace / DEMO_VERDICTS_FILE
    path.write_text(json.dumps({entry["space_id"]: entry}, indent=2), encoding="utf-8")
    return path


def _executive_summary(draft: LogbookDraft) -> None:
    draft.page("Executive summary").markdown(
        "Two of four claims hold at the paper's scale on a single GPU. The 2x training speed-up did not "
        "reproduce. Robustness was only checked on a 10% proxy, and image quality needs a human look.\n\n"
        "## Scope & cost\n\n"
        "| | This reproduction | Full replication |\n|---|---|---|\n"
        "| Scope | 4 claims | same |\n| Hardware | 1x A10G | 8x A100 |\n| Compute time | 3 h | ~2 days |\n"
        "| Cost | $4 | ~$900 |\n| Outcome | 1 verified, 1 falsified, 1 toy, 1 open | NOT ATTEMPTED |",
        title="Executive summary",
    )


def _claim_sparsity(draft: LogbookDraft) -> None:
    losses = [2.3 * math.exp(-step / 350) + 0.35 for step in range(0, 2001, 100)]
    raw = "step,loss\n" + "\n".join(f"{i * 100},{loss:.4f}" for i, loss in enumerate(losses))
    (
        draft.page("Claim 1: Widgets reach 90% sparsity without accuracy loss")
        .markdown(
            "## Exact claim\n\n> Pruning widgets to 90% sparsity keeps top-1 accuracy within 0.5 points.\n\n"
            "We retrain the released checkpoint with the paper's schedule (Eq. 4, $\\lambda = 10^{-4}$).",
            title="Claim and setup",
        )
        .run(
            ["python", "prune.py", "--sparsity", "0.9", "--epochs", "20"],
            "\n".join(f"epoch {e:2d}  loss {losses[e]:.4f}  acc {70.1 + e * 0.31:.2f}" for e in range(20))
            + "\nfinal: dense 76.4  sparse 76.1  (delta -0.3)",
            duration_s=5423.2,
            title="Prune to 90% and retrain",
        )
        .figure_png(png_bytes(_curve_image(losses)), "Training loss", raw=raw, alt="loss_curve")
        .artifact_path("out/metrics.csv", 2048)
        .markdown(
            "**Verdict: VERIFIED.** Sparse accuracy 76.1 vs dense 76.4: a 0.3-point drop, inside the claimed 0.5.",
            title="Verdict",
        )
    )


def _claim_speedup(draft: LogbookDraft) -> None:
    (
        draft.page("Claim 2: Training is 2x faster")
        .markdown("## Exact claim\n\n> Sparse widgets train 2x faster than dense ones.", title="Claim")
        .run(
            ["python", "bench.py", "--steps", "500"],
            "dense: 812.4 ms/step\nsparse: 0.793 s/step\nspeed-up: 1.02x",
            duration_s=1312.0,
            title="Time 500 steps",
        )
        .run(
            ["python", "bench.py", "--steps", "500", "--kernel", "triton"],
            'Traceback (most recent call last):\n  File "bench.py", line 41, in <module>\n'
            "RuntimeError: triton kernel not available on this device",
            exit_code=1,
            duration_s=3.4,
            title="Try the custom kernel",
        )
        .markdown(
            "## Verdict: FALSIFIED\n\nMeasured 1.02x, far from 2x. The custom kernel the paper used would not "
            "build on our GPU.",
            title="Verdict",
        )
    )


def _claim_scale(draft: LogbookDraft) -> None:
    (
        draft.page("Claim 3: Sparsity is robust to distribution shift")
        .markdown(
            "Evaluated on a 10% subsample of ImageNet-C (severity 3 only) because of the compute budget.\n\n"
            "| corruption | dense | sparse |\n|---|---:|---:|\n| noise | 51.2 | 50.8 |\n| blur | 47.9 | 47.1 |\n"
            "| fog | 60.3 | 60.0 |",
            title="Reduced-scale check",
        )
        .markdown("Status: **TOY** — the trend holds on the proxy; the full benchmark was not run.", title="Verdict")
    )


def _claim_images(draft: LogbookDraft) -> None:
    (
        draft.page("Claim 4: Quantized widgets still produce usable images")
        .markdown(
            f"{PAIR_COUNT} prompts rendered by the baseline and the 4-bit model are in `samples/`. Whether the "
            "quantized images are usable is a perceptual question; FID alone does not settle it.\n\n"
            "FID: baseline 12.1, quantized 14.8.",
            title="Samples",
        )
        .markdown("Outcome: inconclusive until a person rates the image pairs.", title="Verdict")
    )


def _conclusion(draft: LogbookDraft) -> None:
    draft.page("Conclusion").markdown(
        "| Claim | Verdict |\n|---|---|\n| 1 | VERIFIED |\n| 2 | FALSIFIED |\n| 3 | PARTIAL |\n| 4 | INCONCLUSIVE |\n\n"
        "The scorecard above was written before the robustness run was cut down to a proxy.",
        title="Scorecard",
    )


def _trace_events() -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []

    def add(kind: str, title: str, **fields: Any) -> None:
        events.append(
            {
                "id": f"event-{len(events) + 1}",
                "sequence": len(events) + 1,
                "kind": kind,
                "title": title,
                "turn": 1 + len(events) // 12,
                "timestamp": f"2026-07-20T10:{len(events) % 60:02d}:00Z",
                "text": fields.pop("text", ""),
                **fields,
            }
        )

    add("user", "User", text="Reproduce the four claims of the sparse widgets paper and log everything.")
    steps = [
        ("Claim 1", "python prune.py --sparsity 0.9 --epochs 20", "final: dense 76.4  sparse 76.1  (delta -0.3)"),
        ("Claim 2", "python bench.py --steps 500", "speed-up: 1.02x"),
        ("Claim 2", "python bench.py --steps 500 --kernel triton", "RuntimeError: triton kernel not available"),
        ("Claim 3", "python robustness.py --subset 0.1", "noise 50.8 blur 47.1 fog 60.0"),
        ("Claim 4", "python sample.py --prompts prompts.txt --bits 4", "wrote 8 images to samples/quantized"),
    ]
    for number, (page, command, output) in enumerate(steps):
        add("assistant", "Assistant", text=f"Next I run the {page.lower()} experiment.")
        add("reasoning", "Thought", text=f"{page}: check the scale against the paper before trusting the number.")
        call = f"call_{number}"
        add(
            "tool_call",
            "Bash",
            tool_name="Bash",
            call_id=call,
            input=json.dumps({"command": f'trackio logbook run --page "{page}" -- {command}'}, indent=2),
        )
        add(
            "tool_result", "Output", call_id=call, output=output, status="success" if "Error" not in output else "error"
        )
    add("assistant", "Assistant", text="All four claims are logged; claim 4 needs a human to rate the image pairs.")
    add("status", "task_complete", status="task_complete")
    return events


def _workspace_files(workspace: Path) -> list[dict[str, Any]]:
    files: list[dict[str, Any]] = []
    metrics = workspace / "out" / "metrics.csv"
    metrics.parent.mkdir(parents=True, exist_ok=True)
    metrics.write_text("metric,dense,sparse\ntop1,76.4,76.1\n", encoding="utf-8")
    files.append(_file_entry(workspace, metrics, "dataset"))
    rng = random.Random(20260720)
    for index in range(1, PAIR_COUNT + 1):
        baseline = photo_like_image(rng, 384)
        quantized = degrade(baseline, rng)
        for condition, image in (("baseline", baseline), ("quantized", quantized)):
            path = workspace / "samples" / condition / f"prompt-{index:02d}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            image.save(path, format="PNG")
            files.append(_file_entry(workspace, path, "image"))
    manifest = workspace / "samples" / "usability-pairs.json"
    manifest.write_text(json.dumps(_pair_manifest(), indent=2) + "\n", encoding="utf-8")
    files.append(_file_entry(workspace, manifest, "dataset"))
    return files


PROMPTS = (
    "a lighthouse at dusk", "a bowl of oranges on a table", "a foggy forest path", "a red bicycle by a wall",
    "a snowy mountain ridge", "a cat asleep on a windowsill", "a busy market street", "waves on a rocky shore",
)  # fmt: skip


def _pair_manifest() -> dict[str, Any]:
    """The image pairs of claim 4 as a pair set for blinded rating (`reviewapp pairs rate`)."""
    return {
        "claim": "4",
        "question": "Which image is more usable?",
        "instructions": (
            "Each pair shows the same prompt rendered by two models. Pick the image you would rather use, or say "
            "that you see no difference. Mark an image unusable if you would not accept it at all."
        ),
        "conditions": ["baseline", "quantized"],
        "controls": {"rate": 0.25},
        "pairs": [
            {
                "id": f"prompt-{index:02d}",
                "left": f"baseline/prompt-{index:02d}.png",
                "right": f"quantized/prompt-{index:02d}.png",
                "prompt": PROMPTS[(index - 1) % len(PROMPTS)],
            }
            for index in range(1, PAIR_COUNT + 1)
        ],
    }


def _file_entry(workspace: Path, path: Path, kind: str) -> dict[str, Any]:
    rel = path.relative_to(workspace).as_posix()
    return {
        "path": rel,
        "name": path.name,
        "type": kind,
        "size": path.stat().st_size,
        "modified_at": "2026-07-20T12:00:00+00:00",
    }


def photo_like_image(rng: random.Random, size: int) -> Image.Image:
    """Gradients, soft shapes and grain: compresses and looks roughly like a photograph."""
    base = Image.merge(
        "RGB",
        [Image.linear_gradient("L").rotate(rng.uniform(0, 360)).resize((size, size)) for _ in range(3)],
    )
    draw = ImageDraw.Draw(base)
    for _ in range(6):
        x, y, r = rng.randrange(size), rng.randrange(size), rng.randrange(size // 10, size // 3)
        colour = tuple(rng.randrange(256) for _ in range(3))
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    base = base.filter(ImageFilter.GaussianBlur(size / 40))
    grain = Image.frombytes("L", (size, size), rng.randbytes(size * size)).convert("RGB")  # seeded, unlike effect_noise
    return Image.blend(base, grain, 0.12)


def degrade(image: Image.Image, rng: random.Random) -> Image.Image:
    """What aggressive quantization does to a sample: banding and lost detail, sometimes worse."""
    from PIL import ImageOps

    out = ImageOps.posterize(image, rng.choice((3, 4)))
    if rng.random() < 0.3:
        out = out.filter(ImageFilter.GaussianBlur(3))
    return out


def _curve_image(values: list[float]) -> Image.Image:
    width, height, pad = 480, 260, 30
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((pad, pad, width - pad, height - pad), outline=(160, 160, 160))
    top, bottom = max(values), min(values)
    points = [
        (
            pad + i * (width - 2 * pad) / (len(values) - 1),
            height - pad - (v - bottom) / (top - bottom) * (height - 2 * pad),
        )
        for i, v in enumerate(values)
    ]
    draw.line(points, fill=(31, 119, 180), width=3)
    return image
