"""Export the selected branch: format, size, fps, crossfade, captions, overlay, storyboard layout.

The dialog only collects choices (:meth:`ExportDialog.choices`); the window queues the
export on the worker with ``service.submit_task`` so the GUI never waits on ffmpeg.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from studio.ui.text_wrap import breakable

if TYPE_CHECKING:
    from studio.export import ExportOptions

FORMATS = ("mp4", "webm", "gif", "pdf", "png", "srt", "vtt", "otio")
CAPTIONS = ("none", "burn", "srt")


@dataclass(frozen=True)
class Choice:
    """An option of a list in the dialog: its code (the export's, and the command line's), the
    words the list shows for it, and its tooltip, which says what the option makes."""

    code: str
    label: str
    tip: str


FORMAT_CHOICES = (
    Choice("mp4", "Video (MP4)", "A video file that plays almost anywhere: phones, browsers and video sites."),
    Choice("webm", "Video (WebM)", "A video file for web pages; smaller than MP4, but some players can't open it."),
    Choice("gif", "Animated GIF", "A silent looping animation for chats and web pages, with fewer colours and a "
           "lower frame rate."),
    Choice("pdf", "Storyboard (PDF)", "A printable storyboard: a still of each turn with its text, several turns "
           "to a page."),
    Choice("png", "Storyboard pages (PNG)", "The storyboard as images, one PNG file for each page."),
    Choice("srt", "Subtitles (SRT)", "Only the captions, timed to the episode, as a subtitle file to add to a "
           "video elsewhere."),
    Choice("vtt", "Subtitles (WebVTT)", "The same captions as a WebVTT file (.vtt), for a video on a web page or a "
           "video site."),
    Choice("otio", "Editor timeline (OpenTimelineIO)", "The turns' clips in order, as a timeline to open and finish "
           "in a video editor (DaVinci Resolve, Kdenlive and others)."),
)
"""The formats the dialog offers, in :data:`FORMATS`' order."""
CAPTION_CHOICES = (
    Choice("none", "None", "No captions: the video shows only the pictures."),
    Choice("burn", "Burned into the picture", "The dialogue and narration are drawn onto the frames: every player "
           "shows them, and they can't be turned off."),
    Choice("srt", "Subtitle file beside the video", "The captions go into a subtitle file (.srt) of the same name "
           "beside the video: players show them if asked to, and they can be turned off or edited."),
)
"""The caption modes the dialog offers, in :data:`CAPTIONS`' order."""


def fill_choices(combo: QComboBox, choices: tuple[Choice, ...]) -> None:
    """``combo`` offering ``choices``: each shown by its label, with its code as the item's
    data and its tooltip on the item."""
    for choice in choices:
        combo.addItem(choice.label, choice.code)
        combo.setItemData(combo.count() - 1, choice.tip, Qt.ItemDataRole.ToolTipRole)


def choose_code(combo: QComboBox, code: str) -> None:
    """Select the item of ``combo`` whose code is ``code`` (nothing changes for an unknown code)."""
    index = combo.findData(code)
    if index >= 0:
        combo.setCurrentIndex(index)


def chosen_code(combo: QComboBox) -> str:
    """The code of ``combo``'s selected item."""
    return str(combo.currentData())

DIALOG_FIELDS = {
    "--size": "Size (width × height)",
    "--fps": "Frame rate",
    "--crossfade": "Crossfade",
    "--captions": "Captions",
    "--overlay": "Overlay",
    "--title": "Title card",
    "--end-card": "End card",
    "--panels": "Storyboard panels",
    "--aspect": "Panel shape",
    "--format": "Format",
}
"""The export command's options that the export's notes may name, and the fields of this
dialog that set the same: the window shows the notes in the dialog's words."""
_OPTION = re.compile(r"--[a-z][a-z-]*(?![\w-])")


