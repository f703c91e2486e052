"""The distillation's adversary: its discriminator (told each clip's motion, starting from the
motion critic), its hinge loss with mismatched motions as negatives, the term it adds to the
student's loss, and the training command's ``distill`` stage carrying it at toy size on the CPU."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")

from studio.engines.mini.adversary import (  # noqa: E402
    Adversary,
    Discriminator,
    discriminator_loss,
    other_motions,
)
from studio.engines.mini.config import (  # noqa: E402
    AdversaryTraining,
    CriticTraining,
    DistillTraining,
    StageConfig,
    TrainConfig,
    load_train_config,
    named_config,
)
from studio.engines.mini.critic import MotionCritic  # noqa: E402
from studio.engines.mini.train import run  # noqa: E402

CONFIG = load_train_config(named_config("tiny_latent"))
WIDTHS = (8, 8, 16)


def _moving(count: int, motions: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Canvases whose "motion" is which way a random pattern moves over time (0 still, 1 right,
    2 left): the same picture on average, told apart only by how it changes."""
    base = torch.randn(count, 4, 5, 8, 12, generator=generator)
    shift = torch.tensor([0, 1, -1])[motions]
    return torch.stack([torch.stack([torch.roll(c[:, k], int(s) * k, dims=2) for k in range(5)], dim=1)
                        for c, s in zip(base, shift, strict=True)])


def test_other_motions_never_keeps_a_motion_and_reaches_every_other_one() -> None:
    motions = torch.zeros(2000, dtype=torch.long)
    others = other_motions(motions, 5, torch.Generator().manual_seed(0))
    assert int((others == 0).sum()) == 0
    assert set(others.tolist()) == {1, 2, 3, 4}


def test_starting_from_the_critic_scores_each_motion_as_the_critic_reads_it() -> None:
    torch.manual_seed(0)
    critic = MotionCritic(4, WIDTHS, 3)
    disc = Discriminator(4, WIDTHS, 3)
    disc.start_from(critic)
    canvas = torch.randn(2, 4, 5, 8, 12)
    logits, _features = critic(canvas)
    scores = torch.stack([disc(canvas, torch.full((2,), m)) for m in range(3)], dim=1)
    # the projection is the critic's class weights: the scores differ between motions as its
    # logits do, up to the head's per-class bias
    assert torch.allclose(scores - scores[:, :1], (logits - critic.head.bias) - (logits - critic.head.bias)[:, :1],
                          atol=1e-5)
    assert not torch.allclose(scores[:, 0], scores[:, 1])


def test_the_discriminator_learns_real_clips_from_averaged_ones_and_from_a_wrong_motion() -> None:
    generator = torch.Generator().manual_seed(3)
    torch.manual_seed(3)
    disc = Discriminator(4, WIDTHS, 3)
    optimizer = torch.optim.AdamW(disc.parameters(), lr=3e-3, betas=(0.5, 0.99))
    motions = torch.arange(48) % 3
    real = _moving(48, motions, generator)
    averaged = real.mean(dim=2, keepdim=True).expand_as(real)  # the average pose: no motion at all
    losses = []
    for _ in range(80):
        loss = discriminator_loss(disc, real, motions, averaged, motions, 3, noise=0.1, generator=generator)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss.detach()))
    assert sum(losses[:5]) / 5 > 2.5 and sum(losses[-5:]) / 5 < 0.5
    with torch.no_grad():
        right = disc(real, motions)
        wrong = disc(real, other_motions(motions, 3, generator))
        made = disc(averaged, motions)
    assert float(right.mean()) > float(wrong.mean()) + 1.0, "it reads the motion it is told"
    assert float(right.mean()) > float(made.mean()) + 1.0


def test_the_term_counts_only_when_active_and_the_update_trains_on_the_kept_predictions() -> None:
    torch.manual_seed(1)
    disc = Discriminator(4, WIDTHS, 3)
    adversary = Adversary.create(disc, AdversaryTraining(balance=1.0, widths=WIDTHS, noise=0.0), 3)
    with pytest.raises(RuntimeError, match="needs a batch"):
        adversary.update()
    real = torch.randn(4, 4, 5, 8, 12)
    motions = torch.tensor([0, 1, 2, 0])
    prediction = torch.randn(4, 4, 5, 8, 12, requires_grad=True)
    error = (prediction ** 2).mean()

    adversary.begin(real, motions, active=False)
    assert adversary.added_to(error, prediction) is error, "warming up: the student's loss is left alone"
    assert len(adversary.fakes) == 1

    adversary.begin(real, motions, active=True)
    assert not adversary.fakes, "a new batch forgets the last one's predictions"
    total = adversary.added_to(error, prediction)
    assert float(total.detach()) != pytest.approx(float(error.detach()))
    assert all(p.grad is None for p in disc.parameters()), "the student's term does not train the discriminator"
    before = [p.detach().clone() for p in disc.parameters()]
    loss = adversary.update()
    assert torch.isfinite(loss) and not adversary.fakes
    assert any(not torch.equal(a, b) for a, b in zip(before, disc.parameters(), strict=True))


def _with_adversary(balance: float, steps: int = 3) -> TrainConfig:
    return dataclasses.replace(
        CONFIG, critic_stage=StageConfig(steps=3, batch=2, lr=1e-3, warmup=1, log_every=1),
        critic=CriticTraining(widths=WIDTHS, balance=0.0),
        distill_stage=StageConfig(steps=steps, batch=2, lr=1e-3, warmup=1, log_every=1, minutes=10.0),
        distill=DistillTraining(student_steps=1, teacher_steps=2, guidance=1.0),
        adversary=AdversaryTraining(balance=balance, widths=WIDTHS, warmup=1))


