"""``kamishibai checkpoints``: convert the released AnimeGamer weights, see what is there,
and plan a conversion before running it."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import TYPE_CHECKING

from studio.cli.common import printable
from studio.cli.folder_args import CHECKPOINTS_FOLDER_HINT, checkpoints_folder, conversion_target, require_folder

if TYPE_CHECKING:  # the report's module is imported by the command that uses it
    from pathlib import Path

    from studio.engines.animegamer.doctor import CheckpointReport

EXIT_NOT_READY = 1


def add_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("checkpoints", help="convert and check the AnimeGamer and CustomX weights",
                       description="The released AnimeGamer and CustomX weights, made ready for the studio: "
                       "convert and convert-customx write them as the safetensors files the engines read, doctor "
                       "lists the files a checkpoints folder holds or lacks, and plan checks a released file's key "
                       "list before the conversion. `kamishibai checkpoints ACTION --help` tells more.")
    commands = p.add_subparsers(dest="checkpoints_command", metavar="ACTION")

    convert = commands.add_parser("convert", help="convert the released AnimeGamer files into our safetensors layout",
                                  description="Convert the released AnimeGamer weights (the release's checkpoints/ "
                                  "folder and its tokenizer) into the safetensors files the animegamer engine reads, "
                                  "for each character found (--character picks); the shared base model and VAE are "
                                  "written once. docs/ANIMEGAMER.md tells where the release is and what it needs.")
    convert.add_argument("source", metavar="SRC", help="the release's checkpoints/ folder (AnimeGamer/, vae/, "
                                                       "Mistral-7B-Instruct-v0.1/)")
    convert.add_argument("--checkpoints", default=None, type=conversion_target,
                         help="where to write (default: checkpoints/ beside the app; for an installed studio, "
                         "checkpoints/ in the data folder)")
    convert.add_argument("--character", action="append", choices=("qiqi", "sosuke"),
                         help="convert only this character (repeatable; default: every one found)")
    convert.add_argument("--tokenizer", default=None,
                         help="AnimeGamer's tokenizer folder (MLLM/VisualAR/animegamer_tokenizer of the code release)")
    convert.add_argument("--replace-shared", action="store_true",
                         help="rewrite the shared base model and VAE even when they are already converted")
    convert.add_argument("--size", default="full", choices=("full", "tiny"), help=argparse.SUPPRESS)
    convert.set_defaults(handler=cmd_convert)

    customx = commands.add_parser("convert-customx", help="convert the released CustomX (AniX) files into our "
                                                          "safetensors layout",
                                  description="Convert the released HunyuanCustom transformer, the CustomX LoRA "
                                  "(merged in), the HunyuanVideo VAE and the two text encoders into the safetensors "
                                  "files the customx engine reads. docs/CUSTOMX.md tells where each comes from.")
    customx.add_argument("--transformer", required=True, metavar="PT",
                         help="hunyuancustom_editing_720P/mp_rank_00_model_states.pt (HunyuanCustom)")
    customx.add_argument("--lora", metavar="SAFETENSORS",
                         help="pytorch_lora_kohaya_weights.safetensors (the CustomX LoRA, merged in)")
    customx.add_argument("--lora-scale", type=float, default=1.0, help="scale of the merged LoRA (default 1)")
    customx.add_argument("--vae", required=True, help="the HunyuanVideo VAE (pytorch_model.pt or .safetensors)")
    customx.add_argument("--llava", required=True, metavar="FOLDER", help="llava-llama-3-8b-v1_1-transformers/")
    customx.add_argument("--clip", required=True, metavar="FOLDER", help="clip-vit-large-patch14/")
    customx.add_argument("--checkpoints", default=None, type=conversion_target,
                         help="where to write (default: checkpoints/ beside the app; for an installed studio, "
                         "checkpoints/ in the data folder)")
    customx.set_defaults(handler=cmd_convert_customx)

    doctor = commands.add_parser("doctor", help="list our AnimeGamer (or CustomX) files (present or missing, "
                                                "with sizes)",
                                 description="List the converted AnimeGamer (or CustomX) weight files a checkpoints "
                                 "folder should hold, each present (with its size) or missing, and any that is "
                                 "damaged. Exit status 1 unless every file is there and whole.")
    doctor.add_argument("--engine", default="animegamer", choices=("animegamer", "customx"),
                        help="whose files to list (default: animegamer)")
    doctor.add_argument("--checkpoints", default=None, type=checkpoints_folder,
                        help="checkpoints folder (default: checkpoints/ beside the app; for an installed studio, "
                        "checkpoints/ in the data folder)")
    doctor.add_argument("--source", default=None,
                        help="also list the release files under this folder (AnimeGamer: the release's "
                             "checkpoints/; CustomX: where its downloads were unpacked, searched 5 folders deep)")
    doctor.add_argument("--json", action="store_true", help="print the report as JSON")
    doctor.set_defaults(handler=cmd_doctor)

    plan = commands.add_parser("plan", help="print where every key of a released file goes (from a key list)",
                               description="Read the list of keys of one released AnimeGamer file (names, shapes "
                               "and types in a JSON file, no weights) and print where each goes in the converted "
                               "files, and every key the conversion would refuse. Exit status 1 when one would "
                               "fail.")
    plan.add_argument("--manifest", required=True, metavar="FILE.json",
                      help='{"keys": [[name, shape, dtype-or-null], ...]} in the file\'s order')
    plan.add_argument("--part", required=True, choices=("mllm", "decoder", "vae", "base"),
                      help="which released file the keys come from")
    plan.add_argument("--problems-only", action="store_true", help="print only the keys that would fail")
    plan.set_defaults(handler=cmd_plan)
    p.set_defaults(handler=lambda args: _help(p))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _checkpoints(value: str | None):  # type: ignore[no-untyped-def]
    from pathlib import Path

    from studio import composition
    from studio.cli.common import refuse_an_engines_own_folder

    if value:  # ck/animegamer given: every file was listed missing under ck/animegamer/animegamer/
        refuse_an_engines_own_folder(Path(value).expanduser())
    # a relative folder is named by its full path in every line: read later (a log, an issue
    # report), "ck/animegamer" does not say where it was looked for
    return Path(value).expanduser().absolute() if value else composition.user_checkpoints(_data_dir)


def _data_dir() -> Path:
    """The user's data folder, as the window and the engines find it (``checkpoints/`` there
    is where they look after the app's own); needs only QtCore."""
    from studio.cli.common import ctrl_c_deferred

    with ctrl_c_deferred():  # a KeyboardInterrupt inside PySide6's first import aborts Python
        from studio.ui.app_paths import AppPaths

        return AppPaths.standard().data_dir


