"""Generation subcommands: play, reroll, fill, queue, run-queue.

``play`` and ``reroll`` run their own jobs synchronously, ahead of anything already
queued, and leave the rest of the queue alone; ``run-queue`` works through the whole
queue headless, with a progress bar on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
import sys
import threading
import weakref
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from studio.cli.common import (
    WorkFailedError,
    add_checkpoints_option,
    add_wait_option,
    checkpoint_dirs,
    ctrl_c_deferred,
    device_spec,
    devices_spec,
    doctor_command,
    open_for_reading,
    open_project,
    print_json,
    printable,
    resolve_node,
    shell_path,
    thread_count,
)
from studio.core.errors import StudioError
from studio.core.model import Take, TakeStatus
from studio.core.sentence import plural
from studio.core.state import STAT_WORDS, StateScope
from studio.core.text import first_few
from studio.core.tree import StoryTree
from studio.storage import Project

if TYPE_CHECKING:  # the worker (numpy) is imported by the commands that run jobs
    from studio.storage.job_store import JobPlace
    from studio.worker import GenerationService, HostMode, Job
    from studio.worker.cluster import ClusterStatus

ENGINE_HOST_ENV = "KAMISHIBAI_ENGINE_HOST"
"""``in-process`` runs engines in the CLI's own process (tests with in-memory engines)."""

PLAY_PARENT_HELP = (
    "node to continue from (id, unique id prefix, or 'root'). Default: the most recently created turn "
    "of the project (the story's start in a new project), so that repeated `play` calls extend one branch"
)


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play", help="generate one turn (or several in a row) now and print its node, take and state",
        description="Add a turn with INSTRUCTION and generate its clip synchronously; several "
        "instructions (or --instruction options) add one turn each, in order, each continuing from the one "
        f"before, and stop at the first that fails. --parent: {PLAY_PARENT_HELP}. Exit status 0 when every turn "
        "was made, 1 when one was not (the ones made before it stay), 2 when the command was refused before "
        "generating anything.",
    )
    p.add_argument("path", help="project folder")
    p.add_argument("instructions", nargs="*", default=[], metavar="INSTRUCTION",  # --instruction does too
                   help="a turn's instruction, as --instruction gives it (several: one turn each, before the "
                        "--instruction ones)")
    p.add_argument("--instruction", "-i", action="append", default=[],
                   help="the turn, e.g. 'Character: Qiqi; Motion: gently sit on railing; Background: day town.' "
                        "(repeatable: one turn each; --json then prints a list)")
    p.add_argument("--parent", help=PLAY_PARENT_HELP)
    _engine_options(p)
    p.add_argument("--seed", type=_seed, help="random seed, 0 to 2147483647 (default: a new random one)")
    p.add_argument("--json", action="store_true",
                   help="machine-readable output: a turn's result (a list with several --instruction); stopped by "
                   "Ctrl+C (exit status 130), the turn it was making is listed too, with \"interrupted\": true and "
                   "\"kept\": false")
    add_wait_option(p)
    # many_positionals: also those given after an option
    p.set_defaults(handler=cmd_play, many_positionals="instructions", free_text=True)

    p = sub.add_parser("reroll", help="generate a new take of a turn (or of it and every turn below it)",
                       description="Generate a new take of turn NODE (with --branch, of it and of every turn below "
                       "it). Exit status 0 when every new take was made, 1 when one was not (the turn keeps the takes "
                       "it had), 2 when the command was refused before generating anything.")
    p.add_argument("path", help="project folder")
    p.add_argument("node", help="node id or unique id prefix")
    p.add_argument("--branch", action="store_true",
                   help="also re-roll every turn below NODE, parent before child, each from its parent's new take")
    _engine_options(p)
    p.add_argument("--seed", type=_seed,
                   help="random seed for every new take, 0 to 2147483647 (default: new random seeds)")
    p.add_argument("--json", action="store_true",
                   help="machine-readable output: a list, one entry per turn re-rolled, each with the keys "
                   "`play --json` prints for a turn")
    add_wait_option(p)
    p.set_defaults(handler=cmd_reroll)

    p = sub.add_parser("fill", help="queue a take for every turn that has none (parents first)",
                       description="Make the takes a story lacks: queue a generation job for every turn without "
                       "a finished take (imported, typed, or whose generation failed or was cancelled), on every "
                       "branch or only on the branch from the story's start to --leaf; each job waits for the "
                       "one of the turn above it. Turns already queued are not queued twice. --run generates "
                       "them at once (as run-queue does).")
    p.add_argument("path", help="project folder")
    p.add_argument("--leaf", help="only the branch from the story's start to this turn (default: every branch)")
    _engine_options(p, fill=True)
    p.add_argument("--run", action="store_true", help="generate the queue now, with a progress bar on stderr")
    _cluster_options(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="machine-readable output (the queued jobs)")
    add_wait_option(p)
    p.set_defaults(handler=cmd_fill)

    p = sub.add_parser("queue", help="list the project's generation jobs, or cancel some",
                       description="List the jobs not finished yet (queued, running, interrupted, and those "
                       "blocked, with why); --all adds the done, failed and cancelled ones. Only reads the project, "
                       "unless --cancel or --cancel-interrupted is given: they cancel jobs as the studio's queue "
                       "does (the jobs that wait for a cancelled one are cancelled with it; takes already made "
                       "stay). Exit status 2 when a job named can't be cancelled (nothing is cancelled then).")
    p.add_argument("path", help="project folder")
    p.add_argument("--all", action="store_true", help="include finished jobs")
    p.add_argument("--json", action="store_true",
                   help="machine-readable output (with --cancel: the jobs cancelled, as listed)")
    p.add_argument("--cancel", nargs="+", default=[], metavar="JOB",
                   help="cancel these queued or interrupted jobs (ids or unique id prefixes, as listed)")
    p.add_argument("--cancel-interrupted", action="store_true",
                   help="cancel every job a crash or a stop interrupted (instead of running them again with "
                   "run-queue --requeue-interrupted)")
    add_wait_option(p)
    p.set_defaults(handler=cmd_queue)

    p = sub.add_parser("run-queue", help="run every queued job headless (progress bar on stderr)",
                       description="Work through the project's queue until nothing is left to run. "
                       "Exit status 0 when every job succeeded, 1 when some failed, interrupted jobs are left (run "
                       "them with --requeue-interrupted, or cancel them with `queue PATH --cancel-interrupted`) or "
                       "jobs are left waiting (for an interrupted job, or for an "
                       "engine this machine can't run: those stay queued). Jobs that "
                       "could never start (an unknown engine, jobs that wait for one another) fail. Ctrl+C stops it "
                       "(exit status 130): the job it was running is interrupted and keeps no take, the others stay "
                       "queued, and the message names the command that goes on.")
    p.add_argument("path", help="project folder")
    p.add_argument("--requeue-interrupted", action="store_true",
                   help="first queue again the jobs a crash or a stop interrupted")
    _device_options(p)
    _cluster_options(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_wait_option(p)
    p.set_defaults(handler=cmd_run_queue)


def _device_options(p: argparse.ArgumentParser) -> None:
    """Where a generating command's engines run, and where their weights are."""
    p.add_argument("--device", type=device_spec, default="cpu",
                   help="where engines run: cpu, cuda:N, per stage predict=cuda:0,decode=cuda:1, or cuda:N+offload "
                   "(default: cpu; CPU-only engines always run on the CPU)")
    add_checkpoints_option(p)
    _devices_options(p)


def _seed(text: str) -> int:
    from studio.worker.jobs import SEED_LIMIT

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to {SEED_LIMIT - 1}, not {text}")
    return value


def _engine_options(p: argparse.ArgumentParser, *, fill: bool = False) -> None:
    """--engine and --setting, said for play and reroll, or (``fill``) for turns that have no take."""
    if fill:
        p.add_argument("--engine", help="engine for every turn queued (default: the engine of the turn's current "
                       "take, where it has one that did not finish, else sketch)")
        p.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                       help="engine setting for every turn queued, repeatable (e.g. --setting frames=9); values are "
                       "read as JSON when they parse. They replace those of a turn's unfinished take of the same "
                       "engine, else the engine's defaults")
    else:
        p.add_argument("--engine", help="engine name (default: the engine of the turn's current take, for play the "
                       "take of the turn it continues; for reroll of a turn without a finished take whose job was "
                       "interrupted, that job's engine and settings; else sketch)")
        p.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                       help="engine setting, repeatable (e.g. --setting frames=9 --setting width=360); "
                       "values are read as JSON when they parse. A turn is made with the settings of the take it "
                       "re-rolls (for play: of the take it continues), the ones given replacing theirs, when that take "
                       "is of the same engine; with another engine, that take's settings are not carried over: the "
                       "engine's defaults, the ones given replacing theirs")
    _device_options(p)


def command_line_threads(args: argparse.Namespace, workers: int = 1) -> int | None:
    """CPU threads for the engines of a generating command with ``workers`` devices:
    ``--threads``, else every core the studio may use. The window's Automatic keeps a core
    for itself (all cores but one); on the command line none needs it, and on a 2-core
    computer one thread is half the speed. With several workers and no ``--threads``, None:
    they share the cores out (:func:`studio.worker.thread_budget.share_cores`)."""
    from studio.engines.config import usable_cores

    if getattr(args, "threads", None) is not None:
        return int(args.threads)
    return usable_cores() if workers == 1 else None


def _devices_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--devices", type=devices_spec, metavar="LIST",
                   help="one worker per device, each with its own engine process: cpu,cuda:0,cuda:1 "
                   "(cpu,cpu: two CPU workers); a worker's stages are written predict=cuda:0;decode=cuda:1. "
                   "Overrides --device")
    p.add_argument("--threads", type=thread_count, metavar="N",
                   help="CPU threads for each engine process (default: every core the studio may use, as no window "
                   "needs one here; shared out with --devices)")
    p.add_argument("--engine-host", choices=("process", "in-process"),
                   default=os.environ.get(ENGINE_HOST_ENV, "process"),
                   help="run engines in a child process per device (default), or in this process "
                   f"(for debugging; also set by {ENGINE_HOST_ENV})")


def _cluster_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cluster", metavar="WHERE",
                   help="run the engines on a Ray cluster: local (a Ray instance on this machine), auto (the "
                   "cluster this machine joined with `ray start`) or the head's HOST:PORT; one engine actor per GPU. "
                   "Needs Ray, the cluster extra: pip install '.[cluster]' in the studio's checkout "
                   "(README: “A tree that outgrows one machine”)")
    p.add_argument("--actors", type=_actor_count, metavar="N",
                   help="with --cluster: how many engine actors (default: one per GPU of the cluster, else one)")
    p.add_argument("--cluster-timeout", type=_seconds, metavar="SECONDS",
                   help="with --cluster HOST:PORT or auto: give up joining the cluster after this long "
                   "(default: 10); the queued jobs stay queued")


