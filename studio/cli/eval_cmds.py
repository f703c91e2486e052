"""``kamishibai eval mini``: evaluate the built-in model on held-out episodes."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

from studio.cli.common import add_checkpoints_option, checkpoint_dirs, device_spec, thread_count
from studio.core.errors import StudioError

EVALUATED = ("mini",)


def default_report() -> Path | None:
    """``docs/BENCHMARKS.md`` of the source checkout; None for an installed wheel or a frozen
    app (they print only: an installed copy wrote site-packages/docs/BENCHMARKS.md)."""
    from studio.shipped import source_checkout

    checkout = source_checkout()
    return checkout / "docs" / "BENCHMARKS.md" if checkout is not None else None


MAX_EVAL_STEPS = 64
"""More steps than the engine's own setting allows (16), for studying the sampler; far more
would only run for hours."""

MAX_CANDIDATES = 8
"""As the engine's Candidates setting."""
MIN_GUIDANCE, MAX_GUIDANCE = 1.0, 8.0
"""As the engine's Guidance setting."""


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "eval", help="evaluate an engine on held-out episodes (a source checkout also updates its "
        "docs/BENCHMARKS.md)",
        description="Play held-out episodes in the sketch world, run the engine and a judge over them, and print "
        "the goals table (state accuracy, instruction following, visual quality, consistency, speed).")
    p.add_argument("engine", choices=EVALUATED, help="the engine to evaluate (only mini has held-out episodes)")
    p.add_argument("--episodes", type=count_from(1), default=40, help="held-out episodes (3 turns each; default 40)")
    p.add_argument("--steps", type=count_from(1, MAX_EVAL_STEPS), default=4,
                   help="denoising steps, 1 to 64 (default 4, the engine's default; the engine's setting allows 16)")
    p.add_argument("--candidates", type=count_from(1, MAX_CANDIDATES), default=1,
                   help="clips sampled per turn, the motion critic keeping one (default 1, the engine's default)")
    p.add_argument("--guidance", type=guidance_value, default=1.0,
                   help=f"classifier-free guidance, {MIN_GUIDANCE:g} to {MAX_GUIDANCE:g} (default 1: off, the engine's "
                   "default; above 1 each step costs twice), as the engine's Guidance setting")
    p.add_argument("--seed", type=int, help="which held-out episodes (default: the training run's evaluation set)")
    add_checkpoints_option(p)
    p.add_argument("--device", type=one_device, default="cpu", help="cpu or cuda[:N]")
    p.add_argument("--threads", type=thread_count, metavar="N",
                   help="CPU threads, from 1 to the cores the studio may use (default: all cores but one, as in "
                   "the window, so that the timings are the window's)")
    p.add_argument("--report", type=Path, help="the benchmarks file to update (default: docs/BENCHMARKS.md of a "
                   "source checkout; an installed studio prints only)")
    p.add_argument("--no-report", action="store_true", help="print only")
    p.add_argument("--json", action="store_true", help="print the metrics as JSON")
    p.set_defaults(handler=cmd_eval)


def guidance_value(text: str) -> float:
    """An argument type: the guidance scale, refused outside the engine's setting's range."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not MIN_GUIDANCE <= value <= MAX_GUIDANCE:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be from {MIN_GUIDANCE:g} to {MAX_GUIDANCE:g}, not {text}")
    return value


def count_from(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` (to ``high``), refused when the arguments are
    read with the value and the range, so that the message names the one option that is wrong."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, not {value}")
        return value

    return parse


def one_device(text: str) -> str:
    """``eval --device``: one whole device (``cpu``, ``cuda:N``), as the evaluation runs its
    model on one; a placement per stage or ``+offload`` is refused when the arguments are
    read, not dropped (``cuda:0+offload`` ran without offloading) or refused after the
    report was checked."""
    from studio.engines.config import ConfigError, Placement

    if "," in text or "=" in text or text.strip().lower().endswith("+offload"):
        raise argparse.ArgumentTypeError(f"eval runs the model on one device, without offloading: give cpu or "
                                         f"cuda:N, not {text!r}")
    try:
        placement = Placement.parse(device_spec(text))  # device_spec: the refusals of --device everywhere
    except ConfigError as error:
        raise argparse.ArgumentTypeError(f"{error.message} {error.hint}".strip()) from None
    return placement.device


def cmd_eval(args: argparse.Namespace) -> int:
    if args.report is not None and args.report.exists() and not args.report.is_file():
        raise StudioError(f"--report {args.report} is not a file.", hint="Name a Markdown file, e.g. BENCHMARKS.md.")
    report = None if args.no_report else args.report or default_report()
    if report is not None:  # one that could not be updated is refused now, not after a run of minutes
        from studio.benchmarks import check_report

        try:
            check_report(report, [args.engine])
        except StudioError as error:  # its hint names `bench --quick`, which eval does not have
            raise StudioError(error.message, hint="Name another file with --report, or add --no-report to print "
                                                  "the figures only.") from None
    from studio.composition import default_registry
    from studio.engines.config import EngineConfig
    from studio.engines.requirements import RequirementKind

    device = args.device  # one device, read by one_device
    registry = default_registry()
    unmet = [r for r in registry.check(args.engine, EngineConfig.parse(device))
             if r.kind in (RequirementKind.PACKAGE, RequirementKind.DEVICE)]  # the weights: --checkpoints, read later
    if unmet:
        raise StudioError(unmet[0].message, hint=unmet[0].hint)
    from studio.engines.mini.report import run_evaluation, write_report

    started = time.perf_counter()
    def echo(message: str) -> None:
        if not args.json:
            print(message, flush=True)

    # the folder whose mini/ the engine itself would load (a chosen folder's own, else the app's)
    folder = EngineConfig.parse("cpu", checkpoints=checkpoint_dirs(args.checkpoints)).engine_folder("mini").parent
    metrics = run_evaluation(folder, episodes=args.episodes, steps=args.steps,
                             seed=args.seed, device=device, threads=args.threads, candidates=args.candidates,
                             guidance=args.guidance,
                             log=echo)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps(metrics, indent=1, default=str))
    else:
        from studio.engines.mini.evaluate import markdown_table

        print(markdown_table(metrics))
    if report is not None:
        write_report(report, metrics, seconds)
        echo(f"wrote {report}")
    return 0
