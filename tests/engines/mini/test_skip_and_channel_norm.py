"""The preconditioned decoder (``decoder.param = "skip"``), its loss weighting, per-channel latent
statistics (``decoder.channel_norm``) and the average's warm-up across resumed calls."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.base import EngineLoadError  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.canvas import channel_stats, from_canvas, to_canvas  # noqa: E402
from studio.engines.mini.config import (  # noqa: E402
    DecoderConfig,
    LatentConfig,
    ModelConfig,
    TrainConfig,
    check_limits,
    load_train_config,
    named_config,
)
from studio.engines.mini.decoder import VideoDiT, loss_weight, skip_weights  # noqa: E402
from studio.engines.mini.runtime import MiniRuntime  # noqa: E402
from studio.engines.mini.train import run  # noqa: E402
from studio.engines.mini.unet import VideoUNet  # noqa: E402

TINY = load_train_config(named_config("tiny_latent"))
CPU = torch.device("cpu")


def _small_model(param: str) -> ModelConfig:
    decoder = DecoderConfig(hidden=32, layers=1, heads=2, mlp_ratio=2.0, patch=2, tpatch=1, head_hidden=32,
                            param=param)
    return dataclasses.replace(TINY.model, decoder=decoder)


def _randomised(net: torch.nn.Module) -> torch.nn.Module:
    """Every weight random (the zero-initialised output paths too), so the network's own output
    is far from zero and the skip's share of the prediction shows."""
    torch.manual_seed(3)
    with torch.no_grad():
        for p in net.parameters():
            p.normal_(0, 0.2)
    return net.eval()


def _inputs(config: ModelConfig, batch: int = 2) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    c, t, h, w = config.canvas()
    rep = torch.randn(batch, config.representation.tokens, config.representation.dim)
    return torch.randn(batch, c, t, h, w), torch.tensor([1, 3]), rep


def test_the_skip_weights_give_unit_variance_targets_and_keep_the_input_at_the_clip() -> None:
    t = torch.linspace(0.0, 1.0, 11, dtype=torch.float64)
    c_in, c_skip, c_out = skip_weights(t)
    assert c_skip[0] == 0 and c_skip[-1] == 1 and c_out[-1] == 0 and c_out[0] == pytest.approx(1.0)
    # x and n of unit variance, z = t x + (1 - t) n: the input scaled by c_in, and the network's
    # target (x - c_skip z) / c_out, have unit variance wherever noise is left
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(200_000, generator=generator, dtype=torch.float64)
    n = torch.randn(200_000, generator=generator, dtype=torch.float64)
    for k in range(10):
        z = t[k] * x + (1 - t[k]) * n
        assert float((z * c_in[k]).var()) == pytest.approx(1.0, abs=0.02)
        assert float(((x - c_skip[k] * z) / c_out[k]).var()) == pytest.approx(1.0, abs=0.02)


def test_a_skip_decoder_returns_its_input_at_the_clip_and_its_own_output_at_the_noise() -> None:
    config = _small_model("skip")
    net = _randomised(VideoDiT(config))
    plain = _randomised(VideoDiT(_small_model("x")))
    plain.load_state_dict(net.state_dict())
    noisy, level, rep = _inputs(config)
    with torch.no_grad():
        at_clip = net(noisy, torch.ones(2), level, rep)
        torch.testing.assert_close(at_clip, noisy)
        # at the noise end the prediction is the network's output alone, from its input at unit scale
        torch.testing.assert_close(net(noisy, torch.zeros(2), level, rep), plain(noisy, torch.zeros(2), level, rep))
        # between, the skip keeps part of the input: the prediction differs from the plain network's
        half = torch.full((2,), 0.5)
        c_in, c_skip, c_out = (float(w) for w in skip_weights(half[:1]))
        expected = c_skip * noisy + c_out * plain(noisy * c_in, half, level, rep)
        torch.testing.assert_close(net(noisy, half, level, rep), expected, rtol=1e-4, atol=1e-4)


