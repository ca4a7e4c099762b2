"""The picture of a multi-rank diagnosis: each rank's last progress, errors and exit in time, as a PNG.

Input is the report's plain data (`signatures.Timeline`), output PNG bytes: the bot posts it under the
diagnosis, `denpex diagnose --timeline out.png` writes it. Few ranks get a row each, grouped by host; many
collapse into bands of ranks that behaved alike (the same events at about the same time), while the ranks
that matter (where it started, other errors, the first to exit) keep their own row. matplotlib is imported
only when a picture is drawn, through its object API with the Agg canvas: no display, and no pyplot state
shared between the bot's worker threads.
"""

from __future__ import annotations

import io
import statistics
import textwrap
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

from signatures import Timeline, TimelineMark, TimelineRow, rank_ranges, timeline_caption

# 2:1, as Slack previews an image (about 720 x 360 in a channel; full size when opened), with type from 12 pt
# up: a label stays ~10 px tall in the preview
WIDTH, HEIGHT, DPI = 1200, 600, 100
MAX_ROWS = 12  # rows of ~27 px at full size: more would not read in the preview
AX_LEFT, AX_WIDTH = 0.165, 0.70  # room for "ranks 4-255 (252)" on the left, host names on the right
AX_PX = WIDTH * AX_WIDTH
LABEL_PT = 12.5
GAP_PT = 12  # between a marker and its name
GAP_PX = GAP_PT * DPI / 72
CAPTION_CHARS = 82  # of 17 pt bold in 1200 px
SECONDS_PER_DAY = 86400.0

# Okabe & Ito's colour-blind-safe palette, and a shape per kind, so that colour is never the only cue
STYLE = {  # kind: (legend, colour, marker, size)
    "progress": ("last training step", "#009E73", "|", 16),
    "initiating": ("where it started", "#D55E00", "*", 22),
    "root": ("another error", "#E69F00", "D", 9),
    "collateral": ("knock-on (timeout, lost peer)", "#0072B2", "o", 10),
    "exit": ("exit (launcher)", "#CC79A7", "s", 10),
    "teardown": ("stopped by launcher/scheduler", "#000000", "v", 11),
}
DRAW_ORDER = ["progress", "collateral", "root", "teardown", "exit", "initiating"]  # later is on top
NAME_ORDER = ["initiating", "collateral", "exit", "teardown", "root", "progress"]  # who gets a label first
WAITING = "#999999"  # the dotted line from a rank's last step to its first error: how long it sat


@dataclass
class Band:
    """One row of the picture: a rank, or ranks that behaved alike."""

    rows: list[TimelineRow]

    @property
    def ranks(self) -> list[int]:
        return [r.rank for r in self.rows]

    @property
    def label(self) -> str:
        if len(self.rows) == 1:
            return f"rank {self.rows[0].rank}"
        ranges = rank_ranges(self.ranks)
        if "," in ranges:  # "995 ranks in 1-999", not a list that runs off the picture
            return f"{len(self.rows)} ranks in {min(self.ranks)}-{max(self.ranks)}"
        return f"ranks {ranges} ({len(self.rows)})"

    @property
    def hosts(self) -> list[str]:
        return sorted({r.host for r in self.rows if r.host})


def _marks(row: TimelineRow) -> list[TimelineMark]:
    return [*row.marks, *([row.exit] if row.exit else [])]


def _times(row: TimelineRow) -> list[float]:
    return [m.time for m in _marks(row)] + ([row.progress] if row.progress is not None else [])


def _behaviour(row: TimelineRow) -> tuple:
    """What a rank did, whatever the time: the kinds and signatures of its events, and how it ended."""
    return (
        tuple(sorted({(m.kind, m.signature) for m in row.marks})),
        (row.exit.kind, row.exit.code) if row.exit else None,
    )


def _when(row: TimelineRow) -> float:
    """When a rank's trouble began: its first event, else its exit, else its last step."""
    return min((m.time for m in _marks(row)), default=row.progress or 0.0)


def _interesting(tl: Timeline, rows: list[TimelineRow], tolerance: float) -> list[TimelineRow]:
    """The ranks that keep their own row: where it started, ranks with errors of their own, the first to exit
    (ahead of the others by more than `tolerance`)."""
    own = [r for r in rows if r.rank == tl.initiating_rank or any(m.kind == "initiating" for m in r.marks)]
    own += sorted((r for r in rows if r not in own and any(m.kind == "root" for m in r.marks)), key=_when)
    exits = sorted((r for r in rows if r.exit), key=lambda r: r.exit.time if r.exit else 0.0)
    first = exits[0].exit if exits else None
    if (
        first
        and exits[0] not in own
        and statistics.median(r.exit.time for r in exits if r.exit) - first.time > tolerance
    ):
        own.append(exits[0])
    return own


