"""The motion focus: batches partly drawn by the motions the critic misreads in the decoder's own
samples, measured once per run and kept in its state (a resumed run draws the same way)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("diffusers")

from studio.engines.mini.config import (  # noqa: E402
    CriticTraining,
    StageConfig,
    TrainConfig,
    load_train_config,
    named_config,
)
from studio.engines.mini.data import MOTION_NAMES  # noqa: E402
from studio.engines.mini.motion_focus import (  # noqa: E402
    FLOOR,
    MotionFocus,
    critic_rows,
    describe,
    reader_rows,
    weights_from_accuracy,
)
from studio.engines.mini.train import run  # noqa: E402

CONFIG = load_train_config(named_config("tiny_latent"))


def test_a_motion_weighs_what_the_critic_misread_with_a_floor_and_unseen_motions_get_the_mean() -> None:
    correct = torch.tensor([10, 0, 5, 0])
    total = torch.tensor([10, 4, 10, 0])
    weights = weights_from_accuracy(correct, total)
    assert weights[0] == FLOOR  # always read right: kept, at the floor
    assert weights[1] == pytest.approx(1.0)
    assert weights[2] == pytest.approx(0.5)
    assert weights[3] == pytest.approx((0.0 + 1.0 + 0.5) / 3)  # no sample: the mean of the others


def test_the_focused_share_follows_the_weights_per_motion_not_per_row() -> None:
    # motion 0 has 90 rows, motion 1 has 10: equal weights give each motion half the focused draws
    motions = torch.tensor([0] * 90 + [1] * 10)
    focus = MotionFocus((1.0, 1.0), share=1.0)
    drawn = focus.draw(torch.Generator().manual_seed(1), 4000, 100, focus.row_weights(motions))
    share_of_1 = float((motions[drawn] == 1).float().mean())
    assert 0.45 < share_of_1 < 0.55
    # a weight of 3 against 1 gives that motion about three quarters of the focused draws
    focus = MotionFocus((1.0, 3.0), share=1.0)
    drawn = focus.draw(torch.Generator().manual_seed(2), 4000, 100, focus.row_weights(motions))
    assert 0.70 < float((motions[drawn] == 1).float().mean()) < 0.80


def test_the_rest_of_the_batch_stays_uniform_and_draws_stay_below_the_rows_filled() -> None:
    motions = torch.tensor([0] * 50 + [1] * 50)
    focus = MotionFocus((0.0001, 1.0), share=0.25)
    drawn = focus.draw(torch.Generator().manual_seed(3), 4000, 100, focus.row_weights(motions))
    assert drawn.shape == (4000,) and int(drawn.max()) < 100 and int(drawn.min()) >= 0
    # a quarter all motion 1, three quarters uniform (half of them motion 1): 0.25 + 0.375
    assert 0.58 < float((motions[drawn] == 1).float().mean()) < 0.67
    none = MotionFocus((1.0, 1.0), share=0.0)
    assert none.draw(torch.Generator().manual_seed(4), 8, 100, none.row_weights(motions)).shape == (8,)


def test_describe_names_the_heaviest_motions_first() -> None:
    assert describe([0.1, 0.9, 0.5], ["idle", "sweep", "wave"], top=2) == "sweep 0.90, wave 0.50"


def _focused(share: float) -> TrainConfig:
    return dataclasses.replace(CONFIG, critic_stage=StageConfig(steps=3, batch=2, lr=1e-3, warmup=1, log_every=1),
                               critic=CriticTraining(widths=(8, 8, 8), balance=0.0), motion_focus=share,
                               motion_focus_turns=6)


def test_a_run_measures_the_focus_once_logs_it_and_keeps_it_for_a_resumed_run(tmp_path: Path) -> None:
    lines: list[str] = []
    state = run(_focused(0.5), tmp_path / "run", device="cpu", stages=("autoencoder", "critic", "decoder"),
                log=lines.append)
    focus = state.metrics["motion_focus"]
    assert focus["turns"] == 6 and len(focus["weights"]) == len(MOTION_NAMES)
    assert all(FLOOR <= w <= 1.0 for w in focus["weights"]) and 0.0 <= focus["critic_accuracy"] <= 1.0
    assert any("] motion focus share=0.5" in line for line in lines)
    assert state.stages["decoder"].done

    # the adaptation stage of the same run draws by the same weights, without measuring again
    lines.clear()
    again = run(_focused(0.5), tmp_path / "run", device="cpu", stages=("lm", "adapt"), log=lines.append)
    assert again.metrics["motion_focus"] == focus
    assert again.stages["adapt"].done


def test_the_focus_needs_the_critic(tmp_path: Path) -> None:
    config = dataclasses.replace(CONFIG, motion_focus=0.5)
    with pytest.raises(RuntimeError, match="critic stage first"):
        run(config, tmp_path / "run", device="cpu", stages=("autoencoder", "decoder"), log=lambda _m: None)


def test_a_split_critic_trains_on_even_rows_and_the_focus_reads_only_odd_rows() -> None:
    drawn = torch.tensor([0, 1, 2, 3, 7, 8])
    assert critic_rows(drawn, split=True).tolist() == [0, 0, 2, 2, 6, 8]
    assert critic_rows(drawn, split=False).tolist() == drawn.tolist()
    assert reader_rows(7, split=True).tolist() == [1, 3, 5]
    assert reader_rows(4, split=False).tolist() == [0, 1, 2, 3]


def test_a_run_with_a_split_critic_never_shows_it_an_odd_row_and_reads_the_focus_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import studio.engines.mini.train as train_module

    trained: list[torch.Tensor] = []
    real_rows = train_module.critic_rows

    def recording_rows(index: torch.Tensor, split: bool) -> torch.Tensor:
        rows = real_rows(index, split)
        trained.append(rows.cpu())
        return rows

    measured: list[int] = []
    real_measure = train_module.measure

    def recording_measure(decoder, critic, reps, levels, motions, **kwargs):  # type: ignore[no-untyped-def]
        measured.append(int(reps.shape[0]))
        return real_measure(decoder, critic, reps, levels, motions, **kwargs)

    monkeypatch.setattr(train_module, "critic_rows", recording_rows)
    monkeypatch.setattr(train_module, "measure", recording_measure)
    config = dataclasses.replace(_focused(0.5), critic=CriticTraining(widths=(8, 8, 8), balance=0.0, split=True))
    lines: list[str] = []
    state = run(config, tmp_path / "run", device="cpu", stages=("autoencoder", "critic", "decoder"),
                log=lines.append)
    assert state.metrics["motion_focus"]["rows"] == "odd rows, unseen by the critic"
    assert any("unseen_training_rows_accuracy=" in line for line in lines)
    assert len(trained) == 3  # one batch a critic step
    assert all(int(row) % 2 == 0 for batch in trained for row in batch)
    assert measured and 1 <= measured[0] <= 6