def test_the_out_loss_weight_is_the_inverse_square_of_c_out_with_the_noise_floor() -> None:
    t = torch.tensor([0.0, 0.5, 0.9, 1.0])
    weight = loss_weight("out", t, min_noise=0.05)
    _c_in, _c_skip, c_out = skip_weights(torch.tensor([0.0, 0.5, 0.9, 0.95]))
    torch.testing.assert_close(weight, 1 / c_out ** 2)
    assert loss_weight("x", t, 0.05) == 1.0
    torch.testing.assert_close(loss_weight("velocity", t, 0.05), 1 / torch.tensor([1.0, 0.5, 0.1, 0.05]) ** 2)
    with pytest.raises(ValueError, match="unknown decoder loss_space 'v'"):
        loss_weight("v", t, 0.05)


def test_unknown_params_and_a_skip_u_net_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown decoder param 'eps'"):
        VideoDiT(_small_model("eps"))
    unet = dataclasses.replace(_small_model("skip"), decoder=dataclasses.replace(
        _small_model("skip").decoder, kind="unet", widths=(8, 16), attn_levels=1))
    with pytest.raises(ValueError, match="the DiT's"):
        VideoUNet(unet)


def test_channel_statistics_normalise_each_channel_and_round_trip() -> None:
    generator = torch.Generator().manual_seed(1)
    means, spreads = torch.tensor([0.5, -1.0, 0.0]), torch.tensor([0.2, 3.0, 1.0])
    table = torch.randn(700, 3, 2, 4, 5, generator=generator) * spreads[None, :, None, None, None] \
        + means[None, :, None, None, None]
    mean, std = channel_stats(table.to(torch.bfloat16), chunk=64)
    assert mean == pytest.approx(means.tolist(), abs=0.02) and std == pytest.approx(spreads.tolist(), rel=0.02)
    latent = LatentConfig(channels=(8, 16), latent_channels=3, temporal=2)
    config = ModelConfig(latent=latent, latent_mean=mean, latent_std=std)
    canvas = to_canvas(config, table)
    per_channel = canvas.transpose(0, 1).reshape(3, -1)
    torch.testing.assert_close(per_channel.mean(dim=1), torch.zeros(3), atol=0.02, rtol=0)
    torch.testing.assert_close(per_channel.std(dim=1), torch.ones(3), atol=0.02, rtol=0)
    torch.testing.assert_close(from_canvas(config, canvas), table, atol=1e-5, rtol=1e-5)
    # without channel statistics the canvas is the latent over one spread, as the shipped model's
    plain = ModelConfig(latent=latent, latent_scale=2.0)
    torch.testing.assert_close(to_canvas(plain, table), table / 2)
    torch.testing.assert_close(from_canvas(plain, table), table * 2)


def test_channel_statistics_of_the_wrong_length_or_spread_are_refused_by_name() -> None:
    latent = LatentConfig(channels=(8, 16), latent_channels=3, temporal=2)
    with pytest.raises(ValueError, match="model.latent_std holds 2 values; the latent has 3 channels"):
        check_limits(ModelConfig(latent=latent, latent_mean=(0.0, 0.0, 0.0), latent_std=(1.0, 1.0)))
    with pytest.raises(ValueError, match="model.latent_std should be above 0"):
        check_limits(ModelConfig(latent=latent, latent_mean=(0.0, 0.0, 0.0), latent_std=(1.0, 0.0, 1.0)))
    with pytest.raises(ValueError, match="this model has no latent"):
        check_limits(ModelConfig(latent_mean=(0.0,), latent_std=(1.0,)))
    check_limits(ModelConfig(latent=latent, latent_mean=(0.0, 0.1, 0.0), latent_std=(1.0, 2.0, 0.5)))


def _v2(config: TrainConfig) -> TrainConfig:
    decoder = dataclasses.replace(TINY.model.decoder, param="skip", loss_space="out", channel_norm=True)
    return dataclasses.replace(TINY, model=dataclasses.replace(TINY.model, decoder=decoder))


