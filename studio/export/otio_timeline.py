"""An OpenTimelineIO timeline of the branch, for finishing the episode in an editor.

Clips reference copies of the take files in a media folder beside the timeline, by relative
URL (:mod:`studio.export.otio_media`; each file's available range at its own frame rate);
the source ranges are counted in the episode's output frames, so that
every cut falls on the exported video's frame at any output rate. A dissolve becomes an
OTIO transition centred on the cut point; the clips around it are trimmed to the cut and
the transition uses the trimmed frames as handles, so the timeline's duration equals the
exported video's. A side of a dissolve is shortened to the media its clip has beyond the
cut (a still, or a clip shorter than half the dissolve, has less head than the dissolve
wants), and a dissolve left with no frames on either side is a cut: editors refuse a
transition that reaches outside a clip's media. A turn whose duration is longer than its
clip is followed by a hold: a clip of its own of the clip's last frame (with the dissolve's
frames after it as a handle), not a freeze-frame effect, which most importers drop. The title
and end cards are clips of the cards as the video draws them, in the same media folder.
A clip's source range holds only the output frames that lie wholly within its media: at
another rate its last output frame can reach past the end of the media by a fraction of a
frame (a one-frame still at 8 fps lasts 0.125 s, its 4 output frames at 30 fps 0.133 s), and
editors flag a clip that runs past its media. That frame joins the freeze frame (above the
clip's own rate the video, too, shows the clip's last frame there), so every cut stays where
the video's is.
Every subtitle (of narration, a dialogue line, or the action's sentence; a long one cut into
several as the SRT cuts it) is a marker on the track, named with its text, at the frames
where the video shows it as a caption and the SRT as a subtitle
(:func:`~studio.export.subtitles.episode_captions`; a run of very short turns shares one
caption, whose markers' metadata lists their ``turns``).
"""

from __future__ import annotations

from fractions import Fraction
from math import floor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.core.text import one_line, unix_line_breaks
from studio.export.bidi_text import directed_lines
from studio.export.branch import Branch, clean_text
from studio.export.cues import Cue, CueKind, part_starts
from studio.export.otio_media import TimelineMediaFolder
from studio.export.subtitles import episode_captions, subtitle_lines
from studio.export.timeline import Timeline
from studio.storage.ffmpeg import StreamInfo

if TYPE_CHECKING:
    import opentimelineio as otio


MARKER_COLOURS = {CueKind.DIALOGUE: "GREEN", CueKind.NARRATION: "PURPLE", CueKind.ACTION: "BLUE"}