def in_dialog_words(note: str) -> str:
    """``note`` (from an export) with each command-line option this dialog has a field for
    named by that field ("a larger --size" reads "a larger Size (width × height)"); an option
    the dialog has no field for (--crf) is left as it is written."""
    return _OPTION.sub(lambda found: DIALOG_FIELDS.get(found.group(0), found.group(0)), note)


@dataclass(frozen=True)
class ExportChoices:
    out: Path
    fmt: str
    size: tuple[int, int] | None
    fps: float | None
    crossfade: float
    captions: str
    overlay: bool
    panels: int
    aspect: str
    title: str
    title_duration: float = 2.0
    end_card: str = ""
    end_card_duration: float = 2.0

    def options(self) -> ExportOptions:
        """The export's options: the controls that the chosen format can't use are left out (the
        form keeps their values when the format changes)."""
        from studio.export import CaptionMode, ExportFormat, ExportOptions
        from studio.export.encoding import for_format
        from studio.export.options import PanelAspect

        chosen = ExportOptions(size=self.size, fps=self.fps, crossfade=self.crossfade,
                               captions=CaptionMode(self.captions), overlay=self.overlay,
                               panels_per_page=self.panels, panel_aspect=PanelAspect(self.aspect), title=self.title,
                               title_duration=self.title_duration, end_card=self.end_card,
                               end_card_duration=self.end_card_duration)
        return for_format(chosen, ExportFormat(self.fmt))


MAX_DIALOG_FPS = 240
"""The highest frame rate the dialog offers (a GIF's is lower)."""


def with_format(path: Path, fmt: str) -> Path:
    """``path`` ending in ``.fmt``: a known format's suffix is replaced, any other dot in the name
    kept ("episode v1.2" -> "episode v1.2.mp4"), a dot that ends the name left out."""
    if path.suffix.lstrip(".").lower() in FORMATS:
        return path.with_suffix(f".{fmt}")
    stem = path.name.rstrip(".") or path.name  # "episode." -> "episode.mp4", not "episode..mp4"
    return path.with_name(f"{stem}.{fmt}")


def safe_file_name(name: str) -> str:
    """``name`` without the characters file systems refuse ("Qiqi: day 1" -> "Qiqi - day 1")."""
    cleaned = "".join(" -" if c in ':/\\' else ("_" if c in '*?"<>|' or ord(c) < 32 else c) for c in name)
    return " ".join(cleaned.split()).strip(". ") or "episode"


NO_TURNS_TIP = "Select a turn of a branch to export, or write one (Enter on the start)."
STALE_TURNS_NAMED = 6
"""The stale turns the dialog names one by one; the rest are counted."""


