#!/usr/bin/env python3
"""Pictures of every message kind the bot sends, for a reviewer: each is rendered from Block Kit to HTML by
tests/blockkit_html.py and photographed by headless Chromium (Debian's `chromium` package), 640 px wide as in a
600 px Slack column, then cut to its height. Prints each picture's height: the first screen's budget is checked
without a browser by tests/test_render_budget.py; this shows what the budget buys.

    .venv/bin/python bench/screenshots.py                 # PNGs (and their HTML) into bench/out/screens/
    .venv/bin/python bench/screenshots.py --out docs/ --only answer answer_busy details
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from blockkit_html import message_html, page, view_html  # noqa: E402
from PIL import Image, ImageChops  # noqa: E402

import signatures  # noqa: E402
from bot import render  # noqa: E402
from bot.render import MessageState, Step  # noqa: E402

WIDTH = 640


def _report(path: Path) -> signatures.Report:
    return signatures.diagnose([str(path)])


def _paste(text: str) -> signatures.Report:
    """A pasted log as the bot reads it (the scan keeps each traceback's exception line)."""
    return signatures.diagnose_sources([signatures.source_from_bytes("pasted log", text.encode())])


def kinds() -> dict[str, str]:
    """Every message kind, as a page of HTML (a thread shows the parent, then its replies indented)."""
    now = time.time()
    oom = _report(ROOT / "examples" / "job_812345.tar.gz")
    fresh = MessageState(12, "job_812345.tar.gz", opened_at=now - 600)
    busy = MessageState(
        12,
        "job_812345.tar.gz",
        opened_at=now - 7200,
        useful=["U456"],
        what_it_was=[("U456", "host_oom_killed", "dmesg shows the OOM killer")],
        steps=[
            Step(now - 7000, "acknowledged", "U123"),
            Step(now - 6000, "disputed", "U456"),
            Step(now - 5000, "watching", "U123", "hpc/812400"),
            Step(now - 600, "back", None, "hpc/812400"),
        ],
        checked={0, 2},
        ticked_by={0: "U123", 2: "U456"},
    )
    unrecognised = _paste(
        "[rank0]: step 40 loss 2.1\n[rank2]: Traceback (most recent call last):\n"
        '[rank2]:   File "/w/train.py", line 88, in <module>\n[rank2]:     feed.pull()\n'
        "[rank2]: FeedStalled: upstream <queue> stalled & gave up after 3 tries\n"
        "[rank1]: ERROR peer 2 is gone; grep -c stalled <log> for how often\n"
    )
    healthy = _paste("[rank0]: step 1 loss 2.0\n[rank0]: step 2 loss 1.9\n[rank0]: training complete\n")
    answer = render.diagnosis_message(oom, fresh)
    details = render.details_message(oom, busy)
    assert details is not None
    status_rows = [
        {
            "id": 14,
            "source": "job_812777.tar.gz",
            "signature": "nccl.watchdog_collective_timeout",
            "status": "recurred",
            "message_ts": f"{now - 9000:.6f}",
            "thread_ts": None,
            "opened_at": _iso(now - 9000),
            "next_check": None,
        },
        {
            "id": 12,
            "source": "job_812345.tar.gz",
            "signature": "cuda.out_of_memory",
            "status": "open",
            "message_ts": f"{now - 600:.6f}",
            "thread_ts": None,
            "opened_at": _iso(now - 600),
            "next_check": None,
        },
        {
            "id": 11,
            "source": "hpc/812300",
            "signature": "checkpoint.disk_full",
            "status": "fix_applied",
            "message_ts": f"{now - 4000:.6f}",
            "thread_ts": None,
            "opened_at": _iso(now - 4000),
            "next_check": now + 420,
        },
        {
            "id": 9,
            "source": "pasted log",
            "signature": None,
            "status": "unrecognised",
            "message_ts": f"{now - 3000:.6f}",
            "thread_ts": None,
            "opened_at": _iso(now - 3000),
            "next_check": None,
        },
    ]
    status = render.status_message(status_rows, "C123", "https://acme.slack.com/", now, 3 * 86400)
    return {
        "answer": page(message_html(*answer)),
        "answer_busy": page(message_html(*render.diagnosis_message(oom, busy))),
        "details": page(message_html(*details, reply=True)),
        "slash_paste": page(
            message_html(render.asked("U123", render.PASTED, oom), None),
            message_html(*answer, reply=True),
            message_html(*details, reply=True),
        ),
        "unrecognised": page(message_html(*render.diagnosis_message(unrecognised, MessageState(9, "pasted log")))),
        "healthy_ephemeral": page(message_html(*render.healthy_message(healthy, "pasted log", []))),
        "progress": page(
            message_html(*render.progress_message("job_812345.tar.gz", 0, None)),
            message_html(*render.progress_message("big_train.log", 48_000_000, 150_000_000, "Downloading")),
            message_html(*render.queued_message("job_812346.tar.gz", 2, 4)),
        ),
        "status": page(message_html(status, None)),
        "fix_modal": page(view_html(render.fix_modal(12, "hpc/812345", ["hpc"]))),
        "fix_modal_no_cluster": page(view_html(render.fix_modal(12, None, []))),
        "followups": page(
            message_html(render.fix_applied("U123", "micro-batch 8 -> 4", "hpc/812400", 600, 600, 86400), None),
            message_html(render.fix_recorded("U123", "expandable_segments:True & micro-batch 4"), None),
            message_html(
                render.followup_announcement(
                    "back",
                    render.verdict_detail(
                        "fired_again",
                        signature="cuda.out_of_memory",
                        source="rank3.log",
                        line=412,
                        text="torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB. GPU 3 has a "
                        "total capacity of 79.14 GiB of which 6.12 GiB is free.",
                    ),
                    "hpc/812400",
                    "U123",
                ),
                None,
            ),
        ),
        "watch_closing": page(message_html(render.watch_closing("hpc/812345", "FAILED", oom), None)),
    }


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))


def shoot(chromium: str, html_path: Path, png: Path) -> int:
    """Photograph a page with headless Chromium, then cut the white below it; returns the height in px."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                f"--window-size={WIDTH},3000",
                f"--screenshot={png}",
                html_path.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    image = Image.open(png).convert("RGB")
    box = ImageChops.difference(image, Image.new("RGB", image.size, (255, 255, 255))).getbbox()
    height = min(image.height, (box[3] if box else 0) + 12)
    image.crop((0, 0, WIDTH, height)).save(png, optimize=True)
    return height


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "screens")
    parser.add_argument("--only", nargs="*", help="message kinds to photograph (default: all)")
    parser.add_argument("--prefix", default="slack_", help="file name prefix")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if not chromium:
        print("needs headless Chromium: apt-get install -y chromium", file=sys.stderr)
        return 2
    args.out = args.out.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, html in kinds().items():
        if args.only and name not in args.only:
            continue
        html_path = args.out / f"{args.prefix}{name}.html"
        html_path.write_text(html)
        png = args.out / f"{args.prefix}{name}.png"
        print(
            f"{png.relative_to(ROOT) if png.is_relative_to(ROOT) else png}: {shoot(chromium, html_path, png)} px tall"
        )
        if args.only:
            html_path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