def build_otio(branch: Branch, infos: list[StreamInfo], timeline: Timeline, media: TimelineMediaFolder,
               title: str = "", end_card: str = "") -> otio.schema.Timeline:
    """The timeline, named for the project (the title card is a clip in it, named as its card)."""
    import opentimelineio as otio

    rate = float(timeline.fps)
    # An editor's name fields hold one line (core's one_line): a title of two lines, as the card shows
    # it, named the timeline with the line break in it, and a right-to-left override named it backwards;
    # the cards' metadata keep their lines.
    name = one_line(branch.project_name)
    # a card's text pasted from a Windows file ends its lines in CR LF: its metadata keeps the lines
    title, end_card = (clean_text(unix_line_breaks(text)).strip() for text in (title, end_card))

    def span_of(frames: float, at: float) -> otio.opentime.TimeRange:
        return otio.opentime.TimeRange(otio.opentime.RationalTime(0, at), otio.opentime.RationalTime(frames, at))

    track = otio.schema.Track(name="Episode", kind=otio.schema.TrackKind.Video)
    def card(which: str, text: str, frames: int) -> otio.schema.Clip:
        return otio.schema.Clip(
            name=f"{which.capitalize()} card: {one_line(text)}",
            media_reference=otio.schema.ExternalReference(target_url=media.card(which, text, frames),
                                                          available_range=span_of(frames, rate)),
            source_range=span_of(frames, rate), metadata={"kamishibai": {"card": which, "text": text}})

    if timeline.title_frames:
        track.append(card("title", title, timeline.title_frames))
    tail: int | None = None
    """Output frames of media after the last clip's source range (None: a freeze frame, which
    holds its one frame through any dissolve)."""
    for span, turn, info in zip(timeline.turns, branch.turns, infos, strict=True):
        # Ranges are counted in the episode's output frames (the clip's own rate for its length
        # on disk): the cuts then fall exactly where the video's do, at any --fps. Rounding each
        # clip to its own frames instead let the timeline drift from the video turn by turn.
        # The cuts are the video's (the Timeline's shown_from and shown_to): only the split of a
        # turn's frames between its clip and its freeze frame is decided here. The clip plays the
        # output frames that lie wholly in its media (the Timeline's output_frames rounds, so its
        # last one can end past the media, by less than a frame); the rest is its last frame, held.
        clip_rate = float(info.fps)
        whole = media_after(info, 0, timeline.fps)  # 0: the clip is shorter than one output frame
        head = min(span.head_trim, max(whole - 1, 0))  # the clip starts at 0: all of its head is media
        shown = span.shown_to - span.shown_from
        if not shown:  # fewer frames than turns (see plan_timeline): no clip of 0 frames for editors to refuse
            track.markers.append(_unseen_turn_marker(span.shown_from, rate, turn.number, turn.node_id, turn.take_id))
            continue
        played = min(shown, whole - head)
        if span.index > 0 and timeline.crossfade:
            # in_offset plays the incoming clip's media before its source range, out_offset the
            # outgoing clip's after its own: each side keeps only the frames that exist. The cut
            # is where the Timeline put it (fade // 2 frames into the dissolve, or later where a
            # one-frame first turn needs its frame), so the sides are the dissolve's frames either side.
            after = timeline.crossfade - span.head_trim
            into, out_of = head, after if tail is None else min(after, tail)
            if into or out_of:  # else a cut
                track.append(otio.schema.Transition(
                    name="Dissolve", transition_type=otio.schema.TransitionTypes.SMPTE_Dissolve,
                    in_offset=otio.opentime.RationalTime(into, rate),
                    out_offset=otio.opentime.RationalTime(out_of, rate),
                ))
        metadata: dict[str, Any] = {"kamishibai": {
            "turn": turn.number, "node_id": turn.node_id, "take_id": turn.take_id,
            "instruction": turn.instruction, "action": turn.action, "character": turn.character,
            "state": turn.state.as_dict(), "duration": turn.duration,
            "dialogue": [[line.speaker, line.text] for line in turn.story.dialogue],
            "narration": turn.story.narration, "shot_notes": turn.story.shot_notes,
        }}
        if whole:
            url = media.clip(turn)
            track.append(otio.schema.Clip(
                name=f"Turn {turn.number}",
                media_reference=otio.schema.ExternalReference(target_url=url, available_range=span_of(
                    info.frames, clip_rate)),
                source_range=otio.opentime.TimeRange(otio.opentime.RationalTime(head, rate),
                                                     otio.opentime.RationalTime(played, rate)),
                metadata=metadata,
            ))
            tail = media_after(info, head + played, timeline.fps)
        else:  # no whole output frame to play: the turn is its clip's last frame, frozen
            metadata["kamishibai"]["hold"] = True
        if shown > played or not whole:  # the turn outlasts its clip's whole frames: hold the last one
            # a clip of the last frame, not a freeze-frame effect (most importers drop effects); its
            # media runs on for a dissolve's frames after it, the outgoing side's handle
            held, handle = shown - played, timeline.crossfade
            track.append(otio.schema.Clip(
                name=f"Turn {turn.number} (hold)" if whole else f"Turn {turn.number}",
                media_reference=otio.schema.ExternalReference(
                    target_url=media.hold(turn, info, held + handle), available_range=span_of(held + handle, rate)),
                source_range=span_of(held, rate),
                metadata={"kamishibai": {"turn": turn.number, "hold": True}} if whole else metadata,
            ))
            tail = handle
    for said in episode_captions(branch, timeline):
        numbers = [branch.turns[index].number for index in said.block.turns]
        for timed in said.subtitles:  # the SRT's subtitles, one marker each: all three split the text alike
            marker: dict[str, object] = {"turn": numbers[0], "kind": timed.cue.kind.value,
                                         "speaker": timed.cue.speaker, "text": timed.cue.text}
            if len(numbers) > 1:  # short turns sharing one caption
                marker["turns"] = numbers
            track.markers.append(otio.schema.Marker(
                name=marker_name(timed.cue, " ".join(cue.shown for cue in said.block.cues)),
                marked_range=otio.opentime.TimeRange(otio.opentime.RationalTime(timed.start, rate),
                                                     otio.opentime.RationalTime(timed.end - timed.start, rate)),
                color=MARKER_COLOURS[timed.cue.kind],
                metadata={"kamishibai": marker},
            ))
    if timeline.end_frames:
        track.append(card("end", end_card, timeline.end_frames))
    result = otio.schema.Timeline(name=name, metadata={"kamishibai": {
        "leaf_id": branch.leaf_id, "project": branch.project_name, "title": title, "frame_rate": rate,
        "media": media.name}})
    result.tracks.append(track)
    return result