def test_a_run_with_the_skip_and_channel_statistics_exports_a_checkpoint_the_runtime_decodes(tmp_path: Path) -> None:
    config = _v2(TINY)
    out, export, cache = tmp_path / "run", tmp_path / "ckpt" / "mini", tmp_path / "cache"
    lines: list[str] = []
    done = run(config, out, device="cpu", export=export, cache=cache, log=lines.append)
    assert done.stages["decoder"].done and done.stages["adapt"].done
    channels = TINY.model.latent.latent_channels  # type: ignore[union-attr]
    assert done.latent_std is not None and len(done.latent_std) == channels and min(done.latent_std) > 0
    assert done.latent_mean is not None and len(done.latent_mean) == channels
    assert any("latent channels" in line for line in lines)
    model = weights.model_config(weights.read_manifest(export), export)
    assert model.decoder.param == "skip" and model.latent_std == pytest.approx(tuple(done.latent_std))
    assert json.loads((out / "state" / "run.json").read_text())["latent_std"] == pytest.approx(done.latent_std)

    runtime = MiniRuntime.load(export, CPU, CPU)
    clips = runtime.decode(torch.randn(2, 32, 64), [1, 4], [0, 1], steps=2)
    # a config edited to lose the statistics is refused, not decoded in the wrong colours
    edited = tmp_path / "edited" / "mini"
    shutil.copytree(export, edited)
    manifest = json.loads((edited / "config.json").read_text())
    del manifest["model"]["latent_std"], manifest["model"]["latent_mean"]
    (edited / "config.json").write_text(json.dumps(manifest))
    with pytest.raises(EngineLoadError, match="decoder.channel_norm is on but model.latent_std"):
        MiniRuntime.load(edited, CPU, CPU)
    video = TINY.model.video
    assert clips.shape == (2, video.frames, video.height, video.width, 3)
    # the statistics decide the pixels: the same noise decoded under other statistics differs
    shifted = dataclasses.replace(runtime.config, latent_mean=tuple(v + 1.0 for v in model.latent_mean))
    other = MiniRuntime.load(export, CPU, CPU)
    other.config = shifted
    torch.manual_seed(0)
    again = other.decode(torch.randn(2, 32, 64), [1, 4], [0, 1], steps=2)
    assert not torch.equal(clips, again)


def test_channel_statistics_are_not_put_under_a_decoder_trained_without_them(tmp_path: Path) -> None:
    """A decoder trained on one spread can't go on under per-channel statistics: its canvas
    would change under it. The error names the restart that trains it again."""
    export = tmp_path / "export" / "mini"
    run(TINY, tmp_path / "run", device="cpu", export=export, log=lambda _m: None)
    v2 = _v2(TINY)
    with pytest.raises(ValueError, match="--restart decoder"):  # adapting it would change its canvas
        run(v2, tmp_path / "other", device="cpu", init=export, stages=("adapt",), restart=("adapt",),
            log=lambda _m: None)
    # the other way round: a decoder trained on the channels' statistics under a config without them
    v2_export = tmp_path / "v2" / "mini"
    run(v2, tmp_path / "v2run", device="cpu", export=v2_export, stages=("autoencoder", "decoder"),
        log=lambda _m: None)
    with pytest.raises(ValueError, match="keep decoder.channel_norm true"):
        run(TINY, tmp_path / "fourth", device="cpu", init=v2_export, stages=("adapt",), log=lambda _m: None)
    # restarted, the decoder trains from its start on the channels' statistics
    lines: list[str] = []
    again = run(v2, tmp_path / "third", device="cpu", init=export, stages=("decoder",),
                restart=("decoder",), log=lines.append)
    assert again.stages["decoder"].done and again.latent_std is not None
    assert any("latent channels" in line for line in lines)


