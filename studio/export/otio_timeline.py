"""An OpenTimelineIO timeline of the branch, for finishing the episode in an editor.

Clips reference the take files by absolute ``file://`` URL (each file's available range at
its own frame rate); the source ranges are counted in the episode's output frames, so that
every cut falls on the exported video's frame at any output rate. A dissolve becomes an
OTIO transition centred on the cut point; the clips around it are trimmed to the cut and
the transition uses the trimmed frames as handles, so the timeline's duration equals the
exported video's. A turn whose duration is longer than its clip is followed by a freeze
frame of its last frame.
Every cue (narration, dialogue line, or the action's sentence) is a marker on the track,
at the frames where the video shows it as a caption.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.export.branch import Branch
from studio.export.cues import CueKind, split_span, turn_cues
from studio.export.timeline import Timeline, output_frames
from studio.storage.ffmpeg import StreamInfo

if TYPE_CHECKING:
    import opentimelineio as otio


MARKER_COLOURS = {CueKind.DIALOGUE: "GREEN", CueKind.NARRATION: "PURPLE", CueKind.ACTION: "BLUE"}


def build_otio(branch: Branch, infos: list[StreamInfo], timeline: Timeline, name: str,
               title: str = "", end_card: str = "") -> otio.schema.Timeline:
    import opentimelineio as otio

    rate = float(timeline.fps)

    def span_of(frames: float, at: float) -> otio.opentime.TimeRange:
        return otio.opentime.TimeRange(otio.opentime.RationalTime(0, at), otio.opentime.RationalTime(frames, at))

    track = otio.schema.Track(name="Episode", kind=otio.schema.TrackKind.Video)
    if timeline.title_frames:
        track.append(otio.schema.Gap(name=f"Title card: {title}", source_range=span_of(timeline.title_frames, rate),
                                     metadata={"kamishibai": {"card": "title", "text": title}}))
    before, after = timeline.crossfade // 2, timeline.crossfade - timeline.crossfade // 2
    for span, turn, info in zip(timeline.turns, branch.turns, infos, strict=True):
        if span.index > 0 and timeline.crossfade:
            track.append(otio.schema.Transition(
                name="Dissolve", transition_type=otio.schema.TransitionTypes.SMPTE_Dissolve,
                in_offset=otio.opentime.RationalTime(before, rate), out_offset=otio.opentime.RationalTime(after, rate),
            ))
        # Ranges are counted in the episode's output frames (the clip's own rate for its length
        # on disk): the cuts then fall exactly where the video's do, at any --fps. Rounding each
        # clip to its own frames instead let the timeline drift from the video turn by turn.
        clip_rate = float(info.fps)
        clip_frames = output_frames(info.frames, info.fps, timeline.fps)
        head = min(span.head_trim, clip_frames - 1)
        shown = span.shown_to - span.shown_from
        played = min(shown, clip_frames - head)
        metadata: dict[str, Any] = {"kamishibai": {
            "turn": turn.number, "node_id": turn.node_id, "take_id": turn.take_id,
            "instruction": turn.instruction, "action": turn.action, "character": turn.character,
            "state": turn.state.as_dict(), "duration": turn.duration,
            "dialogue": [[line.speaker, line.text] for line in turn.story.dialogue],
            "narration": turn.story.narration, "shot_notes": turn.story.shot_notes,
        }}
        url = Path(turn.clip).resolve().as_uri()
        track.append(otio.schema.Clip(
            name=f"Turn {turn.number}",
            media_reference=otio.schema.ExternalReference(target_url=url, available_range=span_of(info.frames,
                                                                                                  clip_rate)),
            source_range=otio.opentime.TimeRange(otio.opentime.RationalTime(head, rate),
                                                 otio.opentime.RationalTime(played, rate)),
            metadata=metadata,
        ))
        if shown > played:  # the turn lasts longer than its clip: hold the last frame
            track.append(otio.schema.Clip(
                name=f"Turn {turn.number} (hold)",
                media_reference=otio.schema.ExternalReference(target_url=url, available_range=span_of(
                    info.frames, clip_rate)),
                source_range=otio.opentime.TimeRange(otio.opentime.RationalTime(info.frames - 1, clip_rate),
                                                     otio.opentime.RationalTime(shown - played, rate)),
                effects=[otio.schema.FreezeFrame()],
                metadata={"kamishibai": {"turn": turn.number, "hold": True}},
            ))
        for timed in split_span(turn_cues(turn), span.shown_from, span.shown_to):
            track.markers.append(otio.schema.Marker(
                name=timed.cue.shown,
                marked_range=otio.opentime.TimeRange(otio.opentime.RationalTime(timed.start, rate),
                                                     otio.opentime.RationalTime(timed.end - timed.start, rate)),
                color=MARKER_COLOURS[timed.cue.kind],
                metadata={"kamishibai": {"turn": turn.number, "kind": timed.cue.kind.value,
                                         "speaker": timed.cue.speaker, "text": timed.cue.text}},
            ))
    if timeline.end_frames:
        track.append(otio.schema.Gap(name=f"End card: {end_card}", source_range=span_of(timeline.end_frames, rate),
                                     metadata={"kamishibai": {"card": "end", "text": end_card}}))
    result = otio.schema.Timeline(name=name, metadata={"kamishibai": {"leaf_id": branch.leaf_id,
                                                                      "project": branch.project_name}})
    result.tracks.append(track)
    return result


def write_otio(path: Path, branch: Branch, infos: list[StreamInfo], timeline: Timeline, name: str,
               title: str = "", end_card: str = "") -> None:
    import opentimelineio as otio

    # the adapter named, not guessed from the suffix: any file name will do
    otio.adapters.write_to_file(build_otio(branch, infos, timeline, name, title, end_card), str(path),
                                adapter_name="otio_json")
