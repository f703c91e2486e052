"""The research harnesses' shared training budget and scores."""

from __future__ import annotations

import math

import pytest
import torch

from studio.engines.mini.research import Budget, frame_change, frame_changes, learning_rate, psnr, train_to_budget


def _problem() -> tuple[torch.nn.Linear, list[torch.nn.Parameter], torch.optim.Optimizer, torch.Tensor]:
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    params = list(model.parameters())
    return model, params, torch.optim.SGD(params, lr=0.1), torch.randn(32, 8)


def test_a_flop_budget_fixes_the_steps_and_the_loss_falls() -> None:
    model, params, optimizer, x = _problem()
    target = x.sum(1, keepdim=True)

    def step_loss() -> torch.Tensor:
        return (model(x) - target).pow(2).mean()

    first = float(step_loss())
    # forward 2 * 32 * 8 FLOPs, backward about twice that: some 1,500 FLOPs a step
    log = train_to_budget(step_loss, params, optimizer, Budget(tflops=1.5e-7), lr=0.05, warmup=2, log=lambda _: None)
    assert 50 <= log.steps <= 200
    assert log.step_gflops > 0
    assert log.final_loss(5) < 0.1 * first


def test_a_step_cap_and_a_resumed_start_count_the_whole_run() -> None:
    model, params, optimizer, x = _problem()
    seen: list[int] = []
    saved: list[int] = []
    log = train_to_budget(lambda: model(x).pow(2).mean(), params, optimizer, Budget(steps=12), lr=0.01, warmup=1,
                          after_step=seen.append, start_step=5, checkpoint=lambda lg: saved.append(lg.steps),
                          log=lambda _: None)
    assert seen == list(range(5, 12)) and log.steps == 12
    assert saved == [12]  # the end always checkpoints


def test_a_time_budget_stops_on_the_clock() -> None:
    model, params, optimizer, x = _problem()
    log = train_to_budget(lambda: model(x).pow(2).mean(), params, optimizer, Budget(minutes=0.002, steps=10**9),
                          lr=0.01, warmup=1, log=lambda _: None, spent_seconds=0.0)
    assert 0.12 <= log.seconds < 5 and 0 < log.steps < 10**9


def test_the_schedule_warms_up_then_falls_to_a_tenth() -> None:
    assert learning_rate(1.0, 10, 0, 0.0) == pytest.approx(0.1)
    assert learning_rate(1.0, 10, 9, 0.0) == pytest.approx(1.0)
    assert learning_rate(1.0, 10, 50, 0.5) == pytest.approx(0.55)
    assert learning_rate(1.0, 10, 99, 1.0) == pytest.approx(0.1)
    with pytest.raises(ValueError):
        Budget()


def test_psnr_and_frame_change_read_what_they_say() -> None:
    clip = torch.zeros(2, 3, 4, 8, 8)
    clip[:, :, 2:] = 0.5
    assert psnr(clip, clip) > 90
    assert psnr(clip, clip + 0.2) == pytest.approx(10 * math.log10(4 / 0.04), rel=1e-4)
    assert frame_changes(clip).tolist() == pytest.approx([0.5 / 3] * 2)
    mask = torch.zeros(2, 1, 1, 8, 8)
    mask[0, ..., :2, :2] = 1
    assert frame_change(clip, mask) == pytest.approx(0.5 / 3)