def _where_by_default(value: str | None) -> list[str]:
    """The line ``checkpoints doctor`` adds under its title when an installed studio used its
    default folder: that it is the data folder's, not the package's."""
    from studio.shipped import is_installed

    if value or not is_installed():
        return []
    return ["  (the default folder of an installed studio: checkpoints/ in your data folder, where "
            "`kamishibai checkpoints convert` writes and the engines look; the package holds only the "
            "shipped mini weights. --checkpoints DIR names another folder.)"]


def _refuse_the_download_root(option: str, source: str, before: str = "") -> None:
    """Refuse the folder above the release's checkpoints/ (the download's top folder, which holds
    checkpoints/AnimeGamer/...), naming the subfolder to give: every released file was listed
    missing under it, or "No AnimeGamer character found"."""
    from pathlib import Path

    from studio.core.errors import StudioError
    from studio.engines.catalog import animegamer_layout as layout

    folder = Path(source)
    inner = Path(layout.RELEASE_DECODER_DIR).parts[0]  # AnimeGamer/
    if (folder / inner).exists():
        return
    try:
        found = sorted(child for child in folder.iterdir() if (child / inner).is_dir())
    except OSError:
        return
    if found:
        raise StudioError(f"{option} {printable(source)} holds the release's checkpoints folder, not the release's "
                          f"files themselves ({inner}/ is in {printable(str(found[0]))}).",
                          hint=f"{before}Give {shlex.quote(printable(str(found[0])))} instead.")


