"""The adversary in the decoder's own stages (``adversary.stages``): the term judges only the
clips whose conditioning was kept, and the training command's ``decoder`` and ``adapt`` stages
carry it at toy size on the CPU, without a distillation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")

from studio.engines.mini.adversary import Adversary, Discriminator  # noqa: E402
from studio.engines.mini.config import (  # noqa: E402
    AdversaryTraining,
    CriticTraining,
    StageConfig,
    TrainConfig,
    load_train_config,
    named_config,
)
from studio.engines.mini.train import run  # noqa: E402

CONFIG = load_train_config(named_config("tiny_latent"))
WIDTHS = (8, 8, 16)
STAGES = ("autoencoder", "critic", "decoder", "judge", "lm", "adapt")


def test_only_the_kept_clips_are_judged_and_the_update_trains_on_them() -> None:
    torch.manual_seed(3)
    disc = Discriminator(4, WIDTHS, 3)
    adversary = Adversary.create(disc, AdversaryTraining(balance=1.0, widths=WIDTHS, noise=0.0), 3)
    real = torch.randn(4, 4, 5, 8, 12)
    motions = torch.tensor([0, 1, 2, 1])
    prediction = torch.randn(4, 4, 5, 8, 12, requires_grad=True)
    error = (prediction ** 2).mean()
    keep = torch.tensor([True, False, True, False])

    adversary.begin(real, motions, active=True, keep=keep)
    total = adversary.added_to(error, prediction)
    (grad,) = torch.autograd.grad(total - error, prediction)
    assert grad[1].abs().sum() == 0 and grad[3].abs().sum() == 0, "a clip made without its motion is not judged"
    assert grad[0].abs().sum() > 0 and grad[2].abs().sum() > 0
    (made, told, _first), = adversary.fakes
    assert made.shape[0] == 2 and told.tolist() == [0, 2]
    before = [p.detach().clone() for p in disc.parameters()]
    assert torch.isfinite(adversary.update())
    assert any(not torch.equal(a, b) for a, b in zip(before, disc.parameters(), strict=True))

    adversary.begin(real, motions, active=True, keep=torch.zeros(4, dtype=torch.bool))
    assert adversary.added_to(error, prediction) is error, "a batch with every condition dropped adds nothing"
    assert not adversary.fakes


def _teacher_adversary(balance: float, stages: tuple[str, ...] = ("decoder", "adapt")) -> TrainConfig:
    return dataclasses.replace(
        CONFIG, critic_stage=StageConfig(steps=3, batch=2, lr=1e-3, warmup=1, log_every=1),
        critic=CriticTraining(widths=WIDTHS, balance=0.0),
        adversary=AdversaryTraining(balance=balance, widths=WIDTHS, warmup=1, stages=stages))


def test_the_decoder_and_adapt_stages_carry_the_adversary_without_a_distillation(tmp_path: Path) -> None:
    lines: list[str] = []
    asked = run(_teacher_adversary(1.0), tmp_path / "asked", device="cpu", stages=STAGES, log=lines.append)
    plain = run(_teacher_adversary(0.0), tmp_path / "plain", device="cpu", stages=STAGES, log=lambda _m: None)
    assert asked.stages["decoder"].done and asked.stages["adapt"].done
    assert asked.stages["critic"].loss == pytest.approx(plain.stages["critic"].loss, rel=1e-6), "the same until then"
    assert asked.stages["decoder"].loss != pytest.approx(plain.stages["decoder"].loss, rel=1e-6)
    assert sum("the adversary starts from the motion critic" in line for line in lines) == 2, "once a stage"
    assert any("adversary step=1 stage=decoder" in line and "warming up" in line for line in lines)
    assert any("adversary step=3 stage=decoder" in line and "term=on" in line for line in lines)
    assert any("adversary step=2 stage=adapt" in line and "term=on" in line for line in lines)
    assert (tmp_path / "asked" / "state" / "discriminator.safetensors").is_file()
    assert not (tmp_path / "plain" / "state" / "discriminator.safetensors").exists()


def test_the_adversary_only_in_the_distillation_leaves_the_decoder_stage_alone(tmp_path: Path) -> None:
    only_distill = run(_teacher_adversary(1.0, stages=("distill",)), tmp_path / "distill", device="cpu",
                       stages=STAGES, log=lambda _m: None)
    plain = run(_teacher_adversary(0.0), tmp_path / "plain", device="cpu", stages=STAGES, log=lambda _m: None)
    assert only_distill.stages["decoder"].loss == pytest.approx(plain.stages["decoder"].loss, rel=1e-6)
    assert not (tmp_path / "distill" / "state" / "discriminator.safetensors").exists(), \
        "a config that does not distil builds no discriminator for the distillation"


def test_an_unknown_stage_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="adversary.stages names lm: .*adapt, decoder, distill"):
        run(_teacher_adversary(1.0, stages=("decoder", "lm")), tmp_path / "run", device="cpu", stages=STAGES,
            log=lambda _m: None)