def test_the_average_warm_up_counts_the_steps_before_a_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decoder's weights average reaches its configured decay across resumed calls: with
    the warm-up counted from each call's start it never would in calls of a few thousand steps."""
    config = dataclasses.replace(TINY, decoder_stage=dataclasses.replace(TINY.decoder_stage, steps=2, minutes=1.0))
    out = tmp_path / "run"
    run(config, out, device="cpu", stages=("autoencoder", "decoder"), log=lambda _m: None)
    more = dataclasses.replace(config, decoder_stage=dataclasses.replace(config.decoder_stage, steps=5))
    from studio.engines.mini import train as train_module

    seen: list[int] = []
    original = train_module.EMA.update

    def spy(self: train_module.EMA, module: torch.nn.Module) -> None:
        seen.append(self.updates)
        original(self, module)

    monkeypatch.setattr(train_module.EMA, "update", spy)
    run(more, out, device="cpu", stages=("decoder",), log=lambda _m: None)
    assert seen == [2, 3, 4]


def test_added_terms_are_balanced_on_the_network_output_of_a_preconditioned_decoder() -> None:
    """With ``scale`` (c_out per sample) the critic's and adversary's weight matches gradient
    norms on the network's output: samples near the clip, whose prediction gradient is
    1 / c_out times larger, no longer inflate it."""
    from studio.engines.mini.critic import balanced

    torch.manual_seed(0)
    prediction = torch.randn(4, 2, 3, requires_grad=True)
    near_clip = torch.tensor([100.0, 1.0, 1.0, 1.0])[:, None, None]
    reconstruction = (prediction ** 2 * near_clip).sum()
    term = (prediction * torch.randn(4, 2, 3)).sum()
    scale = torch.tensor([0.1, 1.0, 1.0, 1.0])[:, None, None]

    def weight(given: torch.Tensor | None) -> float:
        total = balanced(reconstruction, term, prediction, 2.0, scale=given)
        return float((total - reconstruction).detach() / term.detach())

    mine = torch.autograd.grad(reconstruction, prediction, retain_graph=True)[0]
    theirs = torch.autograd.grad(term, prediction, retain_graph=True)[0]
    assert weight(None) == pytest.approx(2.0 * float(mine.norm() / theirs.norm()), rel=1e-5)
    assert weight(scale) == pytest.approx(2.0 * float((mine * scale).norm() / (theirs * scale).norm()), rel=1e-5)
    assert weight(scale) < weight(None) / 3


def test_a_paused_decoder_stage_goes_on_from_its_export_with_the_same_channel_statistics(tmp_path: Path) -> None:
    """How the rebuilt decoder trains over several device sessions: a call paused by its time
    budget exports the stage's progress and the channels' statistics, and a run started from
    that export (``--init``, no restart) goes on from the same step, on the same canvas."""
    v2 = _v2(TINY)
    config = dataclasses.replace(v2, decoder_stage=dataclasses.replace(v2.decoder_stage, steps=100_000, minutes=5.0))
    export = tmp_path / "a" / "mini"
    first = run(config, tmp_path / "run1", device="cpu", minutes=0.12, export=export,
                stages=("autoencoder", "decoder"), log=lambda _m: None)
    paused = first.stages["decoder"]
    assert not paused.done and paused.steps > 0 and first.latent_std is not None
    carried = weights.read_manifest(export)["training"]["run"]
    assert carried["stages"]["decoder"]["steps"] == paused.steps and carried["latent_std"] == first.latent_std

    lines: list[str] = []
    second = run(config, tmp_path / "run2", device="cpu", minutes=0.12, init=export, stages=("decoder",),
                 log=lines.append)
    assert any(f"stage decoder start_step={paused.steps} " in line for line in lines)
    assert second.stages["decoder"].steps > paused.steps and not second.stages["decoder"].done
    assert second.latent_std == first.latent_std and second.latent_mean == first.latent_mean
    assert not any("latent channels" in line for line in lines), "measured once, then carried"
