"""The motion critic (a training signal for the decoder): its network, its own loss, the term
it adds to the decoder's loss and how that term is weighed, and the training command's
``critic`` stage at toy size on the CPU."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")

from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.config import (  # noqa: E402
    CriticTraining,
    DistillTraining,
    StageConfig,
    TrainConfig,
    load_train_config,
    named_config,
)
from studio.engines.mini.critic import CriticTerm, MotionCritic, accuracy, balanced, training_loss  # noqa: E402
from studio.engines.mini.runtime import MiniRuntime  # noqa: E402
from studio.engines.mini.train import run  # noqa: E402

CONFIG = load_train_config(named_config("tiny_latent"))


def _critic(classes: int = 3) -> MotionCritic:
    torch.manual_seed(0)
    return MotionCritic(4, (8, 8, 16), classes)


def test_the_critic_reads_a_canvas_into_logits_and_one_feature_map_per_level() -> None:
    logits, features = _critic(5)(torch.randn(2, 4, 5, 8, 12))
    assert logits.shape == (2, 5)
    assert [tuple(f.shape[1:]) for f in features] == [(8, 5, 8, 12), (8, 5, 4, 6), (16, 3, 2, 3)]
    with pytest.raises(ValueError, match="two widths"):
        MotionCritic(4, (8,), 3)


def test_the_critic_learns_motions_that_differ_in_how_the_canvas_changes_over_time() -> None:
    """Three "motions" with the same mean picture: still, moving right, moving left."""
    generator = torch.Generator().manual_seed(1)
    base = torch.randn(60, 4, 5, 8, 12, generator=generator)
    motions = torch.arange(60) % 3
    shift = torch.tensor([0, 1, -1])[motions]
    canvas = torch.stack([torch.stack([torch.roll(c[:, k], int(s) * k, dims=2) for k in range(5)], dim=1)
                          for c, s in zip(base, shift, strict=True)])
    critic = _critic()
    before = accuracy(critic, canvas, motions)
    optimizer = torch.optim.AdamW(critic.parameters(), lr=3e-3)
    for _ in range(60):
        loss = training_loss(critic, canvas, motions, noise=0.2, generator=generator)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    after = accuracy(critic, canvas, motions, batch=16)
    assert after >= 0.9 > before + 0.2


def test_the_term_asks_only_the_kept_clips_for_their_motion_and_matches_features_by_flow_time() -> None:
    critic = _critic().requires_grad_(False)
    target = torch.randn(4, 4, 5, 8, 12)
    motions = torch.tensor([0, 1, 2, 0])
    none_kept = CriticTerm(critic, motions, torch.zeros(4, dtype=torch.bool), CriticTraining(feature_weight=0.0))
    assert float(none_kept.loss(torch.randn(4, 4, 5, 8, 12), target, torch.ones(4))) == 0.0
    matched = CriticTerm(critic, motions, torch.zeros(4, dtype=torch.bool), CriticTraining(feature_weight=1.0))
    assert float(matched.loss(target.clone(), target, torch.ones(4))) == pytest.approx(0.0, abs=1e-6)
    other = target + torch.randn(4, 4, 5, 8, 12)
    assert float(matched.loss(other, target, torch.zeros(4))) == 0.0, "at pure noise no feature is asked for"
    assert float(matched.loss(other, target, torch.ones(4))) > 0.01
    kept = CriticTerm(critic, motions, torch.ones(4, dtype=torch.bool), CriticTraining(feature_weight=0.0))
    assert float(kept.loss(other, target, torch.ones(4))) > 0.5


def test_the_balanced_term_has_the_asked_share_of_the_gradient_on_the_prediction() -> None:
    prediction = torch.randn(3, 4, 5, 8, 12, requires_grad=True)
    target = torch.randn(3, 4, 5, 8, 12)
    reconstruction = ((prediction - target) ** 2).mean()
    term = 1000.0 * (prediction ** 3).mean()
    both = balanced(reconstruction, term, prediction, 0.5)
    (total,) = torch.autograd.grad(both, prediction, retain_graph=True)
    (mine,) = torch.autograd.grad(reconstruction, prediction, retain_graph=True)
    extra = total - mine
    assert float(extra.norm() / mine.norm()) == pytest.approx(0.5, rel=1e-4)


def _with_critic(balance: float) -> TrainConfig:
    return dataclasses.replace(CONFIG, critic_stage=StageConfig(steps=3, batch=2, lr=1e-3, warmup=1, log_every=1),
                               critic=CriticTraining(widths=(8, 8, 8), balance=balance))


def test_the_critic_stage_trains_before_the_decoder_whose_loss_then_carries_its_term(tmp_path: Path) -> None:
    lines: list[str] = []
    stages = ("autoencoder", "critic", "decoder")
    state = run(_with_critic(0.5), tmp_path / "run", device="cpu", stages=stages, export=tmp_path / "export",
                log=lines.append)
    assert state.stages["critic"].done and state.stages["critic"].steps == 3
    assert any("heldout_motion_accuracy=" in line for line in lines)
    assert (tmp_path / "run" / "state" / "critic.safetensors").is_file()
    plain = run(_with_critic(0.0), tmp_path / "plain", device="cpu", stages=stages, log=lambda _m: None)
    assert state.stages["decoder"].loss != pytest.approx(plain.stages["decoder"].loss, rel=1e-6)

    # the export carries the critic for the engine (which picks candidates with it), listed in its config
    manifest = weights.read_manifest(tmp_path / "export")
    assert manifest["model"]["critic"] == [8, 8, 8] and weights.CRITIC in manifest["files"]
    runtime = MiniRuntime.load(tmp_path / "export", torch.device("cpu"), torch.device("cpu"))
    assert runtime.critic is not None
    exported = weights.load_tensors(tmp_path / "export" / weights.CRITIC)
    trained = weights.load_tensors(tmp_path / "run" / "state" / "critic.safetensors")  # the run's, in float32
    loaded = runtime.critic.state_dict()
    assert set(exported) == set(trained) == set(loaded)
    for name, value in trained.items():
        assert torch.allclose(exported[name].float(), value, rtol=1e-3, atol=1e-3), name
        assert torch.equal(loaded[name], exported[name].float()), name

    # a run from the export trains the critic again before the decoder's term needs it
    lines.clear()
    again = run(_with_critic(0.5), tmp_path / "again", device="cpu", stages=("critic", "decoder"),
                init=tmp_path / "export", restart=("decoder",), log=lines.append)
    assert again.stages["critic"].steps == 3 and again.stages["decoder"].done


def test_a_config_without_critic_steps_skips_the_stage_and_the_term(tmp_path: Path) -> None:
    lines: list[str] = []
    state = run(CONFIG, tmp_path / "run", device="cpu", stages=("autoencoder", "critic"), log=lines.append)
    assert state.stages["critic"].done and state.stages["critic"].steps == 0
    assert any("stage critic skipped" in line for line in lines)


def test_the_decoder_term_refuses_to_run_before_the_critic_is_trained(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="critic stage done first"):
        run(_with_critic(0.5), tmp_path / "run", device="cpu", stages=("autoencoder", "decoder"),
            log=lambda _m: None)


def test_the_distillation_carries_the_term_when_asked(tmp_path: Path) -> None:
    def config(in_distill: bool) -> TrainConfig:
        base = _with_critic(0.5)
        return dataclasses.replace(
            base, critic=dataclasses.replace(base.critic, in_distill=in_distill),
            distill_stage=StageConfig(steps=2, batch=2, lr=1e-3, warmup=1, log_every=1),
            distill=DistillTraining(student_steps=1, teacher_steps=2, guidance=1.0))

    stages = ("autoencoder", "critic", "decoder", "judge", "lm", "adapt", "distill")
    asked = run(config(True), tmp_path / "asked", device="cpu", stages=stages, log=lambda _m: None)
    plain = run(config(False), tmp_path / "plain", device="cpu", stages=stages, log=lambda _m: None)
    assert asked.stages["distill"].done and plain.stages["distill"].done
    assert asked.stages["adapt"].loss == pytest.approx(plain.stages["adapt"].loss, rel=1e-6), "the same until then"
    assert asked.stages["distill"].loss != pytest.approx(plain.stages["distill"].loss, rel=1e-6)

