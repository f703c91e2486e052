"""Few-step distillation at toy size: the teacher's trajectory, the step targets, and a short
training that brings the student's few steps measurably closer to the teacher's many."""

from __future__ import annotations

import copy
import dataclasses
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")
from torch import nn  # noqa: E402

from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.config import load_train_config, named_config  # noqa: E402
from studio.engines.mini.decoder import VideoDiT, euler_step, flow_times, sample  # noqa: E402
from studio.engines.mini.distill import distill_loss, step_target, teacher_trajectory  # noqa: E402
from studio.engines.mini.train import Budget, Trainer, run  # noqa: E402

CONFIG = load_train_config(named_config("tiny"))
MODEL = dataclasses.replace(CONFIG.model, vocab_size=300)


def _teacher(seed: int = 0) -> VideoDiT:
    """A tiny decoder whose prediction depends on its input (a fresh DiT's zero-initialised
    output layers would predict zero whatever the noise, and every sampler would agree)."""
    torch.manual_seed(seed)
    model = VideoDiT(MODEL)
    with torch.no_grad():
        for parameter in model.parameters():
            if not parameter.any():
                parameter.normal_(0.0, 0.2)
    return model.eval()


def _conditions(batch: int, seed: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    rep_cfg = MODEL.representation
    channels, frames, height, width = MODEL.canvas()
    rep = torch.randn(batch, rep_cfg.tokens, rep_cfg.dim, generator=generator)
    level = torch.randint(1, 6, (batch,), generator=generator)
    noise = torch.randn(batch, channels, frames, height, width, generator=generator)
    weight = torch.ones(batch, 1, 1, height, width)
    return rep, level, noise, weight


def test_the_teacher_times_nest_the_student_times_and_its_path_is_the_sampler() -> None:
    assert flow_times(16)[::4] == pytest.approx(flow_times(4), abs=1e-12)
    teacher = _teacher()
    rep, level, noise, _ = _conditions(2, seed=1)
    path = teacher_trajectory(teacher, teacher, rep, level, noise, student_steps=2, teacher_steps=6, guidance=2.0)
    assert path.states.shape[0] == 3 and path.times == pytest.approx(tuple(flow_times(2)))
    assert torch.equal(path.states[0], noise)
    final = sample(teacher, rep, level, noise, 6, guidance=2.0, clamp=False)
    assert torch.allclose(path.states[-1], final, atol=1e-5)
    with pytest.raises(ValueError, match="multiple"):
        teacher_trajectory(teacher, teacher, rep, level, noise, student_steps=4, teacher_steps=6)


def test_the_step_target_lands_on_the_next_state() -> None:
    start, end = torch.randn(3, 4), torch.randn(3, 4)
    for a, b in ((0.0, 0.1), (0.4, 0.7), (0.7, 1.0)):
        x = step_target(start, end, a, b)
        reached = euler_step(start, x, a, b)  # the sampler's step
        assert torch.allclose(reached, end, atol=1e-5)


def test_the_loss_is_zero_on_the_students_own_path_and_not_on_a_finer_one() -> None:
    teacher = _teacher()
    rep, level, noise, weight = _conditions(2, seed=2)
    own = teacher_trajectory(teacher, teacher, rep, level, noise, student_steps=2, teacher_steps=2)
    finer = teacher_trajectory(teacher, teacher, rep, level, noise, student_steps=2, teacher_steps=8)
    with torch.no_grad():
        assert float(distill_loss(teacher, own, rep, level, weight)) < 1e-8
        assert float(distill_loss(teacher, finer, rep, level, weight)) > 1e-3
        assert float(distill_loss(teacher, finer, rep, level, weight, segments=[1])) > 0
    with pytest.raises(ValueError, match="no segment"):
        distill_loss(teacher, own, rep, level, weight, segments=[])


class _Field(nn.Module):
    """A per-pixel flow field, nonlinear in the canvas, the time and the level: its 2-step and
    8-step samples differ, and a copy of it can learn the difference within a test's time."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(5, 32, 1), nn.Tanh(), nn.Conv3d(32, 32, 1), nn.Tanh(), nn.Conv3d(32, 3, 1))

    def forward(self, z: torch.Tensor, t: torch.Tensor, level: torch.Tensor, rep: torch.Tensor) -> torch.Tensor:
        b, _c, frames, height, width = z.shape
        extra = torch.stack([t.to(z.dtype), level.to(z.dtype) / 5], dim=1)[:, :, None, None, None]
        out: torch.Tensor = self.net(torch.cat([z, extra.expand(b, 2, frames, height, width)], dim=1)) * 2
        return out


def _field_conditions(batch: int, seed: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    return (torch.zeros(batch, 1, 1), torch.randint(1, 6, (batch,), generator=generator),
            torch.randn(batch, 3, 2, 4, 4, generator=generator), torch.ones(batch, 1, 1, 4, 4))


def test_training_brings_the_students_two_steps_closer_to_the_teachers_eight() -> None:
    torch.manual_seed(0)
    teacher = _Field().eval()
    student = copy.deepcopy(teacher)
    optimizer = torch.optim.Adam(student.parameters(), lr=3e-3)
    rep, level, noise, _ = _field_conditions(64, seed=99)  # held out: never trained on
    with torch.no_grad():
        target = sample(teacher, rep, level, noise, 8, clamp=False)  # type: ignore[arg-type]

    def gap() -> float:
        with torch.no_grad():
            return float(((sample(student, rep, level, noise, 2, clamp=False) - target) ** 2).mean())  # type: ignore[arg-type]

    before = gap()
    for step in range(80):
        batch = _field_conditions(16, seed=step)
        path = teacher_trajectory(teacher, teacher, batch[0], batch[1], batch[2], student_steps=2,  # type: ignore[arg-type]
                                  teacher_steps=8)
        loss = distill_loss(student, path, *batch[:2], batch[3])
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
    assert gap() < 0.25 * before, (before, gap())


def test_a_teacher_that_trains_on_restarts_the_distillation(tmp_path: Path) -> None:
    from safetensors.torch import load_file

    out, export, cache = tmp_path / "run", tmp_path / "ckpt" / "mini", tmp_path / "cache"
    first = run(CONFIG, out, device="cpu", export=export, cache=cache, log=lambda _line: None)
    assert first.stages["distill"].done and first.stages["distill"].steps == CONFIG.distill_stage.steps
    teacher_file = out / "state" / "distill_teacher.safetensors"
    old_teacher = load_file(teacher_file)

    # a later lease gives the adaptation more time: it trains on from the teacher's weights, not
    # the student's, and the distillation starts again from the new teacher
    lines: list[str] = []
    longer = dataclasses.replace(CONFIG, adapt_stage=dataclasses.replace(CONFIG.adapt_stage, steps=4, minutes=1.0))
    shutil.copytree(out, tmp_path / "copy")  # the modules as the reopened run builds them
    trainer = Trainer(longer, tmp_path / "copy", torch.device("cpu"), Budget(0), log=lines.append)
    trainer.restore_state()
    trainer.config = dataclasses.replace(trainer.config, model=weights.model_config(weights.read_manifest(export),
                                                                                    export))
    trainer.build_modules()
    assert trainer.decoder is not None and trainer.decoder_ema is not None
    for module in (trainer.decoder, trainer.decoder_ema.module):
        assert all(torch.equal(v, old_teacher[k]) for k, v in module.state_dict().items())
    again = run(longer, out, device="cpu", export=export, cache=cache, log=lines.append)
    assert any("stage distill starts again after its teacher trains on" in line for line in lines)
    assert again.stages["adapt"].steps == 4 and again.stages["distill"].done
    assert again.stages["distill"].steps == CONFIG.distill_stage.steps
    new_teacher = load_file(teacher_file)
    assert any(not torch.equal(new_teacher[k], old_teacher[k]) for k in old_teacher)

    # from an export, whose decoder is the student, a restarted adaptation distils again too
    lines.clear()
    restarted = run(CONFIG, tmp_path / "run2", device="cpu", init=export, cache=cache, restart=("adapt",),
                    stages=("adapt", "distill"), log=lines.append)
    assert any("stage distill starts again: its teacher is not in the --init checkpoint" in line for line in lines)
    assert restarted.stages["adapt"].done and restarted.stages["distill"].done

    # a config without distillation steps skips the stage and leaves the decoder as it was
    plain = dataclasses.replace(CONFIG, distill_stage=dataclasses.replace(CONFIG.distill_stage, steps=0))
    skipped = run(plain, tmp_path / "run3", device="cpu", cache=cache, stages=("distill",), log=lines.append)
    assert skipped.stages["distill"].steps == 0 and not skipped.stages["distill"].done


def test_a_distillation_of_an_unfinished_teacher_restarts_when_the_teacher_trains_on(tmp_path: Path) -> None:
    """A checkpoint distilled while its adaptation was unfinished (``--stages distill`` after a
    paused lease) distils again once the adaptation trains on, resumed or from its export."""
    from safetensors.torch import load_file

    out, export, cache = tmp_path / "run", tmp_path / "ckpt" / "mini", tmp_path / "cache"
    before = ("autoencoder", "decoder", "judge", "lm")
    run(CONFIG, out, device="cpu", export=export, cache=cache, stages=before, log=lambda _line: None)
    lines: list[str] = []
    early = run(CONFIG, out, device="cpu", export=export, cache=cache, stages=("distill",), log=lines.append)
    assert any("the teacher is the decoder as it is" in line for line in lines)
    assert early.stages["distill"].done and not early.stages["adapt"].done
    old_teacher = load_file(out / "state" / "distill_teacher.safetensors")
    shutil.copytree(export.parent, tmp_path / "early")

    # asked only for the evaluation, the early student stands
    lines.clear()
    kept = run(CONFIG, out, device="cpu", export=export, cache=cache, stages=("eval",), log=lines.append)
    assert kept.stages["distill"].done and not any("starts again" in line for line in lines)

    # the adaptation trains on from the teacher, and the distillation follows it again
    lines.clear()
    trainer = Trainer(CONFIG, out, torch.device("cpu"), Budget(0), log=lines.append, stages=("adapt", "distill"))
    trainer.restore_state()
    assert trainer.run.stages["distill"].steps == 0 and trainer.teacher_back
    resumed = run(CONFIG, out, device="cpu", export=export, cache=cache, stages=("adapt", "distill"),
                  log=lines.append)
    assert any("stage distill starts again after its teacher trains on" in line for line in lines)
    assert resumed.stages["adapt"].done and resumed.stages["distill"].done
    assert resumed.stages["distill"].steps == CONFIG.distill_stage.steps
    new_teacher = load_file(out / "state" / "distill_teacher.safetensors")
    assert any(not torch.equal(new_teacher[k], old_teacher[k]) for k in old_teacher)

    # a decoder stage that trains on (here: its cap raised) makes both the adaptation and the
    # distillation run again after it
    lines.clear()
    more = dataclasses.replace(CONFIG, decoder_stage=dataclasses.replace(
        CONFIG.decoder_stage, steps=resumed.stages["decoder"].steps + 2, minutes=1.0))
    redone = run(more, out, device="cpu", export=export, cache=cache, log=lines.append)
    assert any("stage adapt starts again after the decoder trains on" in line for line in lines)
    assert redone.stages["decoder"].steps == resumed.stages["decoder"].steps + 2
    assert redone.stages["adapt"].steps == CONFIG.adapt_stage.steps and redone.stages["adapt"].done
    assert redone.stages["distill"].steps == CONFIG.distill_stage.steps and redone.stages["eval"].done

    # from the early export, the same: its distillation is not kept over a further adaptation
    lines.clear()
    again = run(CONFIG, tmp_path / "run2", device="cpu", init=tmp_path / "early" / "mini", cache=cache,
                stages=("adapt", "distill"), log=lines.append)
    assert any("stage distill starts again: its teacher is not in the --init checkpoint" in line for line in lines)
    assert again.stages["adapt"].done and again.stages["distill"].done