@dataclass(frozen=True)
class BranchFacts:
    """What the dialog says about the branch it exports."""

    last_turn: int  # the branch's leaf, as a turn number
    generated: int  # turns with a finished take
    ending: str  # the last turn, as a sentence
    failed: int = 0  # turns without a finished take whose latest generation failed
    on_the_way: int = 0  # turns without a finished take with a generation queued or running
    stale: tuple[int, ...] = ()  # the turns (by number) whose chosen take is stale
    stale_why: tuple[str, ...] = ()
    """Why each turn of :attr:`stale` is stale, in its order ("its instruction was edited":
    :func:`~studio.core.stale_reasons.stale_words`); a turn given none is said to be so
    because an earlier turn changed."""
    clip_sizes: tuple[tuple[int, int], ...] = ()
    """The size (width, height) of each chosen take's clip of the branch that could be read, in
    the branch's order: an export at the clips' own size takes the first one's."""
    clip_missing: tuple[int, ...] = ()
    """The turns (by number) whose chosen take's clip file is gone (moved or deleted by hand):
    counted as generated, they stopped the export only once it ran."""

    def clip_size(self) -> tuple[int, int] | None:
        """The size an export at the clips' own size makes (the first turn's clip's); None when
        no clip of the branch could be read."""
        return self.clip_sizes[0] if self.clip_sizes else None

    def size_note(self) -> str:
        """What the dialog says of the clips' own size where they differ ("" where they are
        alike): the others are scaled to the first turn's."""
        sizes = list(dict.fromkeys(self.clip_sizes))
        if len(sizes) < 2:
            return ""
        shown = _joined([_size_text(size) for size in sizes])
        return (f"The clips differ in size ({shown}): at their own size the episode is the first turn's, "
                f"{_size_text(sizes[0])}, the others scaled to it.")

    @property
    def missing(self) -> int:
        """Turns without a finished take: an export needs every turn's clip, so it can't run."""
        return max(0, self.last_turn - self.generated)

    @property
    def never_generated(self) -> int:
        """Turns without a finished take that neither failed nor wait for one: not generated yet."""
        return max(0, self.missing - self.failed - self.on_the_way)

    @property
    def exportable(self) -> bool:
        """Whether an export of every format can run: the branch has turns, each with its clip."""
        return self.last_turn > 0 and not self.missing and not self.clip_missing

    def blocker(self, fmt: str = "mp4") -> str:
        """Why an export to ``fmt`` can't run and what to do ("" when it can): the Export button's
        tooltip. Subtitles and storyboard sheets are made without a clip whose file is gone
        (:func:`made_without_clips`); the other formats need it."""
        if self.last_turn <= 0:
            return NO_TURNS_TIP
        if not self.missing and self.clip_missing and not made_without_clips(fmt):
            note = self._clip_missing_note()
            return note[:1].upper() + note[1:]
        if not self.missing:
            return ""
        if self.on_the_way == self.missing:
            return "Wait for the branch's generations to finish (the queue shows them)."
        return "Generate every turn of the branch first (Ctrl+Shift+G)."

    def text(self, fmt: str = "mp4") -> str:
        """What the dialog says of the branch, for an export to ``fmt``."""
        if self.last_turn <= 0:
            return f"The branch has no turns: there is nothing to export. {NO_TURNS_TIP}"
        turns = f"{self.last_turn} turn{'s' if self.last_turn != 1 else ''}"
        ending = f": “{self.ending}”" if self.ending else ""
        return f"The branch ending at turn {self.last_turn}{ending}\n{turns}, {self._state(fmt)}"

    def _state(self, fmt: str) -> str:
        """How far the branch's clips are, each reason a turn lacks one said apart: a failed
        turn needs a re-roll or a retry, one on its way only time, one never generated a start."""
        if not self.missing and self.clip_missing and made_without_clips(fmt):
            return "all generated, but " + self._made_without_note(fmt) + self._stale_note()
        if not self.missing and self.clip_missing:
            return "all generated, but " + self._clip_missing_note()
        if not self.missing:
            return "all generated." + self._stale_note()
        parts = []
        if self.failed:
            parts.append(f"{self.failed} failed (re-roll {'it' if self.failed == 1 else 'them'} with R, or "
                         "Retry in the queue)")
        if self.on_the_way:
            parts.append(f"{self.on_the_way} still queued or being generated")
        if self.never_generated:
            parts.append(f"{self.never_generated} not generated yet")
        state = _joined(parts) + ": the export needs every turn's clip."
        if self.clip_missing:
            note = self._clip_missing_note()
            state += f" And {note}"
        if self.on_the_way == self.missing:
            return state + " Export comes on once they are done."
        return state + (" Turn › Generate missing turns of the branch (Ctrl+Shift+G) queues every turn without "
                        "a clip" + (", failed ones included." if self.failed else "."))

    def _clip_missing_note(self) -> str:
        """The turns whose clip file is gone and what makes it again ("" for none)."""
        if not self.clip_missing:
            return ""
        from studio.ui.clip_presence import turn_list

        one = len(self.clip_missing) == 1
        return (f"the clip{'' if one else 's'} of {turn_list(self.clip_missing)} {'is' if one else 'are'} missing "
                f"(moved or deleted?). Re-roll {'it' if one else 'each'} (R): the new take is used in place of the "
                "missing one. Or put the file back.")

    def _made_without_note(self, fmt: str) -> str:
        """The turns whose clip file is gone, for a format made without it (subtitles, a sheet):
        how the export shows them, and what a video needs."""
        from studio.ui.clip_presence import turn_list

        one = len(self.clip_missing) == 1
        it = "it" if one else "them"
        if fmt in ("srt", "vtt"):
            made = f"the subtitles time {it} by the length {'its take was' if one else 'their takes were'} made with"
        else:
            made = f"the storyboard shows {it} by {'its poster' if one else 'their posters'}, or a plain panel"
        return (f"the clip{'' if one else 's'} of {turn_list(self.clip_missing)} {'is' if one else 'are'} missing "
                f"(moved or deleted?): {made}, and the export's note names {it}. A video or timeline needs "
                f"{it}: re-roll {'it' if one else 'each'} (R), or put the file back.")

    def _stale_note(self) -> str:
        """Which turns the export would show from a stale take and why (its instruction was
        edited, an earlier turn changed, the start state changed), said before the export as its
        notes say it after: the episode then jumps where a turn does not follow on from the one
        before, or shows what a turn no longer says."""
        if not self.stale:
            return ""
        from studio.export.stale import stale_groups, stale_sentence

        whys = (self.stale_why + ("",) * len(self.stale))[:len(self.stale)]
        said = stale_sentence(stale_groups(zip(self.stale, whys, strict=True)), _turns_named)
        first = min(self.stale)
        return (f" {said[:1].upper()}{said[1:]}: Shift+R on turn {first} re-rolls it and the turns after it, for "
                "an episode that follows on; or export the branch as it is.")


