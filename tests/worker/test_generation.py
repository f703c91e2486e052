"""Generating takes: files, take fields, context, re-roll, re-roll branch, fill, events."""

from __future__ import annotations

import asyncio
import json
import time

import numpy as np
import pytest

from studio.core.commands import AddLocation, DeleteSubtree, EditInstruction
from studio.core.model import Location, TakeStatus
from studio.storage.media import probe, read_representation
from studio.worker import EventKind, JobStatus
from studio.worker.progress import PROGRESS_SCALE

from .conftest import Recorder
from .fake_engine import FakeScript


def test_generate_writes_media_then_commits_take(project, make_service, script: FakeScript) -> None:
    service = make_service()
    root = project.tree.root_id
    node_id, job_id = service.generate(root, "Character: Qiqi; Motion: wave [warn]", seed=1234,
                                       settings={"frames": 5})
    assert service.wait_jobs([job_id], 20)
    job = service.job(job_id)
    assert job.status is JobStatus.DONE and job.seed == 1234
    take = project.tree.takes[job.take_id]
    node = project.tree.node(node_id)
    assert node.selected_take_id == take.id
    assert take.status is TakeStatus.DONE and take.seed == 1234 and take.engine == "fake"
    assert take.engine_version == "fake-1"
    assert take.instruction_raw == node.instruction.raw
    assert take.parent_take_id == ""
    assert take.warnings == ("fake warning",)
    assert {"predict_s", "decode_s", "write_s"} <= set(take.timings)
    assert take.settings["frames"] == 5 and take.settings["height"] == script.height  # defaults merged
    assert take.conditioning["pose"] == 1234 % 7  # numpy scalar made JSON-able
    json.dumps(dict(take.conditioning))
    folder = project.take_media_dir(take.id)
    for rel in take.media_paths():
        assert rel.startswith(folder + "/")
        assert project.resolve(rel).is_file()
    info = probe(project.resolve(take.clip_path))
    assert (info.frames, info.height, info.width, info.fps) == (5, script.height, script.width, script.fps)
    assert info.codec.startswith("h264")
    representation, metadata = read_representation(project.resolve(take.representation_path))
    assert representation.shape == (4, 8) and metadata["representation_space"] == "fake/4x8"
    assert project.resolve(take.poster_path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(project.resolve(folder).glob(".*part*"))
    # state follows the take
    assert project.tree.state_of(node_id).stamina == 50 + 5 * take.deltas.stamina


def test_context_is_built_from_the_branch(project, make_service, script: FakeScript) -> None:
    from studio.core.commands import AddCastMember
    from studio.core.model import CastMember

    project.apply(AddCastMember(CastMember(id="mei", name="Mei", reference_images=(
        "media/characters/mei-front.png", "../../outside.png"))))
    project.apply(AddLocation(Location(id="img", name="Photo", kind="image", image_path="media/bg.png")))
    project.apply(AddLocation(Location(id="bad", name="Escape", kind="image", image_path="../../etc/passwd")))
    service = make_service()
    root = project.tree.root_id
    first, j1 = service.generate(root, "one")
    second, j2 = service.generate(first, "two")
    assert service.wait_jobs([j1, j2], 20)
    _third, j3 = service.generate(second, "three", settings={"fps": 4})
    assert service.wait_jobs([j3], 20)
    raw, context = script.contexts[-1]
    assert raw == "three"
    assert [t.instruction.raw for t in context.history] == ["one", "two"]
    take1, take2 = project.tree.selected_take(first), project.tree.selected_take(second)
    assert take1 is not None and take2 is not None
    assert context.history[0].deltas == take1.deltas
    assert context.history[1].motion_level == take2.motion_level
    assert context.history[1].conditioning["raw"] == "two"
    assert context.history[1].state == project.tree.state_of(second)
    assert context.state == project.tree.state_of(second)
    assert context.history[1].representation is not None
    np.testing.assert_array_equal(context.history[1].representation,
                                  read_representation(project.resolve(take2.representation_path))[0])
    assert context.history[1].engine == "fake" and context.history[1].representation_space == "fake/4x8"
    used = script.settings_seen[-1]
    assert used.fps == 4 and used.frames == script.frames
    locations = {loc.id: loc for loc in context.locations}
    assert locations["img"].image_path == str(project.path.resolve() / "media" / "bg.png")
    assert locations["bad"].image_path == ""
    mei = {member.id: member for member in context.cast}["mei"]
    assert mei.reference_images == (str(project.path.resolve() / "media" / "characters" / "mei-front.png"),)
    assert any("Mei" in w for w in project.tree.takes[service.job(j3).take_id].warnings)
    assert context.previous_clip is None  # the fake engine does not continue from clips
    assert any("Escape" in w for w in project.tree.takes[service.job(j3).take_id].warnings)
    assert project.tree.takes[service.job(j3).take_id].parent_take_id == take2.id


def test_history_is_cut_to_the_engines_window(project, make_service, script: FakeScript) -> None:
    service = make_service()
    first, j1 = service.generate(project.tree.root_id, "one")
    second, j2 = service.generate(first, "two")
    _, j3 = service.generate(second, "three", settings={"history_window": 1})
    _, j4 = service.generate(second, "four", settings={"history_window": 0})
    assert service.wait_jobs([j1, j2, j3, j4], 20)
    contexts = dict(script.contexts)
    assert [t.instruction.raw for t in contexts["three"].history] == ["two"]
    assert contexts["three"].history[0].representation is not None
    assert contexts["four"].history == ()
    assert contexts["four"].state == project.tree.state_of(second)


def test_representations_reach_only_engines_of_their_space(project, make_service, script: FakeScript) -> None:
    from .fake_engine import fake_registry

    registry = fake_registry(script, "fake", "twin", "other", spaces={"twin": "fake/4x8", "other": "other/4x8"})
    service = make_service(registry=registry)
    first, j1 = service.generate(project.tree.root_id, "one", engine="fake")
    _, j2 = service.generate(first, "by twin", engine="twin")
    _, j3 = service.generate(first, "by other", engine="other")
    assert service.wait_jobs([j1, j2, j3], 20)
    contexts = dict(script.contexts)
    same, foreign = contexts["by twin"].history[0], contexts["by other"].history[0]
    assert same.representation is not None and same.representation_space == "fake/4x8"
    assert foreign.representation is None and foreign.representation_space == "fake/4x8"
    assert foreign.engine == same.engine == "fake"
    assert foreign.deltas == same.deltas and foreign.instruction.raw == "one"  # text and state always pass


def test_reroll_makes_a_new_take_with_a_new_seed(project, make_service) -> None:
    service = make_service()
    node_id, j1 = service.generate(project.tree.root_id, "x", settings={"frames": 2})
    assert service.wait_jobs([j1], 10)
    j2 = service.reroll(node_id)
    j3 = service.reroll(node_id, seed=77)
    assert service.wait_jobs([j2, j3], 10)
    takes = project.tree.takes_of(node_id)
    assert len(takes) == 3
    assert service.job(j3).seed == 77
    assert len({service.job(j).seed for j in (j1, j2, j3)}) == 3
    assert project.tree.node(node_id).selected_take_id == service.job(j3).take_id
    assert all(t.settings["frames"] == 2 for t in takes)  # re-roll keeps the take's settings


def test_reroll_of_a_turn_with_later_turns_keeps_its_take(project, make_service) -> None:
    service = make_service()
    first, j1 = service.generate(project.tree.root_id, "one", settings={"frames": 2})
    assert service.wait_jobs([j1], 10)
    second, j2 = service.generate(first, "two", settings={"frames": 2})
    assert service.wait_jobs([j2], 10)
    chosen = project.tree.node(first).selected_take_id
    j3 = service.reroll(first)
    assert service.wait_jobs([j3], 10)
    new_take = service.job(j3).take_id
    assert new_take in project.tree.takes and len(project.tree.takes_of(first)) == 2
    assert project.tree.node(first).selected_take_id == chosen, "the chosen take stays"
    assert not any(t.stale for t in project.tree.takes_of(second)), "nothing below became stale"
    assert project.document.history.undo_label == "Re-roll"
    # The setting switches to the new take (and the turns below become stale).
    service.set_reroll_selects(True)
    j4 = service.reroll(first)
    assert service.wait_jobs([j4], 10)
    assert project.tree.node(first).selected_take_id == service.job(j4).take_id
    assert all(t.stale for t in project.tree.takes_of(second))


def test_reroll_branch_regenerates_descendants_parent_first(project, make_service, script: FakeScript) -> None:
    service = make_service()
    root = project.tree.root_id
    a, _ja = service.generate(root, "a")
    b, _jb = service.generate(a, "b")
    c, _jc = service.generate(b, "c")
    d, _jd = service.generate(a, "d")
    other, _jo = service.generate(root, "other")
    assert service.wait_idle(20)
    before = {n: project.tree.node(n).selected_take_id for n in (a, b, c, d, other)}
    script.calls.clear()
    script.step_sleep = 0.002
    jobs = service.reroll_branch(b)
    assert service.wait_idle(20)
    assert script.order() == ["b", "c"]
    assert [service.job(j).node_id for j in jobs] == [b, c]
    assert service.job(jobs[1]).depends_on == jobs[0]
    new_b = project.tree.takes[service.job(jobs[0]).take_id]
    new_c = project.tree.takes[service.job(jobs[1]).take_id]
    assert new_b.parent_take_id == before[a]
    assert new_c.parent_take_id == new_b.id
    assert project.tree.node(b).selected_take_id == new_b.id != before[b]
    assert not new_c.stale and not new_b.stale
    for untouched in (a, d, other):
        assert project.tree.node(untouched).selected_take_id == before[untouched]
        assert len(project.tree.takes_of(untouched)) == 1


def test_reroll_branch_takes_undo_as_re_roll_branch(project, make_service) -> None:
    service = make_service()
    a, _ja = service.generate(project.tree.root_id, "a")
    b, _jb = service.generate(a, "b")
    assert service.wait_idle(20)
    jobs = service.reroll_branch(a)
    assert service.wait_jobs(jobs, 20)
    assert project.document.history.undo_label == "Re-roll branch (2 turns)"
    project.undo()
    assert project.tree.node(b).selected_take_id != service.job(jobs[1]).take_id
    assert project.tree.node(a).selected_take_id != service.job(jobs[0]).take_id, "one entry for the branch"
    assert project.document.history.undo_label == "Generate take"


def test_take_of_an_undone_instruction_edit_does_not_replace_the_chosen_take(
        project, make_service, script: FakeScript) -> None:
    """Edit a turn's words, re-roll it, undo the edit while the job runs: the take made from
    the undone words is kept, stale, beside the chosen take, which stays chosen."""
    service = make_service()
    node_id, j1 = service.generate(project.tree.root_id, "wave")
    assert service.wait_jobs([j1], 10)
    chosen = project.tree.node(node_id).selected_take_id
    project.apply(EditInstruction(node_id, "run [block]"))
    job_id = service.reroll(node_id)
    assert script.started.wait(5)
    project.undo()
    assert project.tree.node(node_id).instruction.raw == "wave"
    script.release.set()
    assert service.wait_jobs([job_id], 10)
    made = project.tree.takes[service.job(job_id).take_id]
    assert made.instruction_raw == "run [block]" and made.stale
    assert project.tree.node(node_id).selected_take_id == chosen


def test_reroll_branch_builds_context_when_the_job_starts(project, make_service, script: FakeScript) -> None:
    service = make_service()
    a, _ja = service.generate(project.tree.root_id, "a")
    _b, _jb = service.generate(a, "b")
    assert service.wait_idle(20)
    service.pause()
    jobs = service.reroll_branch(a)
    service.resume()
    assert service.wait_idle(20)
    _, context = script.contexts[-1]
    new_a = project.tree.takes[service.job(jobs[0]).take_id]
    assert context.history[-1].conditioning["seed"] == new_a.seed
    assert project.tree.takes[service.job(jobs[1]).take_id].parent_take_id == new_a.id


def test_fill_generates_missing_takes_in_order(project, make_service, script: FakeScript) -> None:
    from studio.core.commands import AddTurn

    service = make_service()
    root = project.tree.root_id
    a, _ja = service.generate(root, "a")
    assert service.wait_idle(10)
    project.apply(AddTurn(a, "b", node_id="nodeb"))
    project.apply(AddTurn("nodeb", "c", node_id="nodec"))
    project.apply(AddTurn("nodec", "e", node_id="nodee"))
    script.calls.clear()
    service.pause()
    jobs = service.fill("nodee")
    assert [service.job(j).node_id for j in jobs] == ["nodeb", "nodec", "nodee"]
    assert service.fill("nodee") == []  # already queued
    service.resume()
    assert service.wait_idle(20)
    assert script.order() == ["b", "c", "e"]
    assert all(project.tree.selected_take(n) is not None for n in ("nodeb", "nodec", "nodee"))
    assert service.fill("nodee") == []


def test_deleted_node_cancels_its_running_job(project, make_service, script: FakeScript,
                                              recorder: Recorder) -> None:
    service = make_service()
    service.subscribe(recorder)
    node_id, job_id = service.generate(project.tree.root_id, "wait [block]")
    assert script.started.wait(5)
    project.undo()  # undo the new turn while its job runs
    assert node_id not in project.tree.nodes
    assert service.wait_jobs([job_id], 5)
    job = service.job(job_id)
    assert job.status is JobStatus.CANCELLED
    assert "deleted" in job.error
    assert recorder.of("cancelled", job_id)[0].message == job.error
    assert not any(t.node_id == node_id for t in project.tree.takes.values())
    assert not project.resolve(project.take_media_dir(recorder.of("started", job_id)[0].job.take_id)).exists()


def test_node_deleted_during_write_keeps_no_take(project, make_service, script: FakeScript, monkeypatch) -> None:
    import studio.worker.results as results

    service = make_service()
    node_id, _ = service.generate(project.tree.root_id, "keep")
    assert service.wait_idle(10)
    real = results.media.write_poster

    def delete_then_write(path, frame):  # type: ignore[no-untyped-def]
        project.apply(DeleteSubtree(node_id))
        real(path, frame)

    monkeypatch.setattr(results.media, "write_poster", delete_then_write)
    job_id = service.reroll(node_id)
    assert service.wait_jobs([job_id], 10)
    job = service.job(job_id)
    assert job.status is JobStatus.CANCELLED and "deleted" in job.error
    assert not project.resolve(project.take_media_dir(job.take_id or "none")).exists()
    assert not project.resolve("media/takes").exists() or all(
        (project.resolve("media/takes") / t.id).exists() for t in project.tree.takes.values())


def test_progress_is_monotone_with_an_eta(project, make_service, script: FakeScript, recorder: Recorder) -> None:
    script.predict_steps = 5
    script.decode_steps = 8
    script.step_sleep = 0.01
    service = make_service()
    service.subscribe(recorder)
    node_id, first = service.generate(project.tree.root_id, "one")
    second = service.reroll(node_id)
    assert service.wait_jobs([first, second], 20)
    for job_id in (first, second):
        progress = recorder.of("progress", job_id)
        assert len(progress) >= script.predict_steps + script.decode_steps
        steps = [e.step for e in progress]
        assert steps == sorted(steps)
        assert all(e.total == PROGRESS_SCALE for e in progress)
        assert all(e.eta_s is None or e.eta_s >= 1.0 for e in progress)  # never "0 s left" while running
        # once the job's pace is known (its decoding reported a step) the ETA is told
        decoding = [e for e in progress if e.stage == "write" or (e.stage == "decode" and e.stage_step > 0)]
        assert all(e.eta_s is not None for e in decoding)
        loaded_here = {"load"} if job_id == first else set()  # the first job loads the engine, with progress
        assert {e.stage for e in progress} == {"predict", "decode", "write"} | loaded_here
        finished = recorder.of("finished", job_id)[0]
        assert finished.step == finished.total and finished.eta_s == 0
    # the second job knows the first one's timings: its first ETA is informed
    assert recorder.of("progress", second)[0].eta_s is not None


def test_predicted_event_carries_the_state_before_the_clip(project, make_service, recorder: Recorder) -> None:
    service = make_service()
    service.subscribe(recorder)
    node_id, job_id = service.generate(project.tree.root_id, "x")
    assert service.wait_jobs([job_id], 10)
    predicted = recorder.of("predicted", job_id)[0]
    take = project.tree.takes[service.job(job_id).take_id]
    assert predicted.deltas == take.deltas and predicted.motion_level == take.motion_level
    assert predicted.state == project.tree.state_of(node_id)
    assert recorder.kinds(job_id).index("predicted") < recorder.kinds(job_id).index("finished")
    finished = recorder.of("finished", job_id)[0]
    assert finished.take_id == take.id


def test_events_async_iterator(project, make_service) -> None:
    service = make_service(start=False)

    async def consume() -> list[tuple[str, str]]:
        stream = service.events()
        _node_id, _job_id = service.generate(project.tree.root_id, "async")
        loop_thread = __import__("threading").get_ident()
        seen: list[tuple[str, str]] = []
        service.start()
        async for event in stream:
            assert __import__("threading").get_ident() == loop_thread
            seen.append((event.kind.value, event.job_id))
            if event.kind in (EventKind.FINISHED, EventKind.FAILED):
                break
        await stream.aclose()
        return seen

    seen = asyncio.run(asyncio.wait_for(consume(), 20))
    kinds = [k for k, _ in seen]
    assert kinds[0] == "queued" and kinds[1] == "started" and kinds[-1] == "finished"


def test_events_iterator_ends_when_the_service_stops(project, make_service) -> None:
    service = make_service()

    async def consume() -> int:
        stream = service.events()
        count = 0
        asyncio.get_running_loop().call_later(0.05, service.stop)
        async for _ in stream:
            count += 1
        return count

    assert asyncio.run(asyncio.wait_for(consume(), 10)) == 0


def test_retry_uses_a_new_seed_unless_told(project, make_service, script: FakeScript) -> None:
    script.fail_on.add("flaky")
    service = make_service()
    _node_id, job_id = service.generate(project.tree.root_id, "flaky", seed=5, settings={"frames": 2})
    assert service.wait_jobs([job_id], 10)
    assert service.job(job_id).status is JobStatus.FAILED
    script.fail_on.clear()
    again = service.retry(job_id)
    same = service.retry(job_id, same_seed=True)
    chosen = service.retry(job_id, seed=9)
    assert service.wait_jobs([again, same, chosen], 10)
    assert service.job(again).seed != 5 and service.job(same).seed == 5 and service.job(chosen).seed == 9
    for job in (again, same, chosen):
        assert service.job(job).status is JobStatus.DONE
        assert service.job(job).settings == {"frames": 2}
        assert service.job(job).retry_of == job_id


def test_engine_stays_loaded_and_switching_unloads(project, make_service, script: FakeScript) -> None:
    service = make_service()
    assert service.engine_status().loaded is False
    node_id, j1 = service.generate(project.tree.root_id, "a")
    j2 = service.reroll(node_id)
    assert service.wait_jobs([j1, j2], 10)
    status = service.engine_status()
    assert (status.name, status.loaded, status.device) == ("fake", True, "cpu")
    assert (script.loads, script.unloads) == (1, 0)
    j3 = service.reroll(node_id, engine="other")
    assert service.wait_jobs([j3], 10)
    assert service.engine_status().name == "other"
    assert (script.loads, script.unloads) == (2, 1)
    assert project.tree.takes[service.job(j3).take_id].engine == "other"
    service.stop()
    assert script.unloads == 2


def test_generate_checks_input(project, make_service) -> None:
    import pytest

    from studio.core.errors import StudioError

    service = make_service(start=False)
    with pytest.raises(StudioError, match="Unknown engine"):
        service.generate(project.tree.root_id, "x", engine="nope")
    with pytest.raises(StudioError):
        service.generate("missing", "x")
    with pytest.raises(StudioError):
        service.generate(project.tree.root_id, "   ")
    with pytest.raises(StudioError):
        service.reroll(project.tree.root_id)
    with pytest.raises(StudioError):
        service.generate(project.tree.root_id, "x", settings={"bad": object()})
    assert service.jobs() == [] or all(j.status is JobStatus.QUEUED for j in service.jobs())


def test_wait_idle_times_out_when_not_started(project, make_service) -> None:
    service = make_service(start=False)
    service.generate(project.tree.root_id, "x")
    started = time.monotonic()
    assert not service.wait_idle(0.1)
    assert time.monotonic() - started < 2


def test_a_media_folder_linked_outside_is_refused_before_anything_is_written(project, make_service,
                                                                            tmp_path) -> None:
    """A symlinked media/takes made generation write the clip files outside the project,
    then refuse with "the engine host named a file outside the project... Retry", leaving
    them there."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    takes = project.path / "media" / "takes"
    if takes.exists():
        takes.rmdir()
    takes.symlink_to(outside, target_is_directory=True)
    service = make_service()
    _, job_id = service.generate(project.tree.root_id, "Character: Qiqi; Motion: wave", seed=1, settings={"frames": 3})
    assert service.wait_jobs([job_id], 20)
    job = service.job(job_id)
    assert job.status is JobStatus.FAILED
    assert "media folder media/takes points outside the project" in job.error, job.error
    assert "Retry" not in job.error + job.hint and "real folder" in job.hint
    assert list(outside.rglob("*")) == [], "files were written outside the project"
    assert not project.tree.takes or all(t.status is TakeStatus.FAILED for t in project.tree.takes.values())


def test_write_media_files_refuses_a_linked_take_folder(tmp_path) -> None:
    from studio.worker.results import MediaFolderOutsideError, write_media_files

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    root = tmp_path / "p"
    (root / "media").mkdir(parents=True)
    (root / "media" / "takes").symlink_to(outside, target_is_directory=True)
    with pytest.raises(MediaFolderOutsideError, match="points outside the project"):
        write_media_files(root, "media/takes/abc", None, None)  # type: ignore[arg-type]  # refused first
    assert list(outside.iterdir()) == []