def _actor_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if not 1 <= value <= 1024:
        raise argparse.ArgumentTypeError(f"expected 1 to 1024 actors, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"expected more than 0 and at most 3600 seconds, not {text}")
    return value


def _cluster_spec(args: argparse.Namespace) -> Any:
    """The cluster ``--cluster`` names (None without it), refused at once without Ray."""
    where = getattr(args, "cluster", None)
    if not where:
        if getattr(args, "actors", None) is not None:
            raise StudioError("--actors needs --cluster.", hint="e.g. --cluster local --actors 2.")
        if getattr(args, "cluster_timeout", None) is not None:
            raise StudioError("--cluster-timeout needs --cluster.", hint="e.g. --cluster 10.0.0.5:6379 "
                              "--cluster-timeout 5.")
        return None
    from studio.worker.cluster import parse_cluster, require_ray

    spec = parse_cluster(where, getattr(args, "actors", None), getattr(args, "cluster_timeout", None))
    require_ray()
    return spec


def parse_settings(items: Sequence[str]) -> dict[str, Any] | None:
    """``--setting KEY=VALUE`` options as a mapping (None without any). A value is read as
    JSON when it parses to something finite, else kept as the text typed (``1e999`` and
    ``NaN`` stay text, so that a refusal shows them as typed). A name given twice is refused:
    which of its values was meant can't be told."""
    if not items:
        return None
    settings: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise StudioError(f"Bad --setting {item!r}: expected KEY=VALUE.")
        if key in settings:
            raise StudioError(f"--setting {key} is given twice ({printable(_typed(items, key))}).",
                              hint=f"Give --setting {key}=VALUE once, with the value you mean.")
        settings[key] = _setting_value(raw)
    return settings


def _typed(items: Sequence[str], key: str) -> str:
    """Every value ``--setting`` gives ``key``, as typed: ``2 and 3``."""
    values = [raw for name, _, raw in (item.partition("=") for item in items) if name.strip() == key]
    return " and ".join(value if value.strip() else "an empty value" for value in values)


def _setting_value(raw: str) -> Any:
    """One ``--setting`` value: JSON when it parses to finite values, else the text typed."""
    def finite(text: str) -> float:
        number = float(text)
        if not math.isfinite(number):
            raise ValueError(text)
        return number

    def constant(text: str) -> float:  # NaN, Infinity: Python's JSON reads them, JSON has none
        raise ValueError(text)

    try:
        return json.loads(raw, parse_float=finite, parse_constant=constant)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError; [[[[... nested too deep
        return raw


def node_depths(tree: StoryTree) -> dict[str, int]:
    """Every node's depth, in one walk (computing each from scratch is quadratic on long branches)."""
    depths = {tree.root_id: 0}
    for node in tree.descendants(tree.root_id):
        depths[node.id] = depths[node.parent_id or ""] + 1
    return depths


def last_created_node(tree: StoryTree) -> str:
    """The most recently created node (deepest on a tie); the story's start if none."""
    newest = max(node.created_at for node in tree.nodes.values())
    candidates = [node.id for node in tree.nodes.values() if node.created_at == newest]
    if len(candidates) == 1:
        return candidates[0]
    depths = node_depths(tree)
    return max(candidates, key=lambda node_id: depths.get(node_id, -1))


def _host_mode(value: str | None) -> HostMode:
    """``--engine-host``, whose default comes from :data:`ENGINE_HOST_ENV`: argparse checks the
    choices of a value given on the command line only, so a mistyped variable ended the command
    with "internal error: ValueError: 'bogus' is not a valid HostMode"."""
    from studio.worker import HostMode

    text = value or "process"  # set but empty: the default
    try:
        return HostMode(text.strip().lower())
    except ValueError:
        raise StudioError(f"{ENGINE_HOST_ENV} is {printable(text)!r}, which names no way to run engines: it takes "
                          "'process' (the default) or 'in-process'.",
                          hint=f"Set it to one of them, or unset it (unset {ENGINE_HOST_ENV}).") from None


def _service(project: Project, args: argparse.Namespace, auto_requeue: bool = False) -> GenerationService:
    from studio.composition import DEFAULT_ENGINE, default_registry
    from studio.engines.config import EngineConfig
    from studio.worker import GenerationService
    from studio.worker.device_worker import parse_devices

    # engines with weights find them where the window does (whatever the working folder), or in --checkpoints
    folders = checkpoint_dirs(getattr(args, "checkpoints", None))
    devices = parse_devices(args.devices, checkpoints=folders) if getattr(args, "devices", None) else None
    threads = command_line_threads(args, len(devices) if devices else 1)
    if devices and threads is not None:
        devices = [replace(device, threads=threads) for device in devices]
    hosts = _host_mode(getattr(args, "engine_host", None))
    config = EngineConfig.parse(args.device, checkpoints=folders, threads=threads)
    cluster = _cluster_spec(args)
    if cluster is not None:
        print(f"kamishibai: engines run on {cluster.describe()}", file=sys.stderr)
    service = GenerationService(project, default_registry(), device=config, devices=devices,
                                default_engine=DEFAULT_ENGINE, auto_requeue=auto_requeue, hosts=hosts, cluster=cluster)
    _DOCTOR[service] = doctor_command(None if devices else args.device, getattr(args, "checkpoints", None))
    if cluster is not None:
        _RUN_ON[service] = _cluster_arguments(args)
        _take_back_sigterm()
    _report_settled_at_start(service)
    return service


_RUN_ON: weakref.WeakKeyDictionary[GenerationService, str] = weakref.WeakKeyDictionary()
"""The options (`` --cluster local --actors 2``) that chose where a service's engines run,
repeated in the commands that go on after a run (QA: after Ctrl+C on the render farm, the
command that "goes on from there" ran the rest on this machine)."""


_DOCTOR: weakref.WeakKeyDictionary[GenerationService, str] = weakref.WeakKeyDictionary()
"""The `kamishibai doctor` command that lists every reason an engine can't run with a service's
device and checkpoints folder, as the user gave them."""


def _doctor_for(service: GenerationService) -> str:
    return _DOCTOR.get(service, "kamishibai doctor")


def _cluster_arguments(args: argparse.Namespace) -> str:
    """`` --cluster WHERE`` with ``--actors`` and ``--cluster-timeout`` as they were given."""
    parts = ["--cluster", printable(args.cluster)]
    if getattr(args, "actors", None) is not None:
        parts += ["--actors", str(args.actors)]
    if getattr(args, "cluster_timeout", None) is not None:
        parts += ["--cluster-timeout", f"{args.cluster_timeout:g}"]
    return "".join(f" {shlex.quote(part)}" for part in parts)


def run_queue_command(service: GenerationService, path: str, *options: str) -> str:
    """``kamishibai run-queue PATH [options]``, on the render farm the run used, if any."""
    return f"kamishibai run-queue {shell_path(path)}{_RUN_ON.get(service, '')}" + \
        "".join(f" {option}" for option in options)


def _take_back_sigterm() -> None:
    """Ray puts a crash reporter of its own on SIGTERM when it starts in this process (the
    render farm): a `run-queue` stopped with SIGTERM printed "*** SIGTERM received at time=...
    PC: @ 0x7f... (unknown)" twice, as after a crash, before saying what it stopped. Setting
    the command's handler again (kept by Python all along) puts it back in front; Ray's
    reporter stays on the signals of real crashes (SIGSEGV, SIGABRT...)."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        return
    handler = signal.getsignal(signal.SIGTERM)
    if callable(handler) or handler in (signal.SIG_IGN, signal.SIG_DFL):
        signal.signal(signal.SIGTERM, handler)


def check_engine_here(engine: str | None, device: str, checkpoints: str | None = None) -> None:
    """Refuse, before anything is written, an unknown engine, an unknown device or an engine
    that can't run on ``device`` here (with its weights in ``checkpoints``, else where the
    generating commands look), with the messages a queued job would get."""
    from studio.composition import DEFAULT_ENGINE, default_registry
    from studio.engines.base import EngineError
    from studio.engines.config import EngineConfig
    from studio.worker.operations import cannot_run

    config = EngineConfig.parse(device, checkpoints=checkpoint_dirs(checkpoints))
    registry = default_registry()
    name = engine or DEFAULT_ENGINE
    registry.info(name)  # an unknown engine, with the names of the known ones
    unmet = registry.check(name, config)
    if unmet:
        message, hint = cannot_run(name, unmet, doctor_command(device, checkpoints))
        raise EngineError(message, hint=hint)


def check_engine_choice(service: GenerationService, tree: StoryTree, node_ids: Sequence[str], engine: str | None,
                        settings: dict[str, Any] | None) -> None:
    """Refuse ``--engine`` and ``--setting`` as queuing a job refuses them, for a command that
    queued nothing: they were checked only job by job, so with nothing to queue a typo'd
    engine or setting passed with exit status 0 (QA). An engine named with ``--engine`` must
    exist and be able to run here; without it, the settings are checked against the engine
    each turn of ``node_ids`` would be generated with (its current take's, else the
    default), as a re-roll or fill of those turns would check them."""
    from studio.engines.base import EngineError
    from studio.storage.job_store import check_settings
    from studio.worker.operations import cannot_run

    registry = service.registry
    if engine is not None:
        names = [engine]
    elif settings is not None:
        names = sorted({_engine_of(tree, node_id, service) for node_id in node_ids} or {service.default_engine})
    else:
        return
    for name in names:
        info = registry.info(name)  # an unknown engine, with the names of the known ones
        unmet = service.unrunnable_engines([name]).get(name) if engine is not None else None
        if unmet:
            message, hint = cannot_run(name, unmet, _doctor_for(service))
            raise EngineError(message, hint=hint)
        if settings is not None:
            check_settings(info.settings.from_values(settings).overrides())


def _engine_of(tree: StoryTree, node_id: str, service: GenerationService) -> str:
    """The engine a turn is generated with when no ``--engine`` is given: its current
    take's, when this studio knows it, else the default (as the worker chooses it)."""
    current = tree.takes.get(tree.nodes[node_id].selected_take_id or "")
    if current is not None and current.engine in service.registry.names():
        return current.engine
    return service.default_engine


def _run_now(service: GenerationService, job_ids: list[str], path: str, *, stop: bool = True) -> None:
    """Run ``job_ids`` ahead of the queue, then pause before anything else starts; ``stop``
    also stops the worker (else the next call resumes it, with its engines still loaded)."""
    from studio.worker import JobEvent

    pending = set(job_ids)
    done = threading.Event()

    def watch(event: JobEvent) -> None:
        if event.job_id in pending and event.job.finished:
            pending.discard(event.job_id)
            if not pending:
                service.pause()  # on the worker thread, before it picks another job
                done.set()

    unsubscribe = service.subscribe(watch)
    if all(service.job(j).finished for j in job_ids):
        done.set()
    try:
        service.resume()  # an earlier call paused it
        service.start()
        while not done.wait(0.2):
            if not service.running:
                raise WorkFailedError("The worker stopped unexpectedly.",
                                      hint=f"Run the command again; `kamishibai queue {shell_path(path)}` "
                                      "lists the jobs left.")
    except KeyboardInterrupt:
        with ctrl_c_deferred():  # a second Ctrl+C (or `timeout`'s second SIGINT) must not cut the stop short
            service.stop(cancel_running=True, timeout=30)
        raise
    finally:
        unsubscribe()
    if stop:
        service.stop(timeout=None)


def _top_priority(service: GenerationService) -> int:
    return max((j.priority for j in service.jobs()), default=0) + 1


_MADE_KEYS = ("deltas", "motion_level", "state", "start_state", "change", "clip", "poster", "representation",
              "understood")
"""What a result says a finished take made: the predicted change of state (its deltas, in the
engine's steps), the state it leads to and how far it moved each value there (its change, in
points: less than predicted where a value ran into 0 or 100), its motion level, its files and
what the engine understood of the instruction (:func:`understood`). A take that did not finish
predicted nothing, so a result leaves them out rather than print zeros as a prediction."""

UNDERSTOOD_KEYS = (("character", "character"), ("motion", "motion"), ("location", "place"),
                   ("time_of_day", "time"), ("camera", "camera"))
"""(the take's conditioning key, the name `--json` and the plain line give it): the facts the
window's "Understood" chips show, in their order."""


def understood(take: Take) -> dict[str, Any]:
    """What the engine read from a finished take's instruction, as the window's "Understood"
    chips show it: the character, motion, place, time of day and camera it reported (an engine
    reports those it reads: the sketch all, another only the character), and always the motion
    level (1 calm to 5 lively) it gave the clip."""
    conditioning = take.conditioning
    out: dict[str, Any] = {}
    for key, name in UNDERSTOOD_KEYS:
        value = conditioning.get(key)
        if isinstance(value, str) and value.strip():
            out[name] = value
    out["level"] = take.motion_level
    return out


def _take_summary(project: Project, take_id: str) -> dict[str, Any]:
    from studio.cli.common import take_start

    take = project.tree.takes[take_id]
    before = project.tree.state_before(take.node_id)
    after = before.apply(take.deltas)
    out = {
        "take": take.id,
        "status": take.status.value,
        "engine": take.engine,
        "seed": take.seed,
        "deltas": take.deltas.as_dict(),
        "motion_level": take.motion_level,
        # the state this take leads to (not the turn's, which follows its selected take)
        "state": after.as_dict(),
        "start_state": take_start(take),  # the state it was made from, as `takes` and `tree --json` give it
        "change": after.change_from(before).as_dict(),  # in points, after clamping to 0..100
        "clip": str(project.resolve(take.clip_path)) if take.clip_path else "",
        "poster": str(project.resolve(take.poster_path)) if take.poster_path else "",
        "representation": str(project.resolve(take.representation_path)) if take.representation_path else "",
        "settings": dict(take.settings),
        "warnings": list(take.warnings),
        "timings": dict(take.timings),
        "understood": understood(take),
    }
    if take.status is not TakeStatus.DONE:
        for key in _MADE_KEYS:
            del out[key]
    return out


def _job_result(project: Project, service: GenerationService, job_id: str) -> dict[str, Any]:
    """One turn's result, the same for `play` and `reroll` (``--json`` prints it): its node,
    job and take, what the take predicted (when it finished), and ``error``/``hint`` when it
    did not. The command adds ``kept``: whether the turn is in the project afterwards."""
    job = service.job(job_id)
    out: dict[str, Any] = {"node": job.node_id, "job": job.id, "job_status": job.status.value}
    node = project.tree.nodes.get(job.node_id) if job.node_id else None
    if node is not None:
        out["instruction"] = node.instruction.raw
        if project.tree.state_scope is StateScope.CHARACTER:  # whose state the take's numbers are
            out["character"] = project.tree.acting_character(node.id)
    if job.take_id and job.take_id in project.tree.takes:
        out.update(_take_summary(project, job.take_id))
    if job.error:
        out["error"] = job.error
    if job.hint:
        out["hint"] = job.hint
    return out


def _print_result(result: dict[str, Any]) -> None:
    state = result.get("state", {})
    change = result.get("change", {})
    seed = f"  seed {result['seed']}" if "seed" in result else ""
    if "node" not in result:  # a turn `play` did not keep: nothing of it is in the project
        print(f"turn not kept ({result['job_status']}){seed}  {printable(result.get('instruction', ''))[:60]}")
    else:
        print(f"node {result['node']}  take {result.get('take', '-')}  {result['job_status']}{seed}")
    if state:
        # how far each value moved, in points, as the window and the exports show it: "stamina 0 (-5)"
        # from 5, whatever more the engine predicted (--json keeps its steps in "deltas")
        whose = f" ({printable(result['character'])})" if result.get("character") else ""
        values = "  ".join(f"{STAT_WORDS.get(k, k)} {v} ({change.get(k, 0):+d})" for k, v in state.items())
        print(f"  state{whose}  {values}  motion {result.get('motion_level')}")
    if result.get("understood"):
        print(f"  understood  {understood_line(result['understood'])}")
    if result.get("clip"):
        print(f"  clip   {printable(result['clip'])}")  # a folder's name may hold a line break or an ESC
    for warning in result.get("warnings", []):
        print(f"  warning: {printable(warning)}")
    if result.get("error"):
        print(f"  error: {printable(result['error'])}")


def understood_line(read: dict[str, Any]) -> str:
    """``understood``'s facts on one line: "motion run  place park  time night  camera static
    level 4". Printable: the values are the engine's, but a character's name is the author's."""
    return "  ".join(f"{name} {printable(str(value))}" for name, value in read.items())


def _raise_on_failure(results: list[dict[str, Any]], *, again: Sequence[str], unchanged: str,
                      asked: int | None = None) -> None:
    """Raise the first failed turn's error as :class:`WorkFailedError` (exit status 1). ``again``:
    the commands that make what failed (and what was not tried after it); ``unchanged``: what
    the failure left as it was; ``asked``: how many turns a `play` was to make (it stops at
    the first failure, so the turns after that one were not tried)."""
    failed = [r for r in results if r["job_status"] != "done"]
    if not failed:
        return
    first = failed[0]
    total = asked if asked is not None else len(results)
    if total == 1:
        prefix = ""
    elif asked is not None:
        number = results.index(first) + 1
        after = total - number
        prefix = f"Turn {number} of {total} was not generated{f' (nor the {after} after it)' if after else ''}: "
    else:
        prefix = f"{len(failed)} of {total} turns were not generated. "
    error = first.get("error", f"the job was {first['job_status']}")
    if first.get("not_removed"):  # the failed turn is still there: nothing else may say it is not
        said = error.rstrip() if error.rstrip().endswith((".", "!", "?")) else f"{error.rstrip()}."
        raise WorkFailedError(prefix + said + f" {first['not_removed'].rstrip('.')}; it stays in the "
                              "project, without a take.", hint=_turn_kept_hint(first.get("hint", ""), again))
    note = " (The new turn was not kept.)" if first.get("kept") is False else ""
    hint = _command_line_hint(error, first.get("hint", ""), again, unchanged)
    raise WorkFailedError(prefix + error + note, hint=hint)


def _turn_kept_hint(hint: str, again: Sequence[str]) -> str:
    """The hint of a `play` whose failed turn could not be removed (a disk without room for
    that either): the error's own cure, less its "Nothing was lost" (the turn stays), then
    the commands that give that turn its take and go on, where running the same `play`
    again would add a second turn beside it."""
    cure = hint.removeprefix("Nothing was lost.").strip()
    commands = first_few([f"`{command}`" for command in again], separator=", then ", limit=4)
    run = f"run {commands} (with the options you gave): the turn that stayed gets its take"
    if cure.endswith(", then try again."):
        text = f"{cure.removesuffix(', then try again.')}, then {run}."
    else:
        text = f"{cure} {run[0].upper()}{run[1:]}." if cure else f"{run[0].upper()}{run[1:]}."
    return f"{text} Or delete that turn in the studio."


_RETRY = re.compile(r"\b([Rr])etry the job\b")
"""The window's words for trying again (its queue has a Retry button); the command line names its command."""


def _command_line_hint(error: str, hint: str, again: Sequence[str], unchanged: str) -> str:
    """The hint of a failed turn, for the command line. An engine process that died is said
    with what was left unchanged and the command that tries again (the engine's own hint
    said "Nothing of this take was kept ... Retry the job", the window's words); elsewhere
    "retry the job" names the command."""
    commands = first_few([f"`{command}`" for command in again], separator=", then ", limit=4) or "the command"
    if error.startswith("The engine process exited"):
        cause = ("Something outside the studio ended the engine's process: a `kill -9`, or the system when memory "
                 "ran out. " if "SIGKILL" in error else "")
        return (f"{unchanged} {cause}Run {commands} (with the options you gave) to try again; a fresh engine "
                "process starts.")
    return _RETRY.sub(lambda match: f"{match.group(1)}un {commands} again (with the options you gave)", hint)


_NOT_KEPT_KEYS = ("node", "take", "status", "deltas", "motion_level", "state", "start_state", "change", "clip",
                  "poster", "representation", "timings")
"""What a `play` result says of its turn and take, dropped when the turn is not kept."""


def _drop_failed_turn(project: Project, result: dict[str, Any], node_id: str) -> None:
    """Remove a turn `play` failed to generate, and from ``result`` everything that would
    describe it as made (its node, take, state and motion level); ``kept`` says which it is."""
    note = _discard_new_turn(project, node_id)
    kept = node_id in project.tree.nodes
    result["kept"] = kept
    if kept:
        result["not_removed"] = note.strip().strip("()")
        return
    for key in _NOT_KEPT_KEYS:
        result.pop(key, None)


def _discard_new_turn(project: Project, node_id: str) -> str:
    """A `play` that made no clip keeps nothing: its new turn (and failed take) go, with the
    files of a take finished just before Ctrl+C stopped it (nothing can show them again)."""
    from studio.core.changes import EntityKind
    from studio.core.commands import DeleteSubtree

    if node_id not in project.tree.nodes:
        return ""
    try:
        change = project.apply(DeleteSubtree(node_id), undoable=False)
    except StudioError as error:
        return f" (The new turn {node_id} could not be removed: {error.message})"
    for take_id in change.removed.get(EntityKind.TAKE, frozenset()):
        project.remove_take_media(take_id)
    return " (The new turn was not kept.)"


def _check_instructions(texts: Sequence[str], path: str) -> None:
    """Refuse a wrongly written instruction before any turn is generated, naming which one
    (re-running the corrected command would otherwise add the turns before it again)."""
    from studio.core.field_names import misspelled_field_names, unknown_field_message
    from studio.core.instruction import InstructionError, instruction_too_long, validate_instruction_text

    for number, text in enumerate(texts, start=1):
        try:
            validate_instruction_text(text)
            # refused, as import-demo refuses it: played, the turn went without the field meant
            # (a misspelled Background: the previous place), and the take was wasted
            unknown = misspelled_field_names(text)
            if unknown:
                message = unknown_field_message(unknown, text)
                raise InstructionError(message[:1].upper() + message[1:] + ".",
                                       hint="Correct the field name (a dialogue line is added with `kamishibai say`).")
        except InstructionError as error:
            if instruction_too_long(text):  # the window's "the turn's notes": no command sets those
                error.hint = ("Shorten it. Words for whoever films the turn can go in its shot notes once it is "
                              f"made: kamishibai story {shell_path(path)} NODE --notes TEXT.")
            if len(texts) == 1:
                raise
            raise InstructionError(f"Instruction {number} of {len(texts)}: {error.message} Nothing was generated.",
                                   hint=error.hint) from None


@dataclass
class _PlayRun:
    """What a `play` has done so far: a result per turn it finished or failed, and, once
    Ctrl+C stopped it midway through a turn, that turn's result (``interrupted``: true)."""

    results: list[dict[str, Any]] = field(default_factory=list)
    stopped: dict[str, Any] | None = None
    parent: str = ""
    """The turn the next one continues (the last one made), once known."""


def cmd_play(args: argparse.Namespace) -> int:
    args.instruction = [*args.instructions, *args.instruction]
    if not args.instruction:
        raise StudioError("Give the turn's instruction: what the character does, and where.",
                          hint=f"kamishibai play {shell_path(args.path)} "
                               "'Qiqi waves at the bakery' (or --instruction TEXT; several make a turn each).")
    settings = parse_settings(args.setting)
    _check_instructions(args.instruction, args.path)
    run = _PlayRun()
    try:
        with open_project(args.path, wait=args.wait) as project:
            _play_turns(project, args, settings, run)
    except KeyboardInterrupt:  # what was made stays, and says so (--json: valid JSON, even with nothing made)
        if not run.results and run.stopped is None:  # stopped before its first turn began
            run.stopped = _stopped_turn(args, 0, None, None)
        if args.json:
            _show_played(args, [*run.results, *([run.stopped] if run.stopped else [])])
        elif run.results:
            _show_played(args, run.results)
        raise
    except BaseException:
        if run.results:
            _show_played(args, run.results)  # the turns made before it stay, and say so
        raise
    _show_played(args, run.results)
    made = sum(1 for result in run.results if result["job_status"] == "done")
    before = {0: "", 1: "; the turn made before it stays"}.get(made, f"; the {made} turns made before it stay")
    _raise_on_failure(run.results, again=_play_again_commands(args, run), asked=len(
        args.instruction), unchanged=f"Nothing was lost: the project is as it was before this turn{before}.")
    return 0


def _check_room(project: Project, args: argparse.Namespace, parent: str, index: int) -> None:
    """Refuse turn ``index`` (from 0) of a `play` before it is added when the project lacks the
    room to take it back: a failed turn is removed, and on a disk without room that removal
    failed too, leaving the turn without a take. The turns made before it stay, and the hint
    names the `play` that makes the rest from the last of them (the same command again would
    add those turns twice)."""
    from studio.storage.errors import DiskFullError
    from studio.storage.room import check_room_for_change

    total = len(args.instruction)
    made = f" (the {plural(index, 'turn')} made before it stay{'s' if index == 1 else ''})" if index else ""
    what = "add the new turn" if total == 1 else f"add turn {index + 1} of {total}{made}"
    try:
        check_room_for_change(project.path, what)
    except DiskFullError as error:
        if not index:
            raise
        rest = _play_again(args, parent, args.instruction[index:])
        raise DiskFullError(error.message, hint=f"{error.hint} To make the turns left: `{rest}`.") from None


def _play_again_commands(args: argparse.Namespace, run: _PlayRun) -> list[str]:
    """The commands that make what a failed `play` did not: the same `play` from the last turn
    made; when the failed turn could not be removed, a `reroll` of that turn, then a `play` of
    the instructions after it from there."""
    made = sum(1 for result in run.results if result["job_status"] == "done")
    stayed = next((r for r in run.results if r["job_status"] != "done" and r.get("not_removed")), None)
    if stayed is None:
        return [_play_again(args, run.parent, args.instruction[made:])]
    node = str(stayed["node"])
    reroll = shlex.join(["kamishibai", "reroll", printable(args.path), node])
    rest = args.instruction[made + 1:]
    return [reroll, *([_play_again(args, node, rest)] if rest else [])]


def _play_again(args: argparse.Namespace, parent: str, instructions: Sequence[str]) -> str:
    """The `play` command that makes ``instructions`` after ``parent``, as this one was to."""
    dash = ["--"] if any(text.startswith("-") for text in instructions) else []
    return shlex.join(["kamishibai", "play", printable(args.path), "--parent", parent, *dash,
                       *(printable(text) for text in instructions)])


def _play_turns(project: Project, args: argparse.Namespace, settings: dict[str, Any] | None, run: _PlayRun) -> None:
    """Generate ``args.instruction`` one after the other into ``run``, each continuing the
    one before, until the first that fails. A turn stopped midway (an error, Ctrl+C) is not
    kept, as a failed one is not; ``run.stopped`` describes it after Ctrl+C."""
    tree = project.tree
    # an empty --parent (a script's empty variable) is refused, not read as "the default parent"
    parent = resolve_node(tree, args.parent, args.path) if args.parent is not None else last_created_node(tree)
    service = _service(project, args)
    _refuse_a_parent_that_waits_for_ever(project, service, parent, args.path, command="play",
                                         made="the new turn", other="Or pick another turn with --parent.")
    _note_a_parent_without_take(project, service, parent, args.path)
    engine, settings = _continued_engine(service, tree, parent, args.engine, settings)
    _refuse_an_engine_that_cannot_run(service, engine)
    run.parent = parent
    current: int | None = None  # the instruction being generated, until its result is in
    unfinished: str | None = None  # its new turn, until its clip is made
    job_id: str | None = None
    try:
        for current, instruction in enumerate(args.instruction):
            job_id = unfinished = None
            _check_room(project, args, parent, current)
            node_id, job_id = service.generate(parent, instruction, engine=engine, seed=args.seed,
                                               settings=settings, priority=_top_priority(service))
            unfinished = node_id
            _run_now(service, [job_id], args.path, stop=False)
            result = _job_result(project, service, job_id)
            run.results.append(result)
            current = None
            if result["job_status"] != "done":
                _drop_failed_turn(project, result, node_id)
                break  # the turns after it would continue a turn that is not there
            result["kept"] = True
            parent, unfinished = node_id, None
            run.parent = parent
        service.stop(timeout=None)
    except BaseException as error:  # a refused instruction, or Ctrl+C: stop without waiting long
        service.stop(cancel_running=True, timeout=30)
        if unfinished is not None and current is not None:  # an interrupted turn is not kept, as a failed one is not
            note = _discard_new_turn(project, unfinished)
            print(f"kamishibai: the turn being generated was stopped.{note}", file=sys.stderr)
        if isinstance(error, KeyboardInterrupt) and current is not None:
            run.stopped = _stopped_turn(args, current, project, service.job(job_id) if job_id else None)
        raise


def _continued_engine(service: GenerationService, tree: StoryTree, parent: str, engine: str | None,
                     settings: dict[str, Any] | None) -> tuple[str | None, dict[str, Any] | None]:
    """The engine and settings a new turn under ``parent`` is made with: those given, else
    those of ``parent``'s current take, so that `play` continues a branch as it was made (it
    went on with the default engine at its default size: a mini story went on in sketch, a
    160x112 one at 720x480, and the export letterboxed the odd clips). The take's settings
    hold only for its own engine; ``--setting`` replaces only the names it gives, as for a
    re-roll. A take whose engine can't run here is not followed: the default engine is, with a note."""
    take = tree.selected_take(parent)
    if take is None or take.engine not in service.registry.names():
        return engine, settings
    if engine is None:
        unmet = service.unrunnable_engines([take.engine]).get(take.engine)
        if unmet:
            others = [name for name in service.registry.names()
                      if name not in (take.engine, service.default_engine)]
            runnable = [name for name in others if not service.unrunnable_engines([name]).get(name)]
            also = (f" ({', '.join(runnable)} also {'runs' if len(runnable) == 1 else 'run'} here: "
                    f"--engine {runnable[0]})" if runnable else "")
            print(f"kamishibai: note: the turn continued was made with the {printable(take.engine)} engine, which "
                  f"can't run here ({printable(unmet[0].message)}); the new turn is made with "
                  f"{service.default_engine}{also}. Give --engine NAME to choose another.", file=sys.stderr)
            return engine, settings
        engine = take.engine
    if engine == take.engine:
        used = _settings_of_take(service, take, given=settings is not None)
        if settings is None:
            settings = used
        elif used is not None:
            settings = service.registry.info(take.engine).settings.replacing(used, settings)
    return engine, settings


def _settings_of_take(service: GenerationService, take: Take, *, given: bool = False) -> dict[str, Any] | None:
    """``take``'s settings that differ from its engine's defaults; None (the defaults), with a
    note, when they can't be used any more (a value out of this version's range). ``given``:
    the note says that the ``--setting`` values given hold over those defaults."""
    try:
        return service.registry.info(take.engine).settings.from_values(take.settings, ignore_unknown=True).overrides()
    except StudioError as error:
        over = " and the --setting values given" if given else ""
        print(f"kamishibai: note: the settings of take {take.id} can't be used again ({printable(error.message)}); "
              f"the new turn is made with the {printable(take.engine)} engine's defaults{over}.", file=sys.stderr)
        return None


def _stopped_turn(args: argparse.Namespace, number: int, project: Project | None, job: Job | None) -> dict[str, Any]:
    """The result of instruction ``number``, which Ctrl+C (or SIGTERM) stopped, shaped as a failed turn's:
    its instruction, its job (when it had one) and ``kept`` (false unless its removal
    failed, then with its node), plus ``interrupted``: true."""
    from studio.cli import stopped_by  # the package imports this module to build its parser
    out: dict[str, Any] = {"job": job.id if job else None, "job_status": job.status.value if job else "not started",
                           "instruction": args.instruction[number], "kept": False, "interrupted": True,
                           "error": f"Stopped by {stopped_by()} before its clip was made."}
    if job is not None and project is not None and job.node_id in project.tree.nodes:
        out.update(node=job.node_id, kept=True)  # its removal failed: the turn is still there
    return out


def _note_a_parent_without_take(project: Project, service: GenerationService, parent: str, path: str, *,
                                made: str = "the new turn", other: str = ", or pick another with --parent") -> None:
    """Continuing a turn that has no finished take (a `play` killed midway, turns imported and
    not generated yet) works, but its own change of state is not there to build on: say so.
    Not when a job is queued or running for it: the new take waits for that one. An
    interrupted one (a `play` killed midway) runs only once queued again, so the note is said."""
    from studio.core.jobs import JobStatus

    tree = project.tree
    node = tree.nodes[parent]
    take = tree.selected_take(parent)
    if node.is_root or (take is not None and take.status is TakeStatus.DONE):
        return
    if any(job.node_id == parent and job.status in (JobStatus.QUEUED, JobStatus.RUNNING) for job in service.jobs()):
        return
    interrupted = any(job.node_id == parent and job.status is JobStatus.INTERRUPTED for job in service.jobs())
    how = (run_queue_command(service, path, "--requeue-interrupted") if interrupted  # its stopped job, again
           else f"kamishibai reroll {shell_path(path)} {parent}")
    print(f"kamishibai: note: the turn continued, {parent} ({printable(node.instruction.raw[:50])!r}), has no "
          f"finished take: {made} starts from the state before it. Generate it first to build on it "
          f"({how}){other}.", file=sys.stderr)


def _awaited_job(service: GenerationService, tree: StoryTree, parent: str) -> Job | None:
    """The job a new turn (or take) under ``parent`` waits for, as the worker chooses it: when
    ``parent`` has no finished take, its newest generate job queued or running; else None."""
    from studio.worker import JobKind, JobStatus

    if parent == tree.root_id or any(take.status is TakeStatus.DONE for take in tree.takes_of(parent)):
        return None
    active = [job for job in service.jobs() if job.kind is JobKind.GENERATE and job.node_id == parent
              and job.status in (JobStatus.QUEUED, JobStatus.RUNNING)]
    return max(active, key=lambda job: job.sequence, default=None)


def _refuse_a_parent_that_waits_for_ever(project: Project, service: GenerationService, parent: str, path: str, *,
                                         command: str, made: str, other: str = "") -> None:
    """Refuse, before anything is added, a `play` or `reroll` whose job would wait for a job
    that can't run: ``parent`` has no take, and its queued job waits (directly or through
    queued jobs) for an interrupted job. Run ahead of the queue, the new job waited for ever,
    silently, holding the project's writer lock (a `run-queue` killed, then a plain `play`)."""
    from studio.worker.queue import blocked_jobs

    awaited = _awaited_job(service, project.tree, parent)
    if awaited is None:
        return
    blocker = blocked_jobs({job.id: job for job in service.jobs()}).get(awaited.id)
    if blocker is None:
        return
    node = project.tree.nodes[parent]
    quoted = shell_path(path)
    raise StudioError(
        f"Turn {parent} ({printable(node.instruction.raw[:50])!r}), which {made} continues from, has no take yet, "
        f"and its job {awaited.id} waits for interrupted job {blocker.id}, which runs only once queued again: "
        f"{made} would wait for it for ever. Nothing was changed by this {command}.",
        hint=f"Run `{run_queue_command(service, path, '--requeue-interrupted')}` to make the interrupted job and "
             f"those that wait for it, then {command} again; or `kamishibai queue {quoted} --cancel-interrupted` "
             f"to cancel them.{' ' + other if other else ''}")


def _show_played(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    if args.json:
        print_json(results[0] if len(args.instruction) == 1 else results)
    else:
        for result in results:
            _print_result(result)


def cmd_reroll(args: argparse.Namespace) -> int:
    settings = parse_settings(args.setting)
    made: list[dict[str, Any]] = []  # the results, once they are known
    shown: list[bool] = []  # whether they were printed
    notes: list[str] = []  # new takes kept beside the chosen one (said after the results)
    try:
        with open_project(args.path, wait=args.wait) as project:
            _reroll(project, args, settings, made, shown, notes)
            tree = project.tree
    except KeyboardInterrupt:  # --json: valid JSON even when stopped before a job ran (an empty list)
        if args.json and not shown:
            _show_rerolled(args, made)
        raise
    _show_rerolled(args, made)
    for note in notes:
        print(note, file=sys.stderr)
    left = [result["node"] for result in made if result["job_status"] != "done" and result.get("kept")]
    turns = "turns keep the takes they" if len(left) > 1 else "turn keeps the takes it"
    _raise_on_failure(made, again=reroll_commands(tree, args.path, left) if left else [],
                      unchanged=f"Nothing was lost: the {turns} had.")
    return 0


def _reroll(project: Project, args: argparse.Namespace, settings: dict[str, Any] | None,
            made: list[dict[str, Any]], shown: list[bool], notes: list[str]) -> None:
    """Re-roll ``args.node`` (and with ``--branch`` every turn below it) into ``made``. A
    Ctrl+C while they run prints the turns re-rolled so far (``shown`` says it did)."""
    node_id = resolve_node(project.tree, args.node, args.path)
    service = _service(project, args)
    parent = project.tree.nodes[node_id].parent_id
    if parent is not None:  # the story's start is refused below, with its own message
        _refuse_a_parent_that_waits_for_ever(project, service, parent, args.path, command="reroll",
                                             made="the new take")
        _note_a_parent_without_take(project, service, parent, args.path, made="its new take", other="")
    if args.engine is None:
        branch = [node_id, *(node.id for node in project.tree.descendants(node_id))] if args.branch else [node_id]
        _refuse_a_take_engine_that_cannot_run(service, project.tree, branch)
    priority = _top_priority(service)
    if args.branch:
        job_ids = service.reroll_branch(node_id, engine=args.engine, seed=args.seed, settings=settings,
                                        priority=priority)
        _say_replaced(service, job_ids)
    else:  # the turn's interrupted job, left to run again, would add one more take (and hold run-queue)
        engine, settings = _engine_of_interrupted(service, project.tree, node_id, args.engine, settings)
        job_ids = [service.reroll(node_id, engine=engine, seed=args.seed, settings=settings,
                                  priority=priority, replace_interrupted=True)]
        _say_replaced(service, job_ids, what="interrupted")
    if not job_ids:  # --branch from the story's start with no turn under it: nothing checked them
        check_engine_choice(service, project.tree, [], args.engine, settings)
    try:
        _run_now(service, job_ids, args.path)
    except KeyboardInterrupt:  # the takes made before it stay: say which, as `play` does
        with ctrl_c_deferred():  # a second Ctrl+C must not cut the JSON or the summary short
            made[:] = _rerolled(project, service, job_ids)
            _mark_stopped(service, job_ids, made)
            _show_rerolled(args, made)
            shown.append(True)
            _say_reroll_stopped(args, made, project.tree)
        raise
    made[:] = _rerolled(project, service, job_ids)
    notes.extend(_kept_beside(project, made, args.path))


def _engine_of_interrupted(service: GenerationService, tree: StoryTree, node_id: str, engine: str | None,
                           settings: dict[str, Any] | None) -> tuple[str | None, dict[str, Any] | None]:
    """The engine and settings of a re-roll that replaces the turn's interrupted job: without
    --engine, a turn with no finished take is re-rolled with that job's engine and settings
    (``settings``, from --setting, replacing only the names they give), as it was to be made,
    not with the default engine at its default size; said on stderr. Else as given."""
    from studio.worker import JobKind, JobStatus

    current = tree.selected_take(node_id)
    if engine is not None or (current is not None and current.status is TakeStatus.DONE):
        return engine, settings
    interrupted = [job for job in service.jobs() if job.kind is JobKind.GENERATE and job.node_id == node_id
                   and job.status is JobStatus.INTERRUPTED and job.engine in service.registry.names()]
    job = max(interrupted, key=lambda job: job.sequence, default=None)
    if job is None:
        return engine, settings
    _refuse_an_unchosen_engine(service, job.engine,
                               f"Turn {node_id}'s interrupted job {job.id} was to make its take with it, and a "
                               "re-roll without --engine uses that job's engine.")
    schema = service.registry.info(job.engine).settings
    used = schema.replacing(job.settings, settings or {})
    schema.from_values(used)  # a wrong --setting is refused before the note
    shown = ", ".join(f"{key}={json.dumps(value)}" for key, value in sorted(used.items())) or "its defaults"
    print(f"kamishibai: note: the re-roll of turn {node_id} is made with the engine and settings of its interrupted "
          f"job {job.id}: {printable(job.engine)} ({printable(shown)}). Give --engine NAME to choose another.",
          file=sys.stderr)
    return job.engine, used


def _kept_beside(project: Project, results: list[dict[str, Any]], path: str) -> list[str]:
    """A new take of a turn that later turns follow is kept beside the chosen one: say so, or
    the printed state (the new take's) reads as the turn's while `tree` and `export` go on
    with the chosen take."""
    tree = project.tree
    notes = []
    for result in results:
        node_id, take_id = result.get("node"), result.get("take")
        if result.get("job_status") != "done" or node_id not in tree.nodes or not take_id:
            continue
        chosen = tree.selected_take(node_id)
        if chosen is not None and chosen.id != take_id:
            notes.append(f"kamishibai: note: take {take_id} of turn {node_id} is kept beside the chosen take "
                         f"{chosen.id}, which the turns after it follow: `tree`, `export` and `play` go on with "
                         f"the chosen take. `kamishibai use {shell_path(path)} {node_id} {take_id}` "
                         "chooses the new one (the turns after it are then out of date), or `reroll --branch` makes "
                         "a new take of the turn and of every turn after it.")
    return notes


def _say_replaced(service: GenerationService, job_ids: Sequence[str], what: str = "queued") -> None:
    """Name the jobs that were waiting to make takes of the re-rolled turns (a Fill not run yet,
    a job a crash interrupted): the re-roll cancelled them, and `queue` would otherwise be the
    only place to learn it. ``what``: the word for those jobs."""
    replaced = [job for job_id in job_ids for job in service.replaced_by(job_id)]
    if replaced:
        names = first_few([printable(job.id) for job in replaced], limit=5)
        turns = "these turns" if len(job_ids) > 1 else "this turn"
        print(f"kamishibai: note: cancelled {len(replaced)} {what} job{'s' if len(replaced) != 1 else ''} of "
              f"{turns} ({names}): the re-roll makes {'their takes' if len(job_ids) > 1 else 'its take'} instead.",
              file=sys.stderr)


def _refuse_an_engine_that_cannot_run(service: GenerationService, engine: str | None) -> None:
    """Refuse ``engine`` (None: the default) when it can't run here, before a turn is added, with
    the doctor command that lists every reason as the user gave --device and --checkpoints (the
    worker's refusal can't know the folder given)."""
    from studio.engines.base import EngineError
    from studio.worker.operations import cannot_run

    name = engine or service.default_engine
    if name not in service.registry.names():
        return  # refused by the worker, with the names of the known engines
    unmet = service.unrunnable_engines([name]).get(name)
    if unmet:
        message, hint = cannot_run(name, unmet, _doctor_for(service))
        raise EngineError(message, hint=hint)


def _refuse_a_take_engine_that_cannot_run(service: GenerationService, tree: StoryTree,
                                          node_ids: Sequence[str]) -> None:
    """Without --engine a turn is re-rolled with its current take's engine: when that one can't
    run here (a project made on a machine with its weights), say that it is the take's engine and
    how to choose another."""
    for node_id in node_ids:
        take = tree.selected_take(node_id)
        if take is None or take.engine not in service.registry.names():
            continue
        _refuse_an_unchosen_engine(service, take.engine,
                                   f"Turn {node_id}'s current take was made with it, and a re-roll without "
                                   "--engine uses the take's engine again.")


def _refuse_an_unchosen_engine(service: GenerationService, engine: str, why: str) -> None:
    """Refuse a re-roll whose engine, which the user did not name, can't run here: say why
    that engine was picked (``why``, one sentence naming the turn) and how to choose another.
    Without ``why`` the bare "The animegamer engine can't run here" named an engine the user
    never chose, and asked only for its weights."""
    from studio.engines.base import EngineError
    from studio.worker.operations import cannot_run

    unmet = service.unrunnable_engines([engine]).get(engine)
    if unmet:
        message, hint = cannot_run(engine, unmet, _doctor_for(service))
        raise EngineError(f"{message} {why}",
                          hint=f"Give --engine NAME to re-roll with another engine (e.g. --engine "
                          f"{service.default_engine}; `kamishibai doctor` lists those that run here). Or: {hint}")


def _rerolled(project: Project, service: GenerationService, job_ids: list[str]) -> list[dict[str, Any]]:
    results = [_job_result(project, service, job_id) for job_id in job_ids]
    for result in results:  # a re-roll adds a take and never removes its turn (a failed take stays listed)
        result["kept"] = result["node"] in project.tree.nodes
    return results


def _mark_stopped(service: GenerationService, job_ids: list[str], results: list[dict[str, Any]]) -> None:
    """The turn whose job Ctrl+C (or SIGTERM) stopped midway says so, as `play`'s stopped turn
    does: ``interrupted``: true and an error naming the signal (not a bare "Cancelled.", which
    reads as if someone cancelled it). Jobs that had not started keep their own reason."""
    from studio.cli import stopped_by  # the package imports this module to build its parser
    from studio.core.jobs import JobStatus

    for job_id, result in zip(job_ids, results, strict=True):
        job = service.job(job_id)
        if job is not None and job.status is JobStatus.CANCELLED and job.started_at:
            result.update(interrupted=True, error=f"Stopped by {stopped_by()} before its clip was made.")


def _show_rerolled(args: argparse.Namespace, results: list[dict[str, Any]]) -> None:
    if args.json:
        print_json(results)  # a list, one result per turn re-rolled, with or without --branch
    else:
        for result in results:
            _print_result(result)


def _say_reroll_stopped(args: argparse.Namespace, results: list[dict[str, Any]], tree: StoryTree) -> None:
    """After Ctrl+C stopped a re-roll: how many new takes it made, and the commands that go on."""
    done = sum(1 for result in results if result["job_status"] == "done")
    left = [result["node"] for result in results if result["job_status"] != "done"]
    if not left:
        return
    commands = reroll_commands(tree, args.path, left)
    shown = first_few([f"`{command}`" for command in commands], separator=", then ", limit=4)
    print(f"kamishibai: stopped: {done} of {len(results)} turn(s) re-rolled; the other {len(left)} keep the takes "
          f"they had (a take being made is not kept).\n  hint: {shown} go{'es' if len(commands) == 1 else ''} on "
          "from there.", file=sys.stderr)


def reroll_commands(tree: StoryTree, path: str, left: Sequence[str]) -> list[str]:
    """The `reroll` commands that make new takes of the turns ``left`` (parents first), and of no
    other: one per turn of them whose parent is not among them, with ``--branch`` when turns
    below it are. The hint named only the first turn left, with --branch: a re-roll of a turn
    with two branches below it, stopped in the first, went on with that branch only."""
    waiting = set(left)
    tops = [node_id for node_id in left if tree.nodes[node_id].parent_id not in waiting]
    quoted = shell_path(path)
    return [f"kamishibai reroll {quoted} {top}"
            + (" --branch" if any(node.id in waiting for node in tree.descendants(top)) else "")
            for top in tops]


def _job_dict(job: Job, tree: StoryTree, blocker: Job | None = None, place: JobPlace | None = None
              ) -> dict[str, Any]:
    """A job as `queue --json` (and `fill --json`) lists it. ``place``: where it runs, or
    last ran, and how far a running one has got, as stored (``JobStore.places``)."""
    from studio.worker.jobs import settings_problem

    node = tree.nodes.get(job.node_id or "")
    unreadable = settings_problem(job)  # a row another program wrote: shown, not a crash
    out = {
        "id": job.id, "kind": job.kind.value, "status": "blocked" if blocker is not None else job.status.value,
        "priority": job.priority, "node": job.node_id, "instruction": node.instruction.raw if node else "",
        "engine": job.engine, "seed": job.seed, "settings": None if unreadable else dict(job.settings),
        "label": job.label, "depends_on": job.depends_on, "blocked_by": blocker.id if blocker is not None else None,
        "take": job.take_id, "created_at": job.created_at, "started_at": job.started_at,
        "finished_at": job.finished_at, "error": job.error, "hint": job.hint,
        # added, not in place of a key (a script reading `status` reads what it read before): a
        # read-only `queue` can't cancel the waiting jobs of a deleted turn, and says so
        "turn_deleted": job.node_id is not None and job.node_id not in tree.nodes,
        # where a running job runs (a device, or the render farm's node and actor), or where a
        # finished one ran; null for one that never ran. progress: 0..1 while running, if known
        "where": place.runner if place is not None and place.runner else None,
        "progress": round(place.progress, 4) if place is not None and place.progress is not None
        and job.status.value == "running" else None,
    }
    if unreadable:
        out["settings_unreadable"] = unreadable
    return out


def _read_queue(project: Project):  # type: ignore[no-untyped-def]
    """The queue as a worker would see it, read without changing anything: a job left
    running by a process that is gone shows as the next writer will settle it."""
    from studio.storage.job_store import JobStore
    from studio.worker.jobs import display_order

    store = JobStore(project.database)
    abandoned = store.abandoned()
    jobs = [_as_recovered(job, project.tree, abandoned[job.id]) if job.id in abandoned else job
            for job in store.load()]
    return display_order(jobs)


def _as_recovered(job: Job, tree: StoryTree, why: str) -> Job:
    """A job left running by a process that is gone, as the next writer will settle it
    (``JobStore.recover``): one whose take was committed before the process died is done
    (or failed, with its take's error); any other is interrupted, ``why`` its error (which
    program stopped). Shown as interrupted, the first would block the jobs after it and ask
    for a --requeue-interrupted it doesn't need."""
    from studio.worker import JobStatus

    take = tree.takes.get(job.take_id) if job.take_id else None
    if take is None:
        return replace(job, status=JobStatus.INTERRUPTED, error=why)
    if take.status is TakeStatus.DONE:
        return replace(job, status=JobStatus.DONE, error="")
    return replace(job, status=JobStatus.FAILED, error=take.error, hint=take.hint)


def cmd_queue(args: argparse.Namespace) -> int:
    from studio.storage.job_store import JobStore
    from studio.worker.queue import blocked_jobs

    if args.cancel or args.cancel_interrupted:
        return _cancel_jobs(args)
    with open_for_reading(args.path) as project:
        jobs = _read_queue(project)
        places = JobStore(project.database).places()
        blocked = blocked_jobs({job.id: job for job in jobs})  # one pass: a long branch's chain is walked once
        listed = [_job_dict(job, project.tree, blocked.get(job.id), places.get(job.id))
                  for job in jobs if args.all or not job.finished]
    if args.json:
        print_json(listed)
        return 0
    if not listed:
        print("the queue is empty")
        return 0
    for line in _queue_table(listed):
        print(line)
    return 0


def _cancel_jobs(args: argparse.Namespace) -> int:
    """`queue --cancel JOB... / --cancel-interrupted`: cancel those jobs with the operation the
    studio's queue uses (:meth:`GenerationService.cancel`), after checking every one named, so
    that a wrong id cancels nothing. Without it, an interrupted job nobody wants kept
    `run-queue` failing for good, and only --requeue-interrupted (one more take) got rid of it."""
    from studio.composition import DEFAULT_ENGINE, default_registry
    from studio.worker import GenerationService, JobStatus

    with open_project(args.path, wait=args.wait) as project:
        service = GenerationService(project, default_registry(), default_engine=DEFAULT_ENGINE)
        try:
            _report_settled_at_start(service)  # as every writer opening the queue does
            targets = _jobs_to_cancel(service, args)
            before = {job.id: job.status for job in service.jobs(include_finished=True)}
            for job_id in targets:
                if service.job(job_id).status in (JobStatus.QUEUED, JobStatus.INTERRUPTED):  # not cascaded yet
                    service.cancel(job_id)
            ended = [job for job in service.jobs(include_finished=True)
                     if job.status is JobStatus.CANCELLED and before.get(job.id) is not JobStatus.CANCELLED]
        finally:
            service.stop()
        if args.json:
            print_json([_job_dict(job, project.tree) for job in ended])
        else:
            _say_cancelled(project.tree, ended, targets, args.path)
    return 0


def _jobs_to_cancel(service: GenerationService, args: argparse.Namespace) -> list[str]:
    """The ids of the jobs `queue --cancel` / `--cancel-interrupted` cancel, each named one
    checked first (known, unique, still waiting), in the order given."""
    from studio.worker import JobStatus

    jobs = service.jobs(include_finished=True)
    quoted = shell_path(args.path)
    chosen = [_job_named(jobs, ref, quoted) for ref in args.cancel]
    for job in chosen:
        if job.status is JobStatus.RUNNING:
            raise StudioError(f"Job {job.id} is running in another process (the studio, or a run-queue or play "
                              "still going); nothing was cancelled.",
                              hint="Stop it there (Cancel in the studio's queue, Ctrl+C on the command line), or "
                                   "let it finish.")
        if job.status not in (JobStatus.QUEUED, JobStatus.INTERRUPTED):
            raise StudioError(f"Job {job.id} is {job.status.value} already: only queued or interrupted jobs can be "
                              "cancelled; nothing was cancelled.",
                              hint=f"`kamishibai queue {quoted}` lists the jobs still waiting.")
    if args.cancel_interrupted:
        chosen.extend(job for job in jobs if job.status is JobStatus.INTERRUPTED)
    return list(dict.fromkeys(job.id for job in chosen))


def _job_named(jobs: Sequence[Job], ref: str, quoted: str) -> Job:
    """The job ``ref`` names: its id, or a unique prefix of it (spaces around it ignored)."""
    wanted = ref.strip().lower()
    exact = [job for job in jobs if job.id.lower() == wanted]
    found = exact or ([job for job in jobs if job.id.lower().startswith(wanted)] if wanted else [])
    if len(found) == 1:
        return found[0]
    if not found:
        raise StudioError(f"No job {printable(ref)!r} in the queue of {printable(quoted)}; nothing was cancelled.",
                          hint=f"`kamishibai queue {quoted} --all` lists the jobs with their ids.")
    raise StudioError(f"{printable(ref)!r} is the start of several jobs' ids ({first_few([j.id for j in found])}); "
                      "nothing was cancelled.", hint="Give more of the id.")


def _say_cancelled(tree: StoryTree, ended: Sequence[Job], targets: Sequence[str], path: str) -> None:
    """`queue --cancel`'s lines: each job cancelled, with its turn, then those cancelled
    because they waited for one of them."""
    if not ended:
        print("no interrupted job to cancel" if not targets else "nothing was cancelled")
        return
    asked = set(targets)
    for job in ended:
        node = tree.nodes.get(job.node_id or "")
        turn = f" (turn {job.node_id}: {_cut(node.instruction.raw)!r})" if node is not None else ""
        why = "" if job.id in asked else ", which waited for a job cancelled"
        print(printable(f"cancelled job {job.id}{turn}{why}"))
    bare = [job.node_id for job in ended if job.node_id in tree.nodes
            and not any(take.status is TakeStatus.DONE for take in tree.takes_of(job.node_id or ""))]
    if bare:
        print(f"{plural(len(set(bare)), 'turn')} of these jobs {'has' if len(set(bare)) == 1 else 'have'} no take; "
              f"`kamishibai fill {shell_path(path)}` queues the turns without a take again")


_QUEUE_COLUMNS = (("job", "id", "<"), ("status", "status", "<"), ("prio", "priority", ">"), ("engine", "engine", "<"),
                  ("seed", "seed", ">"), ("node", "node", "<"))
"""`queue`'s columns before the last (the note): header, key of the job's dict, alignment."""


_WHERE_COLUMN = ("where", "where_shown", "<")
"""`queue`'s column, after the node, that says where each running job runs and how far it has
got ("cuda:1 · 42%"); shown only while a listed job runs, so that the lines of a queue at
rest read as they always did."""


def _where_shown(job: dict[str, Any]) -> str:
    """The `where` cell of a job: its device or farm node and actor, with its progress when
    known; "" for a job that does not run."""
    if job["status"] != "running":
        return ""
    progress = f"{job['progress'] * 100:.0f}%" if job.get("progress") is not None else ""
    return " · ".join(part for part in (job.get("where") or "", progress) if part)


def _queue_table(listed: Sequence[dict[str, Any]]) -> list[str]:
    """`queue`'s lines: every column as wide as its widest cell, so that an engine name longer
    than the header's 8 characters (animegamer) or a priority of five digits no longer
    shifts the rest of its line out of the columns."""
    running = any(job["status"] == "running" for job in listed)
    columns = (*_QUEUE_COLUMNS, _WHERE_COLUMN) if running else _QUEUE_COLUMNS
    rows = [{**job, "where_shown": _where_shown(job)} for job in listed]
    cells = [[printable(str(job[key] if job[key] not in (None, "") else "-")) for _, key, _ in columns]
             for job in rows]
    widths = [max([len(header), *(len(row[i]) for row in cells)]) for i, (header, _, _) in enumerate(columns)]
    aligns = [align for _, _, align in columns]

    def line(values: Sequence[str], last: str) -> str:
        padded = (f"{value:{align}{width}}" for value, align, width in zip(values, aligns, widths, strict=True))
        return "  ".join([*padded, last])

    lines = [line([header for header, _, _ in columns], "instruction or error")]
    lines.extend(line(row, printable(_queue_note(job))) for row, job in zip(cells, listed, strict=True))
    return lines


TURN_DELETED_NOTE = "its turn was deleted: never runs; cancelled when the project is next opened for writing"
"""`queue`'s note on a queued or interrupted job whose turn is gone: read-only, `queue`
can't settle it, and the next writer (the studio, run-queue, fill...) cancels it when it
opens the queue (``JobQueue``'s ``_cancel_of_deleted_turns``), and a job left waiting
for it then goes as after any cancelled job."""

_WAITING = ("queued", "blocked", "interrupted")
"""The statuses `queue` shows for the jobs still to run (``queue.WAITING``, with blocked)."""


DELETED_TURN_MARK = "(deleted turn)"
"""Begins `queue --all`'s note on a finished job whose turn is gone (as the window's queue
names such a job "Generate · (deleted turn)"). QA: a `play` whose turn failed and was not
kept was listed with its node id and error as if that turn were still in the story."""


def _queue_note(job: dict[str, Any]) -> str:
    """The last column of `queue`: a job whose turn was deleted says so (a waiting one whole,
    a finished one before its error); a blocked job's blocker and the way on, whole (its
    point is the id and the command); otherwise the error or the instruction, cut to 60
    characters."""
    if job["turn_deleted"] and job["status"] in _WAITING:
        return TURN_DELETED_NOTE
    note = _job_note(job)
    if not job["turn_deleted"]:
        return note
    from studio.worker.job_queue import DELETED_AFTER_INTERRUPT
    from studio.worker.runner import NODE_DELETED_BEFORE_MESSAGE

    if job["error"] in (NODE_DELETED_BEFORE_MESSAGE, DELETED_AFTER_INTERRUPT):  # says so already
        return note
    return f"{DELETED_TURN_MARK} {note}".rstrip()


def _job_note(job: dict[str, Any]) -> str:
    """:func:`_queue_note` of a job whose turn is there, or one that is gone and has finished."""
    if job["status"] == "blocked":
        return f"waits for interrupted job {job['blocked_by']} (run-queue --requeue-interrupted)"
    if job["status"] in ("failed", "cancelled", "interrupted"):
        return _cut(str(job["error"] or ""))
    text = str(job["instruction"])
    if job.get("settings_unreadable"):
        text = f"[settings unreadable] {text}"
    return _cut(text)


def _cut(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters, ending in … when it was cut (as `tree` marks it),
    so that a cut error or instruction is not read as the whole of it."""
    return text if len(text) <= limit else text[:limit] + "…"


def _waiting_messages(service: GenerationService, path: str) -> list[str]:
    """Why the jobs still queued did not run, one message per cause ([] if none is left):
    they wait for interrupted jobs, their engine can't run here (they stay queued for a
    machine that can run it), or they wait for such a job."""
    from studio.worker import JobStatus
    from studio.worker.operations import cannot_run
    from studio.worker.queue import blocked_jobs

    jobs = {job.id: job for job in service.jobs()}
    queued = [job for job in jobs.values() if job.status is JobStatus.QUEUED]
    if not queued:
        return []
    blocked = blocked_jobs(jobs)
    unrunnable = service.unrunnable_engines()
    blockers: dict[str, list[str]] = {}
    by_engine: dict[str, tuple[list[str], list[str]]] = {}  # engine: (its jobs, jobs waiting for them)
    others: list[str] = []
    for job in queued:
        blocker = blocked.get(job.id)
        if blocker is not None:
            blockers.setdefault(blocker.id, []).append(job.id)
            continue
        if job.engine in unrunnable:
            by_engine.setdefault(job.engine, ([], []))[0].append(job.id)
            continue
        above = _unrunnable_above(job, jobs, unrunnable)
        if above is not None:
            by_engine.setdefault(above.engine, ([], []))[1].append(job.id)
        else:
            others.append(job.id)
    messages = []
    quoted = shell_path(path)  # pasted back into a shell: a path with spaces stays one argument
    if blockers:
        count = sum(len(v) for v in blockers.values())
        messages.append(f"{count} job(s) wait for interrupted job(s) {', '.join(sorted(blockers))} and did not "
                        f"run.\n  hint: run `{run_queue_command(service, path, '--requeue-interrupted')}` to run "
                        f"them all, or `kamishibai queue {quoted} --cancel-interrupted` to cancel the interrupted "
                        "job(s) and, with them, the jobs that wait for them.")
    for engine, (own, after) in by_engine.items():
        message, hint = cannot_run(engine, unrunnable[engine], _doctor_for(service))
        waiting = f"; {len(after)} more wait for them ({first_few(after)})" if after else ""
        count = len(own) + len(after)
        messages.append(f"{count} job(s) wait: {message}\n  job(s) {first_few(own)}{waiting}; they stay queued.\n"
                        f"  hint: {hint} Or run `kamishibai run-queue {quoted}` on a machine that can run the "
                        f"{engine} engine (`kamishibai doctor` says), or cancel them in the studio.")
    if others:
        messages.append(f"{len(others)} job(s) are still queued and did not run: {first_few(others)}."
                        + (_held_elsewhere(jobs.values(), path) or _farm_gone_hint(service, path)))
    return messages


def _held_elsewhere(jobs: Iterable[Job], path: str) -> str:
    """Why queued jobs did not run while jobs of this project still run in another process
    ("" when none does): the jobs after them wait for them, and that process runs them.
    QA: run-queue beside a `fill --run` ended saying only that jobs were still queued."""
    from studio.worker import JobStatus

    running = [job.id for job in jobs if job.status is JobStatus.RUNNING]  # this run's own jobs have ended
    if not running:
        return ""
    return (f"\n  job(s) {first_few(running)} are running in another process (the studio, or a run-queue, "
            "fill --run or play still going), which runs the jobs that wait for them.\n"
            f"  hint: let it finish (`kamishibai queue {shell_path(path)}` shows how far it got), or stop it there "
            "and run this again.")


def _farm_gone_hint(service: GenerationService, path: str) -> str:
    """Why queued jobs did not run when the render farm went away under the run (or could not
    be joined), with what goes on: "" on no cluster, or one that is still there. QA: the run
    ended saying only that jobs were still queued, the loss told only in the warnings above."""
    from studio.worker.cluster.status import ConnectionState

    status = service.cluster_status()
    if status is not None and status.state is ConnectionState.CONNECTED:
        return _no_actor_started_hint(service, status, path)
    if status is None or status.state not in (ConnectionState.LOST, ConnectionState.FAILED):
        return ""
    gone = "was lost" if status.state is ConnectionState.LOST else "could not be joined"
    return (f" The render farm ({printable(status.address)}) {gone}; they stay queued.\n  hint: start its head "
            f"again (`ray start --head` on it), then run `{_on_the_farm(service, path, status.address)}`, "
            "or run them here without --cluster.")


def _on_the_farm(service: GenerationService, path: str, address: str) -> str:
    """The `run-queue` command that runs the queue on the render farm this run used (the
    farm at ``address`` when the run's options are not known)."""
    if service in _RUN_ON:
        return run_queue_command(service, path)
    return run_queue_command(service, path, "--cluster", shlex.quote(printable(address)))


def _no_actor_started_hint(service: GenerationService, status: ClusterStatus, path: str) -> str:
    """Why queued jobs did not run on a joined render farm none of whose engine actors could
    start (the studio or its engines missing on their nodes): each actor's reason, and what
    goes on. "" while an actor runs (the jobs wait for something else, said otherwise)."""
    from studio.worker.cluster.ray_host import CANNOT_START_HINT

    if not status.actors or not all(actor.error for actor in status.actors):
        return ""
    reasons = "\n".join(f"  {printable(actor.error)}" for actor in status.actors)
    return (f" No engine actor of the render farm ({printable(status.address)}) could start; they stay queued:\n"
            f"{reasons}\n  hint: {CANNOT_START_HINT} Then run `{_on_the_farm(service, path, status.address)}`, "
            "or run them here without --cluster.")


def say_what_is_left(service: GenerationService, path: str, *, done: int | None = None) -> None:
    """After Ctrl+C stopped a run of the queue: what it finished, which jobs it interrupted
    (their takes are not kept) and stay queued, and the command that goes on (on stderr)."""
    from studio.worker import JobStatus

    left = service.jobs()
    interrupted = [job.id for job in left if job.status is JobStatus.INTERRUPTED]
    queued = [job.id for job in left if job.status is JobStatus.QUEUED]
    finished = f"{done} done; " if done is not None else ""
    if not interrupted and not queued:
        return
    parts = []
    if interrupted:
        parts.append(f"job(s) {first_few(interrupted)} interrupted (no take kept)")
    if queued:
        parts.append(f"{len(queued)} job(s) still queued")
    go_on = run_queue_command(service, path, *(["--requeue-interrupted"] if interrupted else []))
    print(f"kamishibai: stopped: {finished}{' and '.join(parts)}.\n  hint: `{go_on}` goes on from there.",
          file=sys.stderr)


def _unrunnable_above(job: Job, jobs: dict[str, Job], unrunnable: dict[str, Any]) -> Job | None:
    """The queued job that ``job`` waits for (directly or through queued jobs) whose engine
    can't run here, if any."""
    from studio.worker import JobStatus

    seen = {job.id}
    current = job
    while current.depends_on and current.depends_on not in seen:
        parent = jobs.get(current.depends_on)
        if parent is None or parent.status is not JobStatus.QUEUED:
            return None
        if parent.engine in unrunnable:
            return parent
        seen.add(parent.id)
        current = parent
    return None


def _report_settled_at_start(service: GenerationService) -> None:
    """Say (on stderr) which jobs the service failed when it opened the queue, because they
    could never start, which it cancelled with them, and which it cancelled because their
    turn was deleted since they were queued (as the window says; QA: run-queue said nothing)."""
    for reason, job_ids in _deleted_turn_jobs(service).items():
        print(f"kamishibai: job(s) {first_few(job_ids)} cancelled: {printable(reason)}", file=sys.stderr)
    failed = service.failed_at_start()
    for job in failed:
        print(f"kamishibai: job {job.id} (node {job.node_id}) failed: {printable(job.error)}", file=sys.stderr)
        if job.hint:
            print(f"  hint: {printable(job.hint)}", file=sys.stderr)
    cancelled = service.cancelled_at_start()
    if cancelled:
        print(f"kamishibai: {len(cancelled)} job(s) waiting for a failed or cancelled job were cancelled: "
              f"{first_few([job.id for job in cancelled])}.", file=sys.stderr)


def _deleted_turn_jobs(service: GenerationService) -> dict[str, list[str]]:
    """The jobs cancelled at open because their turn was deleted, by why (a queued job and an
    interrupted one have each their message)."""
    by_reason: dict[str, list[str]] = {}
    for job in service.deleted_turns_at_start():
        by_reason.setdefault(job.error.strip() or "Its turn was deleted.", []).append(job.id)
    return by_reason


def fill_branches(service: GenerationService, tree: StoryTree, leaf_ids: Sequence[str], engine: str | None = None,
                  settings: dict[str, Any] | None = None) -> list[str]:
    """Queue takes for the turns without one on the branches to ``leaf_ids`` (parents first)."""
    job_ids: list[str] = []
    for leaf_id in leaf_ids:
        job_ids.extend(service.fill(leaf_id, engine=engine, settings=settings))
    return job_ids


def cmd_fill(args: argparse.Namespace) -> int:
    if args.cluster and not args.run:  # it said "engines run on a Ray instance" and ran none
        raise StudioError("--cluster needs --run: fill without --run only queues the takes.",
                          hint="Add --run, or generate them later: kamishibai run-queue "
                               f"{shell_path(args.path)} --cluster {shlex.quote(printable(args.cluster))}.")
    settings = parse_settings(args.setting)
    with open_project(args.path, wait=args.wait) as project:
        tree = project.tree
        # an empty --leaf is refused: read as "no --leaf", it would queue every branch
        leaves = ([resolve_node(tree, args.leaf, args.path)] if args.leaf is not None
                  else [n.id for n in tree.leaves_under(tree.root_id)])
        service = _fill_service(project, args)
        # a turn whose job was interrupted (a `fill --run` stopped) gets that job again, not a
        # second one beside it: the turns below wait for the interrupted job, and stayed waiting
        on_branches = {node.id for leaf in leaves for node in tree.path_to(leaf)[1:]}
        again = service.requeue_interrupted(service.interrupted_without_take(on_branches))
        if again and not args.json:
            print(f"queued again {plural(len(again), 'interrupted job')} (the turns after them wait for them)")
        job_ids = again + fill_branches(service, tree, [leaf for leaf in leaves if leaf != tree.root_id],
                                        args.engine, settings)
        if not job_ids:  # a typo is refused as it is when there is work, not passed with "nothing to queue"
            turns_of = dict.fromkeys(node.id for leaf in leaves for node in tree.path_to(leaf)[1:])
            check_engine_choice(service, tree, list(turns_of), args.engine, settings)
            waiting = _queued_jobs_of(service, turns_of)
            if not args.json:
                print(_nothing_queued(waiting, run=args.run, path=args.path, empty=not turns_of,
                                      start_only=len(tree.nodes) > 1))
            if args.run:  # `fill` then `fill --run`: the turns queued by the first are generated now
                job_ids = waiting
        elif not args.json and len(job_ids) > len(again):
            print(f"queued {plural(len(job_ids) - len(again), 'turn')} without a take")
        if not args.run or not job_ids:
            _show_filled(args, project, service, job_ids)
            return 0
        try:
            code = run_until_idle(project, service, args.path, quiet=args.quiet)
        finally:  # Ctrl+C included: the jobs as they ended (done, failed, interrupted, still queued)
            _show_filled(args, project, service, job_ids)
        return code


def _fill_service(project: Project, args: argparse.Namespace) -> GenerationService:
    """The service `fill` queues with, joining the render farm first with ``--cluster``. A
    farm that can't be joined stops `fill` before it queued anything: the join's hint said
    "Queued jobs stay queued.", of jobs this command never queued, so it says that instead,
    with the commands that go on."""
    from studio.worker.cluster.spec import ClusterJoinError

    try:
        return _service(project, args)
    except ClusterJoinError as error:
        quoted = shell_path(args.path)
        before = _queued_count(project)
        earlier = (f"; the {plural(before, 'job')} queued before it stay{'s' if before == 1 else ''} queued"
                   if before else " (the project is as it was)")
        raise StudioError(error.message,
                          hint=f"{error.advice} This fill queued nothing{earlier}. Run it again once the cluster "
                               f"answers, or run `kamishibai fill {quoted} --run` to generate the turns without a "
                               f"take on this machine (`kamishibai fill {quoted}` only queues them, for a later "
                               f"`kamishibai run-queue {quoted}{_cluster_arguments(args)}`).") from None


def _queued_count(project: Project) -> int:
    """How many jobs wait in the project's queue (0 if it can't be read)."""
    from studio.worker import JobStatus

    try:
        jobs = _read_queue(project)
    except StudioError:  # said while another error is said: never in its place
        return 0
    return sum(job.status is JobStatus.QUEUED for job in jobs)


def _queued_jobs_of(service: GenerationService, turns: Collection[str]) -> list[str]:
    """The queued jobs (a `fill` not run yet) that make a take of one of ``turns``."""
    from studio.worker import JobStatus

    return [job.id for job in service.jobs() if job.status is JobStatus.QUEUED and job.node_id in turns]


def _nothing_queued(waiting: Sequence[str], *, run: bool, path: str, empty: bool, start_only: bool = False) -> str:
    """What `fill` says when it queued nothing: the story has no turns, every turn has a take,
    or the turns without one are queued already (``--run`` then generates them, where it did
    nothing and exited 0, and `fill` alone says how to). ``start_only``: the story has turns,
    but ``--leaf`` named its start, whose branch holds none (that was said as "the story has
    no turns yet" of a story of eight turns without takes)."""
    if empty and start_only:
        return ("nothing to queue: --leaf names the story's start, and the branch up to it holds no turns "
                "(leave out --leaf to fill every branch, or give the last turn of one)")
    if empty:
        return "nothing to queue: the story has no turns yet"
    if not waiting:
        return "nothing to queue: every turn has a take or is queued already"
    turns = plural(len(waiting), "turn")
    if run:
        return f"nothing new to queue: {turns} queued already; generating them"
    return (f"nothing new to queue: {turns} queued already "
            f"(`kamishibai run-queue {shell_path(path)}` or `fill --run` generates them)")


def _show_filled(args: argparse.Namespace, project: Project, service: GenerationService,
                 job_ids: list[str]) -> None:
    """`fill --json`: the jobs it queued, as they are once it is done, so that with ``--run``
    each says how it ended (done with its take, failed with its error), not that it is queued."""
    if args.json:
        print_json([_filled_job(project.tree, service.job(job_id)) for job_id in job_ids])


def _filled_job(tree: StoryTree, job: Job) -> dict[str, Any]:
    """A job of `fill --json`, as `queue --json` lists it, with ``understood``: what the engine
    read from the turn's instruction when the job's take finished (as `play --json` gives it),
    else null."""
    out = _job_dict(job, tree)
    take = tree.takes.get(job.take_id or "")
    out["understood"] = understood(take) if take is not None and take.status is TakeStatus.DONE else None
    return out


def cmd_run_queue(args: argparse.Namespace) -> int:
    from studio.worker import JobStatus

    with open_project(args.path, wait=args.wait) as project:
        if _cluster_spec(args) is not None and not _queue_has_work(project):
            print("nothing to run", file=sys.stderr)  # said before the render farm is joined for nothing
            return 0
        service = _service(project, args, auto_requeue=args.requeue_interrupted)
        waiting = [j for j in service.jobs() if j.status is JobStatus.QUEUED]
        if not waiting:
            left = _interrupted_left(service, args.path)
            print(f"kamishibai: nothing was run: {left}" if left else "nothing to run", file=sys.stderr)
            return 1 if service.failed_at_start() or left else 0
        code = run_until_idle(project, service, args.path, quiet=args.quiet)
        left = _interrupted_left(service, args.path, named=_blockers(service))
        if left:
            print(f"kamishibai: {left}", file=sys.stderr)
        return 1 if left else code


def turns_without_clip(folder: str) -> str:
    """What an existing project at ``folder`` left undone, for `sample` to say when it finds its
    sample already there: how many turns have no finished take, and the command that makes them
    ('' when every turn has one, or when the project can't be read: its own error says that).
    QA: after a killed `sample`, the next one said only "already exists… open it instead", and
    `--keep-intact` exited 0, silent about the six turns of eight left without a clip."""
    from studio.core.jobs import JobStatus
    from studio.storage.job_store import JobStore  # the storage layer only: `make run` asks this each time

    try:
        with open_for_reading(folder) as project:
            tree = project.tree
            turns = [node.id for node in tree.nodes.values() if node.parent_id is not None]
            bare = [node_id for node_id in turns
                    if not any(take.status is TakeStatus.DONE for take in tree.takes_of(node_id))]
            store = JobStore(project.database)  # a job left running by a killed process was stopped too
            stopped = bool(store.abandoned_ids()) or any(job.status is JobStatus.INTERRUPTED for job in store.load())
    except StudioError:
        return ""
    if not bare:
        return ""
    why = " (its generation was stopped)" if stopped else ""
    return (f"{len(bare)} of its {plural(len(turns), 'turn')} {'has' if len(bare) == 1 else 'have'} no clip "
            f"yet{why}: `kamishibai fill {shlex.quote(printable(folder))} --run` generates them.")


def _queue_has_work(project: Project) -> bool:
    """Whether the queue holds a job a run could take or has to say something of: queued,
    interrupted, or left running by a process that is gone. Read without joining anything."""
    from studio.worker import JobStatus

    unfinished = (JobStatus.QUEUED, JobStatus.INTERRUPTED, JobStatus.RUNNING)
    return any(job.status in unfinished for job in _read_queue(project))


def _blockers(service: GenerationService) -> set[str]:
    """The interrupted jobs that queued jobs wait for (the message about those names them)."""
    from studio.worker.queue import blocked_jobs

    return {blocker.id for blocker in blocked_jobs({job.id: job for job in service.jobs()}).values()}


def _interrupted_left(service: GenerationService, path: str, named: Collection[str] = ()) -> str:
    """What `run-queue` left undone without --requeue-interrupted: the interrupted jobs (a
    crash or a stop ended them; their turns have no new take) other than ``named``, with the
    command that runs them; '' when there are none. A script reads exit status 1 from it: the
    queue is not done, as when jobs wait for those (QA: it said "nothing to run" and exit 0)."""
    from studio.worker import JobStatus

    left = [job.id for job in service.jobs() if job.status is JobStatus.INTERRUPTED and job.id not in named]
    if not left:
        return ""
    return (f"{len(left)} interrupted job(s) left, not run again: {first_few(left)}.\n  hint: run "
            f"`{run_queue_command(service, path, '--requeue-interrupted')}` to run them, or "
            f"`kamishibai queue {shell_path(path)} --cancel-interrupted` to cancel them "
            f"(`kamishibai queue {shell_path(path)} --cancel JOB` cancels one).")


def _running(job: Job) -> str:
    """What the progress bar says runs: the turn whose take is being made. The job's label
    says what queued it ("Fill", "Re-roll"): a `run-queue` after a `fill` read "Fill:" while
    it generated turns."""
    from studio.core.jobs import JobKind

    if job.kind is JobKind.GENERATE and job.node_id:
        return f"turn {job.node_id}"
    return job.label or job.kind.value


def project_path_now(project: Project, path: str) -> tuple[str, str]:
    """The project's folder as the commands said after a run should name it, and a sentence
    saying it moved ("" when it did not). A folder moved while the project was open is named
    where the system says it is now; one deleted (or gone where that can't be told) keeps
    ``path``, and the sentence says to put it back there first."""
    from studio.storage.place import file_identity, where_now

    opened = project.database.identity
    if opened is None or file_identity(project.database.path) == opened:
        return path, ""
    now = where_now(opened)
    old = printable(str(project.path))
    if now is None or now.endswith(" (deleted)"):
        return path, (f"the project folder {old} was moved or deleted while this command ran; put it back there "
                      "(or give the folder's new place in place of that path) before running the commands below.")
    folder = os.path.dirname(now)
    return folder, (f"the project folder {old} was moved to {printable(folder)} while this command ran; the "
                    "commands below name it there.")


def _try_again_lines(tree: StoryTree, path: str, failed: Sequence[str], cancelled: Sequence[str]) -> list[str]:
    """The commands that make again what the failed jobs did not. `fill --run` queues only
    the turns without a finished take, so a failed re-roll of a turn that keeps an earlier
    take (a `reroll --branch` stopped and run on here, a re-roll queued in the window) is
    named with its own `reroll` command: with --branch when the jobs of turns below it were
    cancelled with it. A failure of no known turn falls back on `fill --run`."""
    quoted = shell_path(path)
    fill = (f"once that is fixed, `kamishibai fill {quoted} --run` queues the turns left without a take again "
            "and generates them (add --engine or --device to try another).")
    lines: list[str] = []
    needs_fill = False
    for node_id in dict.fromkeys(failed):
        if node_id not in tree.nodes:
            continue
        if not any(take.status is TakeStatus.DONE for take in tree.takes_of(node_id)):
            needs_fill = True
            continue
        below = {node.id for node in tree.descendants(node_id)} & set(cancelled)
        command = f"kamishibai reroll {'--branch ' if below else ''}{quoted} {node_id}"
        lines.append(f"once that is fixed, `{command}` makes the new take{'s' if below else ''} again "
                     f"(turn {node_id} keeps its earlier take, so fill passes over it).")
    return [fill, *lines] if needs_fill or not lines else lines


def run_until_idle(project: Project, service: GenerationService, path: str, *, quiet: bool = False) -> int:
    """Work through the queue with a progress bar on stderr; 1 when a job failed (jobs
    that could never start fail when the queue is opened) or jobs are left waiting (for an
    interrupted job, or for an engine that can't run here), else 0."""
    from tqdm import tqdm

    from studio.worker import EventKind, JobEvent, JobStatus

    # the jobs that could never start failed when the service opened the queue (reported then)
    # cancelled at open: those waiting for a failed job, and those of deleted turns (not failures)
    cancelled = len(service.cancelled_at_start()) + len(service.deleted_turns_at_start())
    counts = {"done": 0, "failed": len(service.failed_at_start()), "cancelled": cancelled}
    failed_nodes = [job.node_id for job in service.failed_at_start() if job.node_id]
    cancelled_nodes = [job.node_id for job in service.cancelled_at_start() if job.node_id]
    waiting = [j for j in service.jobs() if j.status is JobStatus.QUEUED]
    bar = tqdm(total=len(waiting), unit="job", file=sys.stderr, disable=quiet, dynamic_ncols=True)
    lock = threading.Lock()

    def watch(event: JobEvent) -> None:
        with lock:
            if event.kind is EventKind.QUEUED:
                bar.total = (bar.total or 0) + 1
                bar.refresh()
            elif event.kind is EventKind.STARTED:
                bar.set_description_str(_running(event.job))
            elif event.kind is EventKind.PROGRESS:
                eta = f"{event.eta_s:.0f}s" if event.eta_s is not None else "?"
                bar.set_postfix_str(f"{event.stage} {100 * event.fraction:.0f}% eta {eta}", refresh=False)
            elif event.kind in (EventKind.FINISHED, EventKind.FAILED, EventKind.CANCELLED):
                counts["done" if event.kind is EventKind.FINISHED else event.kind.value] += 1
                if event.node_id:
                    if event.kind is EventKind.FAILED:
                        failed_nodes.append(event.node_id)
                    elif event.kind is EventKind.CANCELLED:
                        cancelled_nodes.append(event.node_id)
                if event.kind is EventKind.FAILED:
                    hint = f"\n  hint: {printable(event.hint)}" if event.hint else ""  # what to do (out of memory)
                    bar.write(f"job {event.job_id} (node {event.node_id}) failed: {printable(event.message)}{hint}",
                              file=sys.stderr)
                bar.update(1)

    service.subscribe(watch)
    try:
        service.start()
        while not service.wait_idle(0.5):
            pass
    except KeyboardInterrupt:
        # a second Ctrl+C, or the second SIGINT `timeout -s INT` sends (to the process and to its
        # group), cut this short: the project was closed while the worker stored the job's end,
        # which then read as interrupted with the jobs after it blocked, and nothing was said
        with ctrl_c_deferred():
            from studio.cli import stopped_by  # the package imports this module to build its parser

            service.stop(interrupt_running=True, timeout=60, reason=f"Stopped by {stopped_by()}.")
            bar.close()
            path, moved = project_path_now(project, path)
            if moved:
                print(f"kamishibai: {moved}", file=sys.stderr)
            say_what_is_left(service, path, done=counts["done"])
        raise
    # the commands said from here on name the folder where the project is now (QA: a folder
    # moved while the queue ran was named at its old place, where those commands find nothing)
    path, moved = project_path_now(project, path)
    left = _waiting_messages(service, path)  # before stopping: a cluster's hosts answer the checks
    service.stop(timeout=None)
    bar.close()
    print(f"{counts['done']} done, {counts['failed']} failed, {counts['cancelled']} cancelled", file=sys.stderr)
    if moved:
        print(f"kamishibai: {moved}", file=sys.stderr)
    if counts["failed"]:  # the failures' hints say "retry" (the window's word): how, here
        for line in _try_again_lines(project.tree, path, failed_nodes, cancelled_nodes):
            print(f"kamishibai: {line}", file=sys.stderr)
    for message in left:
        print(f"kamishibai: {message}", file=sys.stderr)
    return 1 if counts["failed"] or left else 0
