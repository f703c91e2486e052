"""``kamishibai checkpoints plan``: where every key of a released file would go, before converting.

The manifest is a JSON object whose ``keys`` is a list of ``[name, shape, dtype-or-null]`` in
the file's order: what a user can list from their own file without loading it (and what
our tests write). Shapes are checked against the released model size. The plan is fine
(exit code 0) only when no key is unplaced, no shape differs, and every weight our files
need is in the file or comes, by design, from another released file. No torch here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.errors import StudioError
from studio.engines.animegamer.released import Part, Placement, Skip, Target, expected_keys, place
from studio.engines.animegamer.sizes import FULL, ModelSize


class ManifestError(StudioError):
    """A manifest that is not ``{"keys": [[name, shape, dtype-or-null], ...]}``."""


@dataclass(frozen=True, slots=True)
class ManifestKey:
    name: str
    shape: tuple[int, ...]
    dtype: str | None


@dataclass(frozen=True, slots=True)
class PlanRow:
    key: ManifestKey
    status: str
    """``placed``, ``skipped``, ``unplaced`` or ``shape``."""
    detail: str


@dataclass
class Plan:
    part: Part
    rows: list[PlanRow] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Weights our files need that this file lacks and no other released file gives."""
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.missing and not any(r.status in ("unplaced", "shape") for r in self.rows)

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r.status == status)


def read_manifest(path: Path) -> list[ManifestKey]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ManifestError(f"Can't read the manifest {path}: {error}.") from None
    return parse_manifest(data, str(path))


def parse_manifest(data: Any, where: str = "the manifest") -> list[ManifestKey]:
    if not isinstance(data, dict) or not isinstance(data.get("keys"), list):
        raise ManifestError(f"{where} must be a JSON object with a 'keys' list.",
                            hint='Each entry: ["name", [dim, ...], "dtype" or null], in the file\'s order.')
    keys = []
    for index, entry in enumerate(data["keys"]):
        ok = (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
              and isinstance(entry[1], list) and all(isinstance(d, int) and d >= 0 for d in entry[1])
              and (entry[2] is None or isinstance(entry[2], str)))
        if not ok:
            raise ManifestError(f"{where}: entry {index} is not [name, shape, dtype-or-null]: {entry!r}.")
        keys.append(ManifestKey(entry[0], tuple(entry[1]), entry[2]))
    return keys


_ELSEWHERE: dict[Part, dict[Target, str]] = {
    Part.MLLM: {Target.BASE: "Mistral-7B-Instruct-v0.1/ (the base model's own files)"},
    Part.DECODER: {Target.VAE: "vae/3d-vae.pt"},
    Part.BASE: {Target.MLLM: "MLLM-<Char>/pytorch_model.bin"},
}
_TARGETS: dict[Part, tuple[Target, ...]] = {
    Part.MLLM: (Target.MLLM, Target.BASE), Part.DECODER: (Target.DECODER, Target.VAE),
    Part.VAE: (Target.VAE,), Part.BASE: (Target.BASE,),
}


def make_plan(part: Part, keys: Sequence[ManifestKey], size: ModelSize = FULL) -> Plan:
    plan = Plan(part)
    filled: dict[Target, set[str]] = {t: set() for t in Target}
    for key in keys:
        rule = place(part, key.name, size)
        if isinstance(rule, Skip):
            plan.rows.append(PlanRow(key, "skipped", rule.reason))
        elif isinstance(rule, Placement):
            if key.shape != rule.shape:
                plan.rows.append(PlanRow(key, "shape", f"{rule.describe()}; shape {list(key.shape)} but the released "
                                                       f"model has {list(rule.shape)}"))
            else:
                plan.rows.append(PlanRow(key, "placed", rule.describe()))
            filled[rule.target].update(rule.keys)
        else:
            plan.rows.append(PlanRow(key, "unplaced", rule.reason))
    for target in _TARGETS[part]:
        absent = [k for k in expected_keys(target, size) if k not in filled[target]]
        if not absent:
            continue
        elsewhere = _ELSEWHERE.get(part, {}).get(target)
        if elsewhere and (not filled[target] or part is Part.BASE):
            plan.notes.append(f"{len(absent)} {target.value} weights are not in this file; the converter reads them "
                              f"from {elsewhere}.")
        else:
            plan.missing.extend(f"{target.value}: {k}" for k in absent)
    return plan


def format_plan(plan: Plan, *, verbose: bool = True) -> str:
    marks = {"placed": "->", "skipped": "skip", "unplaced": "UNPLACED", "shape": "SHAPE"}
    lines = []
    for row in plan.rows:
        if verbose or row.status in ("unplaced", "shape"):
            lines.append(f"{marks[row.status]:<8} {row.key.name} {list(row.key.shape)}: {row.detail}")
    for name in plan.missing[:50]:
        lines.append(f"MISSING  {name}")
    if len(plan.missing) > 50:
        lines.append(f"MISSING  ... and {len(plan.missing) - 50} more")
    lines.extend(f"note     {note}" for note in plan.notes)
    lines.append(f"{plan.part.value}: {len(plan.rows)} keys: {plan.count('placed')} placed, "
                 f"{plan.count('skipped')} skipped by design, {plan.count('unplaced')} unplaced, "
                 f"{plan.count('shape')} with another shape; {len(plan.missing)} needed weights missing. "
                 + ("The conversion can go ahead." if plan.ok else "The conversion would fail."))
    return "\n".join(lines)