STAGES = ("autoencoder", "critic", "decoder", "judge", "lm", "adapt", "distill")


def test_the_distillation_carries_the_adversary_and_resumes_its_discriminator(tmp_path: Path) -> None:
    lines: list[str] = []
    asked = run(_with_adversary(1.0), tmp_path / "asked", device="cpu", stages=STAGES, log=lines.append)
    plain = run(_with_adversary(0.0), tmp_path / "plain", device="cpu", stages=STAGES, log=lambda _m: None)
    assert asked.stages["distill"].done and plain.stages["distill"].done
    assert asked.stages["adapt"].loss == pytest.approx(plain.stages["adapt"].loss, rel=1e-6), "the same until then"
    assert asked.stages["distill"].loss != pytest.approx(plain.stages["distill"].loss, rel=1e-6)
    assert any("the adversary starts from the motion critic" in line for line in lines)
    assert any("adversary step=1" in line and "warming up" in line for line in lines)
    assert any("adversary step=3" in line and "term=on" in line for line in lines)
    saved = tmp_path / "asked" / "state" / "discriminator.safetensors"
    assert saved.is_file() and not (tmp_path / "plain" / "state" / "discriminator.safetensors").exists()

    # more steps: the run resumes its discriminator, not the critic's weights again
    lines.clear()
    more = run(_with_adversary(1.0, steps=5), tmp_path / "asked", device="cpu", stages=STAGES, log=lines.append)
    assert more.stages["distill"].steps == 5
    assert not any("starts from the motion critic" in line for line in lines)


def test_the_adversary_refuses_a_pixel_decoder(tmp_path: Path) -> None:
    pixel = dataclasses.replace(_with_adversary(1.0), model=load_train_config(named_config("tiny")).model)
    with pytest.raises(ValueError, match="reads latent canvases"):
        run(pixel, tmp_path / "run", device="cpu", stages=("distill",), log=lambda _m: None)


def test_a_first_frame_discriminator_starts_as_the_critic_reading_the_later_frames() -> None:
    torch.manual_seed(4)
    critic = MotionCritic(4, WIDTHS, 3)
    plain, framed = Discriminator(4, WIDTHS, 3), Discriminator(4, WIDTHS, 3, first_frame=True)
    plain.start_from(critic)
    framed.start_from(critic)
    framed.real.load_state_dict(plain.real.state_dict())
    canvas, first = torch.randn(2, 4, 5, 8, 12), torch.randn(2, 4, 1, 8, 12)
    motions = torch.tensor([0, 2])
    with torch.no_grad():
        assert torch.allclose(framed(canvas, motions, first), plain(canvas[:, :, 1:], motions), atol=1e-5)
    with pytest.raises(ValueError, match="first frame"):
        framed(canvas, motions)


def _moving_from(count: int, generator: torch.Generator) -> torch.Tensor:
    """Clips of a random first frame that then moves right (its mean above zero) or left."""
    base = torch.randn(count, 4, 1, 8, 12, generator=generator)
    way = torch.where(base.mean(dim=(1, 2, 3, 4)) > 0, 1, -1)
    return torch.cat([torch.cat([torch.roll(c, int(s) * k, dims=3) for k in range(5)], dim=1)[None]
                      for c, s in zip(base, way, strict=True)])


def test_only_a_discriminator_shown_the_first_frame_tells_a_clip_that_does_not_go_on_from_the_turns_start() -> None:
    # the fakes are clips as real as the real ones, of the same motion, but of other starts (as a
    # student drawing another character or place): only the turn's true first frame tells them
    generator = torch.Generator().manual_seed(5)
    real, fake = _moving_from(64, generator), _moving_from(64, generator)
    motions = torch.zeros(64, dtype=torch.long)
    gaps = {}
    for first_frame in (False, True):
        torch.manual_seed(5)
        disc = Discriminator(4, WIDTHS, 3, first_frame=first_frame)
        optimizer = torch.optim.AdamW(disc.parameters(), lr=3e-3, betas=(0.5, 0.99))
        first = real[:, :, :1] if first_frame else None
        for _ in range(120):
            loss = discriminator_loss(disc, real, motions, fake, motions, 3, noise=0.0, generator=generator,
                                      first=first, fake_first=first)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            fresh, other = _moving_from(64, generator), _moving_from(64, generator)  # clips it never saw
            shown = fresh[:, :, :1] if first_frame else None
            gaps[first_frame] = float(disc(fresh, motions, shown).mean() - disc(other, motions, shown).mean())
    assert gaps[True] > 1.0, gaps
    assert abs(gaps[False]) < 0.3 * gaps[True], gaps


def test_the_distillation_carries_a_first_frame_adversary(tmp_path: Path) -> None:
    config = _with_adversary(1.0)
    config = dataclasses.replace(config, adversary=dataclasses.replace(config.adversary, first_frame=True))
    lines: list[str] = []
    state = run(config, tmp_path / "framed", device="cpu", stages=STAGES, log=lines.append)
    assert state.stages["distill"].done
    assert any("the adversary starts from the motion critic" in line for line in lines)
    assert any("adversary step=3" in line and "term=on" in line for line in lines)