def made_without_clips(fmt: str) -> bool:
    """Whether an export to ``fmt`` is made where a turn's clip file is gone (subtitles and
    storyboard sheets need no picture of it; a video, GIF or timeline does)."""
    from studio.export.api import WITHOUT_PICTURES

    return fmt in {code.value for code in WITHOUT_PICTURES}


def _turns_named(numbers: Sequence[int]) -> str:
    """``numbers`` as the dialog names turns: the first :data:`STALE_TURNS_NAMED`, the rest
    counted ("3, 4, 5, 6, 7, 8 and 4 more")."""
    shown = [str(number) for number in numbers[:STALE_TURNS_NAMED]]
    if len(numbers) > STALE_TURNS_NAMED:
        shown.append(f"{len(numbers) - STALE_TURNS_NAMED} more")
    return _joined(shown)


def _label(choices: tuple[Choice, ...], code: str) -> str:
    """The words ``choices`` show for ``code`` (the code itself where none has it)."""
    return next((choice.label for choice in choices if choice.code == code), code)


def _tip(choices: tuple[Choice, ...], code: str) -> str:
    """The tooltip of ``code``'s choice ("" where none has it)."""
    return next((choice.tip for choice in choices if choice.code == code), "")


def _size_text(size: tuple[int, int]) -> str:
    return f"{size[0]} × {size[1]}"