def cmd_convert(args: argparse.Namespace) -> int:
    from pathlib import Path

    from studio.engines.animegamer.convert import convert_release
    from studio.engines.animegamer.sizes import FULL, TINY

    require_folder("SRC", args.source, "Nothing was written. Give the release's checkpoints/ folder (the one that "
                    "holds AnimeGamer/, vae/ and Mistral-7B-Instruct-v0.1/).")
    _refuse_the_download_root("SRC", args.source, "Nothing was written. ")
    if args.tokenizer is not None:  # a file (tokenizer.model itself) was looked into as a folder
        require_folder("--tokenizer", args.tokenizer, "Nothing was written. Give the folder that holds "
                        "tokenizer.model (MLLM/VisualAR/animegamer_tokenizer of the code release).")
    checkpoints = _checkpoints(args.checkpoints)
    try:
        report = convert_release(Path(args.source), checkpoints, characters=args.character,
                                 size=TINY if args.size == "tiny" else FULL,
                                 tokenizer=Path(args.tokenizer) if args.tokenizer else None,
                                 replace_shared=args.replace_shared, log=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        _say_what_a_stop_left(_animegamer_left_as(checkpoints))
        raise
    print(f"Converted {', '.join(report.characters)}: {report.count('placed')} keys placed, "
          f"{report.count('skipped')} skipped by design, {len(report.written)} files written.")
    return 0


def cmd_convert_customx(args: argparse.Namespace) -> int:
    from pathlib import Path

    from studio.core.errors import StudioError

    _check_customx_sources(args)  # before anything is imported or written
    from studio.engines.customx.convert import ConversionError, ReleasedFiles, convert_release

    files = ReleasedFiles(Path(args.transformer), Path(args.lora) if args.lora else None, Path(args.vae),
                          Path(args.llava), Path(args.clip))
    checkpoints = _checkpoints(args.checkpoints)
    try:
        report = convert_release(files, checkpoints, lora_scale=args.lora_scale,
                                 log=lambda line: print(line, flush=True))
    except ConversionError as error:
        hint = _customx_left_as(checkpoints)
        raise StudioError(f"The CustomX conversion stopped: {error.message}",
                          hint=f"{error.hint} {hint}" if error.hint else hint) from None
    except KeyboardInterrupt:
        _say_what_a_stop_left(_customx_left_as(checkpoints, again="run the same command again to finish it"))
        raise
    print(f"Converted CustomX: {report.placed} tensors placed, LoRA merged into {report.lora_modules} layers, "
          f"{len(report.dropped)} unused tensors dropped, {len(report.written)} files written.")
    return 0


def _say_what_a_stop_left(left: str) -> None:
    """On Ctrl+C (or SIGTERM) during a conversion, say what it left before the command's
    "interrupted": the character or checkpoint whose files were being written has no
    model.json until it is converted again, and the engine does not use it. QA: only
    "kamishibai: interrupted" was said, and the engine was then "not available" unexplained."""
    try:
        print(f"kamishibai: the conversion was stopped before it finished. {printable(left)}", file=sys.stderr,
              flush=True)
    except (KeyboardInterrupt, OSError, ValueError):  # a second Ctrl+C, or a closed stderr
        pass


def _animegamer_left_as(checkpoints: Path) -> str:
    """Which AnimeGamer characters are usable in ``checkpoints`` after a stopped conversion."""
    from studio.engines.catalog import animegamer_layout as layout

    folder = layout.engine_folder(checkpoints)
    ready = [layout.DISPLAY[name] for name in layout.complete_characters(folder)] if folder.is_dir() else []
    usable = f"Usable in {folder}: {', '.join(ready)}." if ready else f"No character in {folder} is usable yet."
    return (f"{usable} Run the same command again to finish (it rewrites any half-written file); "
            "`kamishibai checkpoints doctor` lists what is there.")


def _customx_left_as(checkpoints: Path, again: str = "fix the input and convert again") -> str:
    """What a stopped CustomX conversion left: the conversion checks its inputs before it
    changes the folder, so a converted checkpoint already there (its model.json) is kept
    unless the stop came while files were being written. QA: this always said "has no
    model.json", also when the checkpoint there was untouched and still used."""
    from studio.engines.catalog import customx as catalog

    folder = checkpoints / catalog.NAME
    if (folder / catalog.MODEL_FILE).is_file():
        return f"The converted files already in {folder} were left as they were (the engine still uses them)."
    return f"{folder} has no {catalog.MODEL_FILE}, so the engine does not use it; {again}."


def _check_customx_sources(args: argparse.Namespace) -> None:
    """Refuse a released file or folder that is not there, naming its option, before the
    conversion makes any folder (it used to stop with an internal error after making one)."""
    from pathlib import Path

    from studio.core.errors import StudioError

    wanted = [("--transformer", args.transformer, "file"), ("--lora", args.lora, "file"), ("--vae", args.vae, "file"),
              ("--llava", args.llava, "folder"), ("--clip", args.clip, "folder")]
    for option, value, kind in wanted:
        if value is None:
            continue
        path = Path(value)
        if kind == "file" and not path.is_file():
            raise StudioError(f"{option} {value}: no such file.", hint="Nothing was written. Give the released "
                              "file's path (`kamishibai checkpoints convert-customx --help` lists them).")
        if kind == "folder":
            hint = ("Nothing was written. Give the released model's folder (`kamishibai checkpoints convert-customx "
                    "--help` names it).")
            require_folder(option, value, hint)
            if not (path / "tokenizer.json").is_file():
                raise StudioError(f"{option} {value}: it holds no tokenizer.json.", hint=hint)


def cmd_doctor_customx(args: argparse.Namespace) -> int:
    """Our CustomX files, each there or missing with its size, and each safetensors file the
    engine could not load as it is (cut short or grown, or a JSON file that is no JSON object:
    see ``damaged_file``);
    exit status 1 unless every file is there and whole. QA: it checked only that the files
    were there, and said "ok" (exit 0) for a transformer cut short by an interrupted copy."""
    from studio.engines.catalog import customx as catalog
    from studio.engines.file_kinds import torch_file_beside
    from studio.engines.requirements import damaged_file

    release = _customx_release(args.source, args.checkpoints) if args.source else None  # a bad --source first
    if args.checkpoints and not args.source:  # as for AnimeGamer's files (see cmd_doctor)
        require_folder("--checkpoints", args.checkpoints, CHECKPOINTS_FOLDER_HINT)
    folder = _checkpoints(args.checkpoints) / catalog.NAME
    moved = _folder_problem(folder, "CustomX")
    if moved and not args.json:
        print(f"NOT A FOLDER {printable(moved)}")
    for line in [] if args.json else _where_by_default(args.checkpoints):
        print(line)
    rows = []
    damaged: dict[str, str] = {}
    for item in catalog.FILES:
        path = folder / item.path
        present = path.is_file()
        damage = damaged_file(path) if present else None
        problem = damage.message if damage is not None else (
            catalog.content_problem(folder, item.path) if present else None)
        if problem:
            damaged[str(path)] = problem
        size = f"{path.stat().st_size / 1e9:.2f} GB" + (", damaged" if problem else "") if present else \
            "missing" + (f"; found {beside.name} beside it: a PyTorch file, convert it first"
                          if (beside := torch_file_beside(path)) is not None else "")
        rows.append({"path": str(path), "present": present, "bytes": path.stat().st_size if present else 0,
                     "description": item.description})
        if not args.json:
            mark = "ok " if present and not problem else "NO "
            print(f"{mark} {printable(str(path))}  ({size}) - {item.description}")
    ok = all(row["present"] for row in rows) and not damaged
    leftovers = _leftovers(folder)
    if args.json:
        extra = {} if release is None else {"release": release[0], "convert_command": release[1]}
        print(json.dumps({"engine": catalog.NAME, "files": rows, "damaged": _damaged_json(damaged),
                          "leftovers": _leftovers_json(leftovers), "folder_problem": moved, "ok": ok} | extra,
                         indent=1))
        return 0 if ok else EXIT_NOT_READY
    for line in _damaged_lines(damaged) + _leftover_lines(leftovers):
        print(line)
    if release is not None:
        print(f"Release files under {printable(str(args.source))}:")
        for part in release[0]:
            where = part["path"] if part["path"] else f"not found (looked for {part['wanted']})"
            label = "found  " if part["path"] else ("MISSING" if part["required"] else "absent ")
            if part["problem"]:
                label = "DAMAGED"
            print(f"  {label} {part['option']} {printable(str(where))} - {part['description']}")
            if part["problem"]:
                print(f"          {printable(str(part['problem']))}; download {part['wanted']} again.")
        if release[1]:
            print("Convert them with:\n  " + printable(shlex.join(release[1])))
    if not ok and not (release and release[1]):
        print("Convert the released weights: kamishibai checkpoints convert-customx --help")
    return 0 if ok else EXIT_NOT_READY


def _customx_release(source: str, checkpoints: str | None) -> tuple[list[dict[str, object]], list[str] | None]:
    """The release parts found under ``source`` (as JSON-ready rows) and the convert command
    (writing into ``checkpoints`` when one was given)."""
    from pathlib import Path

    from studio.core.errors import StudioError
    from studio.engines.customx.release import convert_command, find_release

    hint = "Give the folder the CustomX downloads were unpacked into."
    require_folder("--source", source, hint)
    try:
        found = find_release(Path(source))
    except NotADirectoryError:
        raise StudioError(f"--source {source}: no such folder.", hint=hint) from None
    rows: list[dict[str, object]] = [
        {"option": item.part.option, "description": item.part.description, "wanted": item.part.wanted,
         "required": item.part.required, "path": str(item.path) if item.path else None,
         "problem": item.problem} for item in found]
    command = convert_command(found)
    if command is not None and checkpoints:
        command += ["--checkpoints", checkpoints]
    return rows, command


def cmd_doctor(args: argparse.Namespace) -> int:
    from dataclasses import asdict, replace
    from pathlib import Path

    if getattr(args, "engine", "animegamer") == "customx":
        return cmd_doctor_customx(args)

    from studio.engines.animegamer.doctor import convert_command, format_report, inspect

    if args.source:
        require_folder("--source", args.source, "Give the release's checkpoints/ folder (the one that holds "
                        "AnimeGamer/, vae/ and Mistral-7B-Instruct-v0.1/).")
        _refuse_the_download_root("--source", args.source)
    if args.checkpoints and not args.source:  # every file was listed missing under a folder that isn't there,
        # hiding the typo (with --source it is where the weights are to be converted to: it may not be there yet)
        require_folder("--checkpoints", args.checkpoints, CHECKPOINTS_FOLDER_HINT)
    report = inspect(_checkpoints(args.checkpoints), Path(args.source) if args.source else None)
    damaged = _damaged_files(report)
    report = replace(report, complete=_undamaged_characters(report, damaged))
    leftovers = _leftovers(report.folder)
    moved = _folder_problem(report.folder, "AnimeGamer")
    # the command as the user can run it: their SRC, and their --checkpoints (the engine looks there)
    command = convert_command(report, args.source, args.checkpoints) if args.source else None
    if args.json:
        print(json.dumps(asdict(report) | {"damaged": _damaged_json(damaged), "leftovers": _leftovers_json(leftovers),
                                           "folder_problem": moved, "convert_command": command, "ok": report.ok},
                         indent=1, default=str))
    else:
        lines = format_report(report, shown=printable, command=command, checkpoints=args.checkpoints,
                              damaged=damaged).split("\n")
        lines[1:1] = [f"  NOT A FOLDER {moved}"] if moved else []  # under the title, which names the folder
        lines[1:1] = _where_by_default(args.checkpoints)
        lines[-1:-1] = _damaged_lines(damaged) + _leftover_lines(leftovers)  # before the verdict, its last line
        print("\n".join(printable(line) for line in lines))
    return 0 if report.ok else EXIT_NOT_READY


def _folder_problem(folder: Path, label: str) -> str | None:
    """What to do when the engine's ``folder`` is something else than a folder (a file, a link
    to nothing): its files can't be written there, and each was only listed MISSING."""
    from studio.engines.catalog.reasons import folder_reason

    reason = folder_reason(folder, f"converted {label}")
    return f"{reason.message} {reason.hint}" if reason else None


def _damaged_lines(damaged: dict[str, str]) -> list[str]:
    """The report's lines for the damaged files (none when there are none)."""
    if not damaged:
        return []
    return ["Damaged files (the engine can't load them; copy or convert them again):",
            *(f"  DAMAGED {printable(message)}" for message in damaged.values())]


def _leftovers(folder: Path) -> list[Path]:
    """The ``*.partial`` files under an engine's ``folder``: a conversion writes each file
    through one and renames it when whole, so one still there was left by a conversion that
    was killed (or by the machine stopping). QA: nothing named them, and a killed
    conversion could leave gigabytes that the engine never reads."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.rglob("*.partial") if path.is_file())


def _leftover_lines(leftovers: list[Path]) -> list[str]:
    """The report's lines for the leftovers (none when there are none)."""
    if not leftovers:
        return []
    total = sum(path.stat().st_size for path in leftovers)
    return [f"Left by an interrupted conversion ({total / 1e9:.2f} GB; the engine never reads them): delete them, "
            "or convert again, which rewrites the files they belong to:",
            *(f"  LEFTOVER {printable(str(path))} ({path.stat().st_size:,} bytes)" for path in leftovers)]


def _leftovers_json(leftovers: list[Path]) -> list[dict[str, object]]:
    return [{"path": str(path), "bytes": path.stat().st_size} for path in leftovers]


def _damaged_json(damaged: dict[str, str]) -> list[dict[str, str]]:
    return [{"path": path, "message": message} for path, message in damaged.items()]


def _damaged_files(report: CheckpointReport) -> dict[str, str]:
    """The files that are there but can't be loaded as they are, each with why: of another
    size than the conversion recorded in model.json, or a safetensors file whose size is not
    the one its header gives (cut short or grown). QA: the report listed such a file as "ok
    ..., expected N (incomplete copy?)" and still ended "Ready", with exit status 0."""
    from studio.engines.file_kinds import foreign_kind
    from studio.engines.requirements import not_safetensors, safetensors_size_problem

    found: dict[str, str] = {}
    for status in report.files:
        if not status.present:
            continue
        if status.path.suffix == ".safetensors" and (kind := foreign_kind(status.path)) is not None:
            found[str(status.path)] = not_safetensors(status.path, kind)  # a pickle: not "an incomplete copy"
        elif status.exact and status.expected is not None and status.size != status.expected:
            found[str(status.path)] = (f"{status.path} is {status.size:,} bytes, expected {status.expected:,} "
                                       "(as converted; incomplete copy?).")
        elif status.path.suffix == ".safetensors" and (problem := safetensors_size_problem(status.path)):
            found[str(status.path)] = problem
    found.update(_damaged_tokenizer(report.folder / "tokenizer", found))
    from studio.engines.catalog import animegamer_layout as layout

    for character in report.complete:  # a model.json without the model's dimensions was "Ready"
        if (problem := layout.model_json_problem(report.folder, character)) is not None:
            found.setdefault(str(report.folder / character / layout.MODEL_FILE), problem)
    return found


def _damaged_tokenizer(folder: Path, found: dict[str, str]) -> dict[str, str]:
    """The tokenizer file in ``folder`` the engine can't load (a ``tokenizer.model`` that is no
    SentencePiece model, a JSON file that is no JSON object), with why, in the words of
    `kamishibai doctor`; nothing when a file is missing (listed as such) or already named in
    ``found``. QA: a garbage tokenizer.model of the size the conversion recorded was called
    "Ready", and the engine's load then failed."""
    from studio.engines.catalog.animegamer_tokenizer import damaged_tokenizer

    damaged = damaged_tokenizer(folder)
    if damaged is None or damaged.path in found:
        return {}
    return {damaged.path: f"{damaged.message} {damaged.hint}"}


def _undamaged_characters(report: CheckpointReport, damaged: dict[str, str]) -> tuple[str, ...]:
    """The complete characters none of whose files (their own, or the shared ones) is damaged."""
    from studio.engines.catalog import animegamer_layout as layout

    folder = report.folder  # animegamer/ under the checkpoints folder
    shared = any(str(folder / item.path) in damaged for item in layout.shared_files())
    return tuple(character for character in report.complete if not shared and not any(
        str(folder / item.path) in damaged for item in layout.character_files(character)))


def cmd_plan(args: argparse.Namespace) -> int:
    from pathlib import Path

    from studio.engines.animegamer.plan import format_plan, make_plan, read_manifest
    from studio.engines.animegamer.released import Part

    plan = make_plan(Part(args.part), read_manifest(Path(args.manifest)))
    sys.stdout.write(format_plan(plan, verbose=not args.problems_only) + "\n")
    return 0 if plan.ok else EXIT_NOT_READY