def _unseen_turn_marker(frame: int, rate: float, number: int, node_id: str, take_id: str) -> otio.schema.Marker:
    """A point marker for a turn that the episode shows for no whole frame (its frames all
    lie in dissolves, shared with its neighbours): a clip of 0 frames is refused by editors,
    and the marker still says where the turn is."""
    import opentimelineio as otio

    return otio.schema.Marker(
        name=f"Turn {number} (within the dissolve)", color="RED",
        marked_range=otio.opentime.TimeRange(otio.opentime.RationalTime(frame, rate),
                                             otio.opentime.RationalTime(0, rate)),
        metadata={"kamishibai": {"turn": number, "node_id": node_id, "take_id": take_id, "unseen": True}})


def marker_name(cue: Cue, context: str = "") -> str:
    """The cue as its marker's name: begun with a RIGHT-TO-LEFT MARK where it reads right to left
    but starts with a left-to-right letter ("Yuzu: مرحبا"), as an SRT line is (see
    :func:`~studio.export.subtitles.srt_cue_text`), so an editor shows the name at its right
    end and the line as Arabic reads; a cue of one direction is named as it is. A subtitle that
    joins lines of both directions ("Qiqi: Hi! / Yuzu: مرحبا") is named by its lines as the SRT
    breaks them (:func:`~studio.export.subtitles.subtitle_lines`), each in its own direction:
    on one line, the Arabic part read as a part of an English sentence."""
    if part_starts(cue.shown):
        return "\n".join(directed_lines(subtitle_lines(cue, context), cue.reads_rtl))
    return directed_lines([cue.shown], cue.reads_rtl)[0]


def media_after(info: StreamInfo, end: int, fps: Fraction) -> int:
    """Whole output frames (at ``fps``) of ``info``'s clip after its first ``end`` output frames."""
    return max(0, floor(Fraction(info.frames) * fps / info.fps) - end)


def write_otio(path: Path, branch: Branch, infos: list[StreamInfo], timeline: Timeline, media: TimelineMediaFolder,
               title: str = "", end_card: str = "") -> None:
    import opentimelineio as otio

    # The adapter named, not guessed from the suffix: any file name will do. Serialized to
    # text and written by Python, not by OTIO's own file writer: that one takes only a path it
    # can encode as UTF-8, and failed in a folder whose name is not (from a Latin-1 system).
    text = otio.adapters.write_to_string(build_otio(branch, infos, timeline, media, title, end_card),
                                         adapter_name="otio_json")
    path.write_text(text, encoding="utf-8")