def _split_in_time(rows: list[TimelineRow], tolerance: float) -> list[list[TimelineRow]]:
    """Ranks that did the same things, split where their times part by more than `tolerance`."""
    bands: list[list[TimelineRow]] = []
    for row in sorted(rows, key=_when):
        if bands and _when(row) - _when(bands[-1][-1]) <= tolerance:
            bands[-1].append(row)
        else:
            bands.append([row])
    return bands


def layout(tl: Timeline, max_rows: int = MAX_ROWS) -> list[Band]:
    """The rows of the picture, top to bottom: every rank, by host, when they fit; else bands."""
    rows = [r for r in tl.rows if _times(r)]
    if len(rows) <= max_rows:
        return [Band([r]) for r in sorted(rows, key=lambda r: (r.host is None, r.host or "", r.rank))]
    times = [t for r in rows for t in _times(r)]
    tolerance = max(2.0, (max(times) - min(times)) * 0.03)
    own = _interesting(tl, rows, tolerance)[: max_rows // 2]
    alike: dict[tuple, list[TimelineRow]] = defaultdict(list)
    for row in rows:
        if row not in own:
            alike[_behaviour(row)].append(row)
    room = max_rows - len(own)
    groups = [band for group in alike.values() for band in _split_in_time(group, tolerance)]
    if len(groups) > room:  # too many: alike whatever the time, and the smallest together in one band
        groups = sorted(alike.values(), key=len, reverse=True)
        if len(groups) > room:
            groups = [*groups[: room - 1], [r for g in groups[room - 1 :] for r in g]]
    bands = [Band([r]) for r in own] + [Band(sorted(g, key=lambda r: r.rank)) for g in groups]
    return sorted(bands, key=lambda b: min(b.ranks))


def _by_kind(band: Band) -> dict[tuple[str, str], list[float]]:
    """Per (kind, signature; for an exit, its code): the time of each rank of the band that had it."""
    found: dict[tuple[str, str], list[float]] = defaultdict(list)
    for row in band.rows:
        for m in row.marks:
            found[(m.kind, m.signature)].append(m.time)
        if row.exit:
            found[(row.exit.kind, _exit_text(row.exit))].append(row.exit.time)
        if row.progress is not None:
            found[("progress", "")].append(row.progress)
    return found


def _exit_text(m: TimelineMark) -> str:
    return f"exit {m.code}" + (f" {m.signal}" if m.signal else "")


def _window(tl: Timeline, bands: list[Band]) -> tuple[float, float]:
    """The times the x axis spans. Steps long before the failure (a rank that stopped logging hours earlier)
    would squeeze everything else into a corner: they are drawn at the left edge instead."""
    times = [t for b in bands for r in b.rows for t in _times(r)] + [m.time for m in tl.job]
    start = tl.initiating.time
    lo, hi = min(times), max(times)
    after = max(hi - start, 60.0)
    lo = max(lo, start - 3 * after)
    pad = max((hi - lo) * 0.04, 2.0)
    return lo - pad, hi + pad


def render(tl: Timeline) -> bytes:
    """The picture as PNG bytes, WIDTH x HEIGHT pixels."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import dates
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.lines import Line2D

    bands = layout(tl)
    left, right = _window(tl, bands)
    fig = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI)
    canvas = FigureCanvasAgg(fig)
    caption_text = timeline_caption(tl)
    caption = textwrap.wrap(caption_text, CAPTION_CHARS)[:2]
    fig.text(0.012, 0.975, "\n".join(caption), fontsize=17, fontweight="bold", va="top", linespacing=1.25)
    below_caption = 0.975 - 0.066 * len(caption)
    fig.text(0.012, below_caption - 0.01, _subtitle(tl, bands, left), fontsize=12, color="#555555", va="top")
    top = below_caption - 0.075
    ax = fig.add_axes((AX_LEFT, 0.25, AX_WIDTH, top - 0.25))
    renderer, font = canvas.get_renderer(), FontProperties(size=LABEL_PT)

    def width_of(text: str) -> float:
        return renderer.get_text_width_height_descent(text, font, ismath=False)[0]

    def px(t: float) -> float:  # a time's x in pixels from the axes' left edge
        return (max(t, left) - left) / (right - left) * AX_PX

    def x(t: float) -> float:  # matplotlib's date number (days since 1970, its default epoch)
        return max(t, left) / SECONDS_PER_DAY

    kinds_drawn: set[str] = set()
    named: set[str] = set()
    # the biggest bands name their events first: a name then sits where most ranks are
    for y, band in sorted(enumerate(bands), key=lambda yb: -len(yb[1].rows)):
        if tl.initiating_rank in band.ranks:
            ax.axhspan(y - 0.5, y + 0.5, color=STYLE["initiating"][1], alpha=0.12, zorder=0)
        elif y % 2:
            ax.axhspan(y - 0.5, y + 0.5, color="#F2F2F2", zorder=0)
        found = _by_kind(band)
        steps, trouble = found.get(("progress", "")), [min(ts) for (k, _), ts in found.items() if k != "progress"]
        if steps and trouble and min(trouble) > statistics.median(steps):
            line = [x(statistics.median(steps)), x(min(trouble))]
            ax.plot(line, [y, y], color=WAITING, linestyle=":", linewidth=2, zorder=1)
        for (kind, _), ts in sorted(found.items(), key=lambda kv: DRAW_ORDER.index(kv[0][0])):
            _, colour, marker, size = STYLE[kind]
            if max(ts) > min(ts):  # a band: its ranks' first to last
                ax.plot([x(min(ts)), x(max(ts))], [y, y], color=colour, linewidth=7, alpha=0.3, zorder=2)
            ax.plot(
                [x(statistics.median(ts))],
                [y],
                marker=marker,
                markersize=size,
                color=colour,
                linestyle="none",
                markeredgecolor="black" if kind == "initiating" else colour,
                markeredgewidth=2.5 if marker == "|" else 1,
                zorder=5 if kind == "initiating" else 3,
            )
            kinds_drawn.add(kind)
        names = [(px(t), text, what) for t, text, what in _names(tl, band, found, named)]
        for at, text, side, whats in _place(names, [px(t) for ts in found.values() for t in ts], width_of):
            named.update(whats)
            ax.annotate(
                text,
                ((left + (right - left) * at / AX_PX) / SECONDS_PER_DAY, y),
                xytext=(GAP_PT if side else -GAP_PT, 0),
                textcoords="offset points",
                ha="left" if side else "right",
                va="center",
                fontsize=LABEL_PT,
                color="#222222",
                zorder=6,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85},
            )
    for m in tl.job:
        ax.axvline(x(m.time), color=STYLE[m.kind][1], linestyle="--", linewidth=1.2, zorder=1)

    ax.set_xlim(x(left), x(right))
    ax.set_ylim(len(bands) - 0.5, -0.5)
    ax.set_yticks(range(len(bands)), [b.label for b in bands], fontsize=13)
    for tick, band in zip(ax.get_yticklabels(), bands, strict=True):
        if tl.initiating_rank in band.ranks or any(m.kind == "initiating" for r in band.rows for m in r.marks):
            tick.set_color(STYLE["initiating"][1])
            tick.set_fontweight("bold")
    _host_labels(ax, bands)
    span = right - left
    ax.xaxis.set_major_locator(dates.AutoDateLocator(tz=UTC, minticks=3, maxticks=7))
    clock = "%H:%M:%S" if span < 600 else "%H:%M" if span < 2 * SECONDS_PER_DAY else "%d %b %H:%M"
    ax.xaxis.set_major_formatter(dates.DateFormatter(clock, tz=UTC))
    ax.tick_params(axis="x", labelsize=LABEL_PT)
    ax.set_xlabel("time (UTC)", fontsize=LABEL_PT)
    ax.grid(axis="x", color="#DDDDDD", zorder=0)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)

    handles = [
        Line2D(
            [],
            [],
            marker=STYLE[k][2],
            color=STYLE[k][1],
            linestyle="none",
            markersize=min(STYLE[k][3], 14),
            markeredgecolor="black" if k == "initiating" else STYLE[k][1],
            markeredgewidth=2.5 if k == "progress" else 1,
            label=STYLE[k][0],
        )
        for k in NAME_ORDER
        if k in kinds_drawn
    ]
    if tl.job:
        handles.append(Line2D([], [], color="#555555", linestyle="--", label="the whole job (no rank named)"))
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=LABEL_PT, frameon=False, bbox_to_anchor=(0.5, 0))
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=DPI, metadata={"Title": caption_text, "Software": "denpex"})
    return out.getvalue()


def _names(
    tl: Timeline, band: Band, found: dict[tuple[str, str], list[float]], named: set[str]
) -> list[tuple[float, str, str]]:
    """What to write beside a row's markers (time, text, what it names), most wanted first: each event's name
    until it has been written once (of a row's knock-ons, only the one most ranks reported), exits, the step
    the job got to, and that a rank reported nothing after its last step while others failed."""
    listed = {sig: n for n, sig in enumerate(tl.knock_on)}  # the caption's first
    knock_on = min((what for kind, what in found if kind == "collateral"), key=lambda w: listed.get(w, 99), default="")
    steps = [r.step for r in band.rows if r.step is not None]
    if list(found) == [("progress", "")]:  # no error, no exit: perhaps the rank the others waited for
        silent = f"silent after step {max(steps)}" if steps else "silent"
        return [(statistics.median(found[("progress", "")]), silent, "")]
    out = []
    for (kind, what), ts in sorted(found.items(), key=lambda kv: NAME_ORDER.index(kv[0][0])):
        if what in named or (kind == "collateral" and what != knock_on) or (kind == "progress" and not steps):
            continue
        if kind == "progress":
            text = f"step {max(steps)}" if len(band.rows) == 1 else f"steps ≤{max(steps)}"
        elif what.startswith("exit "):
            text = what
        else:
            text = next(m.label for r in band.rows for m in r.marks if m.signature == what)
        out.append((statistics.median(ts), text, what))
    return out


def _place(
    names: list[tuple[float, str, str]], markers: list[float], width_of
) -> list[tuple[float, str, bool, list[str]]]:
    """Where names go (x in pixels, the text, True: right of its marker, what it names), most wanted first:
    beside the marker, on whichever side it covers no other marker and no other name. Names of markers
    closer than a marker's width share one label; when that does not fit, its first name alone; else none."""
    clusters: list[tuple[float, float, list[tuple[str, str]]]] = []
    for at, text, what in names:
        close = next((i for i, (lo, hi, _) in enumerate(clusters) if lo - 24 <= at <= hi + 24), None)
        if close is None:
            clusters.append((at, at, [(text, what)]))
        else:
            lo, hi, joined = clusters[close]
            clusters[close] = (min(lo, at), max(hi, at), [*joined, (text, what)])
    taken = [(m - 8, m + 8) for m in markers]
    placed = []
    for lo, hi, joined in clusters:
        for chosen in (joined, joined[:1]):
            text = " · ".join(t for t, _ in chosen)
            width = width_of(text) + 8
            for start, end, at, right in (
                (hi + GAP_PX, hi + GAP_PX + width, hi, True),
                (lo - GAP_PX - width, lo - GAP_PX, lo, False),
            ):
                inside = start >= -6 and end <= AX_PX + 6
                # a marker under the named ones (the star is ~30 px wide) is theirs
                if inside and not any(a < end and start < b and not lo - 14 <= a + 8 <= hi + 14 for a, b in taken):
                    taken.append((start, end))
                    placed.append((at, text, right, [w for _, w in chosen]))
                    break
            else:
                continue
            break
    return placed


def _subtitle(tl: Timeline, bands: list[Band], left: float) -> str:
    hosts = {r.host for r in tl.rows if r.host}
    day = datetime.fromtimestamp(tl.initiating.time, UTC).strftime("%d %b %Y")
    on = f" on {len(hosts)} host{'s' if len(hosts) != 1 else ''}" if hosts else ""
    parts = [f"{len(tl.rows)} ranks{on}", day]
    if any(len(b.rows) > 1 for b in bands):
        parts.append("ranks that behaved alike share a row (bar: first to last)")
    early = min((t for b in bands for r in b.rows for t in _times(r)), default=left)
    if early < left:
        parts.append("earlier steps at the left edge")
    silent = sum(1 for r in tl.rows if not _times(r))
    if silent:
        parts.append(f"{silent} rank{'s' if silent != 1 else ''} with no time")
    return " · ".join(parts)


def _host_labels(ax, bands: list[Band]) -> None:
    """Host names right of the rows: one per run of rows on the same host, or how many hosts a band spans."""
    runs: list[tuple[int, int, str]] = []
    for y, band in enumerate(bands):
        hosts = band.hosts
        name = hosts[0] if len(hosts) == 1 else (f"{len(hosts)} hosts" if hosts else "")
        if len(name) > 16:
            name = name[:15] + "…"
        if runs and runs[-1][2] == name and len(band.rows) == 1 and len(bands[runs[-1][0]].rows) == 1:
            runs[-1] = (runs[-1][0], y, name)
        else:
            runs.append((y, y, name))
    for first, last, name in runs:
        if not name:
            continue
        ax.annotate(
            name,
            (1.0, (first + last) / 2),
            xycoords=("axes fraction", "data"),
            xytext=(12, 0),
            textcoords="offset points",
            va="center",
            fontsize=12,
            color="#444444",
            annotation_clip=False,
        )
        if last > first:
            ax.plot(
                [1.006, 1.006],
                [first - 0.3, last + 0.3],
                color="#888888",
                linewidth=1.5,
                transform=ax.get_yaxis_transform(),
                clip_on=False,
            )
