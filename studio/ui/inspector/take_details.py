"""Seed, engine, settings and timings of a take, and the engine's warnings (as HTML)."""

from __future__ import annotations

import html

from studio.core.model import Take
from studio.ui.text_wrap import breakable

TIMING_NAMES = {"load_s": "loading the engine", "context_s": "reading the branch", "predict_s": "predicting",
                "decode_s": "drawing the clip", "write_s": "saving"}
"""Words for the worker's timing keys (the keys themselves are never shown)."""


def timing_text(key: str, seconds: float) -> str:
    name = TIMING_NAMES.get(key) or key.removesuffix("_s").replace("_", " ")
    return f"{name} {seconds:.2f} s"


def take_details_html(take: Take | None) -> str:
    if take is None:
        return "<span class='dim'>No take selected.</span>"
    settings = dict(take.settings)
    size = ""
    if "width" in settings and "height" in settings:
        size = f"{settings.pop('width')}×{settings.pop('height')}"
    rest = ", ".join(f"{k} {v}" for k, v in sorted(settings.items()))
    timings = ", ".join(timing_text(k, float(v)) for k, v in take.timings.items()) or "—"
    engine = take.engine + (f" {take.engine_version}" if take.engine_version else "")
    rows = [
        ("Engine", engine),
        ("Seed", str(take.seed)),
        ("Settings", " · ".join(p for p in (size, rest) if p) or "defaults"),
        ("Timings", timings),
        ("Status", take.status.value + (" (stale: made from another past)" if take.stale else "")),
    ]
    # a long word (a checkpoint path in the settings) wraps rather than widen the inspector
    body = "".join(f"<tr><td class='key'>{html.escape(k)}</td><td>{html.escape(breakable(v))}</td></tr>"
                   for k, v in rows)
    out = f"<table cellspacing='2'>{body}</table>"
    if take.error:
        out += f"<p style='color:#ff7a7a'>{html.escape(breakable(take.error))}</p>"
    if take.error and take.hint:  # what to do about it, kept with the take once its job is forgotten
        out += f"<p>{html.escape(breakable('Hint: ' + take.hint))}</p>"
    return out


def warnings_html(take: Take | None) -> str:
    if take is None or not take.warnings:
        return ""
    items = "".join(f"<li>{html.escape(w)}</li>" for w in take.warnings)
    return f"<b style='color:#e0a040'>Engine warnings</b><ul style='margin:2px'>{items}</ul>"