def _joined(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


class ExportDialog(QDialog):
    def __init__(self, default_out: Path, title: str, parent: QWidget | None = None,
                 branch: BranchFacts | None = None, previous: ExportChoices | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Export branch — {title}" if title else "Export branch")
        # the ending turn's words as written (never markup); a long word wraps, not widens the dialog
        self.branch_label = QLabel("", self)
        self.branch_label.setTextFormat(Qt.TextFormat.PlainText)
        self.branch_label.setObjectName("exportBranch")
        self.branch_label.setWordWrap(True)
        self.branch_label.setVisible(False)
        self.branch: BranchFacts | None = None
        """What the dialog says about the branch (None: nothing, and nothing keeps Export off)."""
        self._facts_source: Callable[[], BranchFacts] | None = None
        self._followed: list[SignalInstance] = []
        self.default_stem = default_out.stem or "episode"
        self.default_folder = default_out.parent
        """Where a relative path (a bare file name) lands: the exports folder, not the
        studio's working folder, which the user never sees."""
        self.path = QLineEdit(str(default_out), self)
        self.path.setAccessibleName("File")  # its row holds a button too: no buddy
        self.path.setPlaceholderText("the file to write, e.g. ~/Videos/episode.mp4")
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        self.format = QComboBox(self)
        fill_choices(self.format, FORMAT_CHOICES)
        # bound methods, not lambdas holding the dialog: a lambda connected to a child's signal kept
        # every closed dialog alive in the window
        self.format.currentIndexChanged.connect(self._format_index_changed)
        self.keep_size = QCheckBox("clips' own size", self)
        self.keep_size.setChecked(True)
        self.width_box = QSpinBox(self)
        self.width_box.setRange(16, 8192)
        self.width_box.setValue(720)
        self.width_box.editingFinished.connect(self._even_size)
        self.width_box.setPrefix("width ")
        self.width_box.setAccessibleName("Video width")
        self.width_box.setSuffix(" px")
        self.height_box = QSpinBox(self)
        self.height_box.setRange(16, 8192)
        self.height_box.setValue(480)
        self.height_box.editingFinished.connect(self._even_size)
        self.height_box.setPrefix("height ")
        self.height_box.setAccessibleName("Video height")
        self.height_box.setSuffix(" px")
        self.fps = QDoubleSpinBox(self)
        self.fps.setRange(0, MAX_DIALOG_FPS)
        self.fps.setSpecialValueText("clips' own")
        self.fps.setValue(0)
        self.crossfade = QDoubleSpinBox(self)
        self.crossfade.setRange(0, 10)
        self.crossfade.setSingleStep(0.25)
        self.crossfade.setSuffix(" s")
        self.captions = QComboBox(self)
        fill_choices(self.captions, CAPTION_CHOICES)
        self.captions.currentIndexChanged.connect(self._captions_changed)
        self.overlay = QCheckBox("stamina, social and fun bars", self)
        # No title card unless one is written, as on the command line: filled with the project's
        # name, every export from the window (subtitles alone too) started 2 s later than the same
        # export from the command line, and an SRT made by either beside the other's video ran off.
        self.title = QLineEdit("", self)
        self.title.setAccessibleName("Title card")  # its row holds the duration too: no buddy
        self.title.setPlaceholderText(f"e.g. {title} (empty: no title card)" if title else "empty: no title card")
        self.title_duration = self._card_seconds("Title card duration")
        self.end_card = QLineEdit("", self)
        self.end_card.setAccessibleName("End card")
        self.end_card.setPlaceholderText("empty: no end card")
        self.end_card_duration = self._card_seconds("End card duration")
        self.card_note = QLabel("A title card delays the subtitles and captions by its duration; an end card "
                                "adds its duration at the end.", self)
        self.card_note.setObjectName("dimLabel")
        self.card_note.setWordWrap(True)
        self.title.setToolTip(self.card_note.text())
        self.end_card.setToolTip("Shown after the last turn, for its duration.")
        self.panels = QComboBox(self)
        for count, text in ((1, "1 per page: one large panel"), (2, "2 per page: side by side"),
                            (3, "3 per page: text beside each panel")):
            self.panels.addItem(text, count)
        self.panels.setCurrentIndex(2)
        self.aspect = QComboBox(self)
        self.aspect.addItem("the clip's own shape", "clip")
        self.aspect.addItem("16:9", "16:9")

        path_row = QHBoxLayout()
        path_row.addWidget(self.path, 1)
        path_row.addWidget(browse)
        size_row = QHBoxLayout()
        size_row.addWidget(self.keep_size)
        size_row.addWidget(self.width_box)
        size_row.addWidget(self.height_box)
        self.size_note = QLabel("", self)
        self.size_note.setObjectName("dimLabel")
        self.size_note.setWordWrap(True)
        self.size_note.hide()
        form = QFormLayout(self)
        form.addRow(self.branch_label)
        form.addRow("File", path_row)
        form.addRow("Format", self.format)
        form.addRow("Size", size_row)
        form.addRow("", self.size_note)
        form.addRow("Frame rate", self.fps)
        form.addRow("Crossfade", self.crossfade)
        form.addRow("Captions", self.captions)
        form.addRow("Overlay", self.overlay)
        title_row = QHBoxLayout()
        title_row.addWidget(self.title, 1)
        title_row.addWidget(self.title_duration)
        end_row = QHBoxLayout()
        end_row.addWidget(self.end_card, 1)
        end_row.addWidget(self.end_card_duration)
        form.addRow("Title card", title_row)
        form.addRow("End card", end_row)
        form.addRow("", self.card_note)
        form.addRow("Storyboard panels", self.panels)
        form.addRow("Panel shape", self.aspect)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                   parent=self)
        self.export_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.export_button.setText("Export")
        self.path.textChanged.connect(self._path_changed)
        self.path.editingFinished.connect(self._follow_typed_format)
        self.set_branch(branch)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.keep_size.toggled.connect(self._keep_size)
        self.keep_size.toggled.emit(True)
        suffix = default_out.suffix.lstrip(".")
        if suffix in FORMATS:
            self.choose_format(suffix)
        if previous is not None:
            self.restore(previous)
        self._enable_for(self.chosen_format())

    def _card_seconds(self, name: str) -> QDoubleSpinBox:
        from studio.export.options import MAX_CARD_SECONDS

        box = QDoubleSpinBox(self)
        box.setRange(0.25, MAX_CARD_SECONDS)
        box.setSingleStep(0.5)
        box.setValue(2.0)
        box.setSuffix(" s")
        box.setAccessibleName(name)
        return box

    def chosen_format(self) -> str:
        """The chosen format's code ("mp4", "pdf", ...)."""
        return chosen_code(self.format)

    def choose_format(self, fmt: str) -> None:
        """Choose the format whose code is ``fmt``."""
        choose_code(self.format, fmt)

    def chosen_captions(self) -> str:
        """The chosen caption mode's code ("none", "burn", "srt")."""
        return chosen_code(self.captions)

    def choose_captions(self, mode: str) -> None:
        """Choose the caption mode whose code is ``mode``."""
        choose_code(self.captions, mode)

    @property
    def missing(self) -> int:
        """Turns of the branch without a finished take: while there are any, Export stays off."""
        return self.branch.missing if self.branch is not None else 0

    def set_branch(self, branch: BranchFacts | None) -> None:
        """Say ``branch``'s facts, and allow Export only when it can run; what the user chose in
        the form stays as it is."""
        self.branch = branch
        self._show_branch()
        self._show_clip_size()

    def _show_branch(self) -> None:
        """Say the branch's facts for the chosen format, and allow Export only where it can run
        (subtitles and sheets are made without a clip whose file is gone, a video is not)."""
        branch = self.branch
        self.branch_label.setText(breakable(branch.text(self.chosen_format())) if branch is not None else "")
        self.branch_label.setVisible(branch is not None)
        self._path_changed(self.path.text())

    def follow(self, facts: Callable[[], BranchFacts], *changed: SignalInstance) -> None:
        """Read the branch's facts again from ``facts`` at each signal of ``changed`` (the
        project's change signal, the branch view's) while the dialog is open: a take landing,
        a turn failing or deleted, changes whether the export can run (read once, Export stayed
        off after the last clip landed, or on for a clip gone)."""
        self._stop_following()
        self._facts_source = facts
        self._followed = list(changed)
        for signal in changed:
            signal.connect(self._project_changed)
        self.set_branch(facts())

    def _project_changed(self, _changes: object = None) -> None:
        if self._facts_source is not None:
            self.set_branch(self._facts_source())

    def _stop_following(self) -> None:
        for signal in self._followed:
            try:
                signal.disconnect(self._project_changed)
            except (RuntimeError, TypeError):
                pass  # the signal's object is gone already (its project closed)
        self._followed = []
        self._facts_source = None

    def done(self, result: int) -> None:
        """Closed (Export, Cancel, Escape): the dialog stops following the project, whose
        window may close before this dialog object is deleted."""
        self._stop_following()
        super().done(result)

    def restore(self, choices: ExportChoices) -> None:
        """The form as ``choices`` left it (the last export of this project in this window):
        the same file, format and options, for an export made again after a re-roll."""
        self.choose_format(choices.fmt)
        self.path.setText(str(choices.out))
        self.keep_size.setChecked(choices.size is None)
        if choices.size is not None:
            self.width_box.setValue(choices.size[0])
            self.height_box.setValue(choices.size[1])
        self.fps.setValue(choices.fps or 0)
        self.crossfade.setValue(choices.crossfade)
        self.choose_captions(choices.captions)
        self.overlay.setChecked(choices.overlay)
        self.title.setText(choices.title)
        self.title_duration.setValue(choices.title_duration)
        self.end_card.setText(choices.end_card)
        self.end_card_duration.setValue(choices.end_card_duration)
        for combo, value in ((self.panels, choices.panels), (self.aspect, choices.aspect)):
            index = combo.findData(value)
            if index >= 0:
                combo.setCurrentIndex(index)

    def _browse(self) -> None:
        fmt = self.chosen_format()
        text = self.path.text().strip()
        start = str(self.target(text)) if text else str(self.default_folder / f"{self.default_stem}.{fmt}")
        path, _ = QFileDialog.getSaveFileName(self, "Export to", start, f"{fmt.upper()} (*.{fmt})")
        if path:
            self.path.setText(path)
            self._follow_typed_format()

    def _path_changed(self, text: str) -> None:
        blocker = self.branch.blocker(self.chosen_format()) if self.branch is not None else ""
        if blocker:
            self.export_button.setEnabled(False)
            self.export_button.setToolTip(blocker)
            return
        self.export_button.setEnabled(bool(text.strip()))
        self.export_button.setToolTip("" if text.strip() else "Choose the file to write first.")

    def typed_format(self, text: str) -> str | None:
        """The export format the path's own suffix names ("board.PDF" -> "pdf"), or None (no
        suffix, or one that is no export format: "episode v1.2")."""
        suffix = Path(text.strip()).suffix.lstrip(".").lower()
        return suffix if suffix in FORMATS else None

    def _follow_typed_format(self) -> None:
        """A path typed with another format's suffix chooses that format: "episode.pdf" asks for
        a PDF sheet, not for a video written to "episode.mp4"."""
        fmt = self.typed_format(self.path.text())
        if fmt is not None and fmt != self.chosen_format():
            self.choose_format(fmt)

    def _format_index_changed(self, _index: int) -> None:
        self._format_changed(self.chosen_format())

    def _captions_changed(self, _index: int) -> None:
        """The captions list's tooltip says what the chosen mode makes (while captions are on)."""
        if self.captions.isEnabled():
            self.captions.setToolTip(_tip(CAPTION_CHOICES, self.chosen_captions()))

    def _format_changed(self, fmt: str) -> None:
        text = self.path.text().strip()
        if text:
            self.path.setText(str(with_format(self.target(text), fmt)))
        from studio.export.encoding import MAX_GIF_FPS  # a GIF's frame delays are whole hundredths

        self.fps.setMaximum(MAX_GIF_FPS if fmt == "gif" else MAX_DIALOG_FPS)
        self._enable_for(fmt)
        self._show_branch()

    def _enable_for(self, fmt: str) -> None:
        """Only the controls ``fmt`` uses are on; the others keep their values for a format that
        uses them, and say which formats do (the export leaves them out: see
        :meth:`ExportChoices.options`)."""
        from studio.export import ExportFormat
        from studio.export.encoding import CAPTION_USES, OPTION_USES

        uses = {use.field: use.formats for use in OPTION_USES}
        uses["captions"] = frozenset().union(*(use.formats for use in CAPTION_USES.values()))
        chosen = ExportFormat(fmt)
        for field, widgets in (("size", (self.keep_size,)), ("fps", (self.fps,)), ("crossfade", (self.crossfade,)),
                               ("captions", (self.captions,)), ("overlay", (self.overlay,)),
                               ("panels_per_page", (self.panels,)), ("panel_aspect", (self.aspect,))):
            formats = uses[field]
            on = chosen in formats
            names = _joined([choice.label for choice in FORMAT_CHOICES if ExportFormat(choice.code) in formats])
            for widget in widgets:
                widget.setEnabled(on)
                widget.setToolTip("" if on else f"Not used by {_label(FORMAT_CHOICES, fmt)}: only by {names}.")
        self.format.setToolTip(_tip(FORMAT_CHOICES, fmt))
        if self.captions.isEnabled():
            self.captions.setToolTip(_tip(CAPTION_CHOICES, self.chosen_captions()))
        from studio.export.encoding import EVEN_SIDED

        for box in (self.width_box, self.height_box):
            box.setSingleStep(2 if chosen in EVEN_SIDED else 1)
        self._keep_size(self.keep_size.isChecked())

    def _even_size(self) -> None:
        """An mp4's or webm's width and height even, as their encoders need (4:2:0): an odd side
        typed loses its last pixel, as the clips' own odd size does, and the form shows it
        (the export refused 721x480 once the dialog had closed)."""
        from studio.export import ExportFormat
        from studio.export.encoding import encodable_size

        size = (self.width_box.value(), self.height_box.value())
        width, height = encodable_size(ExportFormat(self.chosen_format()), size)
        self.width_box.setValue(width)
        self.height_box.setValue(height)

    def target(self, text: str) -> Path:
        """The file the path field names, with the chosen format's suffix: a folder (one that
        exists, or a name ending in a slash) gets a file of the default name in it; a relative
        path is taken from the default folder (the exports folder)."""
        path, fmt = Path(text).expanduser(), self.chosen_format()
        if not path.is_absolute():
            path = self.default_folder / path
        if path.is_dir() or os.path.basename(text.rstrip()) in ("", ".", ".."):  # "…/", ".": a folder
            return path / f"{self.default_stem}.{fmt}"
        return path if path.suffix.lower() == f".{fmt}" else with_format(path, fmt)

    def _show_clip_size(self) -> None:
        """While "clips' own size" is ticked, the greyed boxes show the size the export makes:
        the branch's clips' (the first turn's), with a note where the clips differ."""
        if not self.keep_size.isChecked() or self.branch is None:
            self.size_note.hide()
            return
        size = self.branch.clip_size()
        if size is not None:
            self.width_box.setValue(size[0])
            self.height_box.setValue(size[1])
        note = self.branch.size_note()
        self.size_note.setText(note)
        self.size_note.setVisible(bool(note) and self.keep_size.isEnabled())

    def _keep_size(self, on: bool) -> None:
        sized = self.keep_size.isEnabled()  # off for a format with no size of its own (a sheet, subtitles)
        self.width_box.setEnabled(sized and not on)
        self.height_box.setEnabled(sized and not on)
        self._show_clip_size()
        for box in (self.width_box, self.height_box):
            box.setToolTip(self.keep_size.toolTip())

    def choices(self) -> ExportChoices:
        """What the form asks for; a typed suffix of another format chooses that format first
        (as leaving the path field does), so the file and its format always agree, and a
        video's size is made even (:meth:`_even_size`)."""
        self._follow_typed_format()
        self._even_size()
        fps = self.fps.value()
        return ExportChoices(
            out=self.target(self.path.text().strip()),
            fmt=self.chosen_format(),
            size=None if self.keep_size.isChecked() else (self.width_box.value(), self.height_box.value()),
            fps=fps or None,
            crossfade=self.crossfade.value(),
            captions=self.chosen_captions(),
            overlay=self.overlay.isChecked(),
            panels=int(self.panels.currentData()),
            aspect=str(self.aspect.currentData()),
            title=self.title.text().strip(),
            title_duration=self.title_duration.value(),
            end_card=self.end_card.text().strip(),
            end_card_duration=self.end_card_duration.value(),
        )
