"""The U-Net video decoder (``decoder.kind = "unet"``): its output and conditioning, a whole
training run with it at toy size exported as a checkpoint the runtime decodes (its bulk as int8,
convolutions included), and ``--init`` from a DiT checkpoint only with its stages restarted."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.config import load_train_config, named_config  # noqa: E402
from studio.engines.mini.decoder import flow_loss, sample  # noqa: E402
from studio.engines.mini.decoders import build_decoder  # noqa: E402
from studio.engines.mini.runtime import MiniRuntime  # noqa: E402
from studio.engines.mini.train import run  # noqa: E402
from studio.engines.mini.unet import VideoUNet  # noqa: E402

TINY = load_train_config(named_config("tiny_latent"))
UNET = dataclasses.replace(TINY.model.decoder, kind="unet", widths=(8, 16, 16), attn_levels=2, mid_blocks=1)
CONFIG = dataclasses.replace(TINY, model=dataclasses.replace(TINY.model, decoder=UNET), int8_decoder_blocks=True)
CPU = torch.device("cpu")


def _randomised(model: VideoUNet, seed: int) -> VideoUNet:
    """Every parameter non-zero (a fresh U-Net's zeroed output layer would make every output 0)."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.2)
    return model.eval()


def test_the_unet_predicts_a_whole_canvas_that_follows_its_conditioning() -> None:
    model = build_decoder(CONFIG.model)
    assert isinstance(model, VideoUNet)
    net = _randomised(model, seed=1)
    generator = torch.Generator().manual_seed(2)
    rep_cfg = CONFIG.model.representation
    noisy = torch.randn(2, *net.canvas, generator=generator)
    rep = torch.randn(2, rep_cfg.tokens, rep_cfg.dim, generator=generator)
    t, level = torch.tensor([0.3, 0.7]), torch.tensor([2, 5])
    with torch.no_grad():
        out = net(noisy, t, level, rep)
        assert out.shape == noisy.shape and torch.isfinite(out).all()
        for changed in ((noisy, t, torch.tensor([1, 5]), rep), (noisy, t, level, rep.flip(0)),
                        (noisy, torch.tensor([0.9, 0.7]), level, rep)):
            other = net(*changed)
            assert not torch.allclose(other[0], out[0], atol=1e-4), "the level, representation and time count"
            assert torch.allclose(other[1], out[1], atol=1e-4) or changed[3] is not rep, "per sample"
        kept, kept_level = net.drop(rep, level, torch.tensor([True, False]))
        assert torch.equal(kept[0], rep[0]) and torch.equal(kept[1], net.null_rep) and kept_level.tolist() == [2, 0]
        made = sample(net, rep, level, noisy, steps=2, clamp=False)
    assert made.shape == noisy.shape
    weight = torch.ones(2, 1, 1, *net.canvas[2:])
    loss = flow_loss(build_decoder(CONFIG.model), noisy, level, rep, weight, generator=generator)
    loss.backward()
    assert loss.item() > 0


def test_a_canvas_that_does_not_halve_is_refused_by_size() -> None:
    decoder = dataclasses.replace(UNET, widths=(8, 8, 8, 8, 8))  # 8 x 12 halves twice, not four times
    with pytest.raises(ValueError, match="does not halve 4 times"):
        VideoUNet(dataclasses.replace(CONFIG.model, decoder=decoder))
    with pytest.raises(ValueError, match="unknown decoder kind 'vit'"):
        build_decoder(dataclasses.replace(CONFIG.model, decoder=dataclasses.replace(UNET, kind="vit")))


def test_int8_convolutions_round_trip_per_output_channel() -> None:
    generator = torch.Generator().manual_seed(0)
    conv = torch.randn(32, 16, 3, 3, generator=generator) * torch.logspace(-2, 1, 32)[:, None, None, None]
    packed = weights.quantize_int8({"down.0.resnet.conv1.weight": conv})
    assert packed["down.0.resnet.conv1.weight"].dtype == torch.int8
    back = weights.dequantize_int8(packed, Path("x"))["down.0.resnet.conv1.weight"]
    step = conv.flatten(1).abs().amax(dim=1)[:, None, None, None] / 127
    assert back.shape == conv.shape and ((back - conv).abs() <= step / 2 + 1e-7).all()
    assert (back - conv).abs().max() > 0


def test_a_unet_run_trains_exports_its_bulk_as_int8_and_the_runtime_decodes(tmp_path: Path) -> None:
    out, export, cache = tmp_path / "run", tmp_path / "ckpt" / "mini", tmp_path / "cache"
    lines: list[str] = []
    done = run(CONFIG, out, device="cpu", export=export, cache=cache, log=lines.append)
    for name in ("autoencoder", "decoder", "lm", "adapt"):
        assert done.stages[name].done, name
    blocks = weights.load_tensors(export / weights.DECODER)  # dequantised on load
    assert blocks and all(k.startswith(("down.", "downsample.", "mid.", "up.", "upsample.")) for k in blocks)
    from safetensors import safe_open

    with safe_open(str(export / weights.DECODER), "pt") as stored:
        int8 = {k for k in stored.keys() if stored.get_slice(k).get_dtype() == "I8"}  # noqa: SIM118
    large = {k for k, v in blocks.items() if k.endswith(".weight") and v.ndim >= 2 and v.numel() >= 1024}
    assert int8 == large and any(".conv" in k for k in int8), "every large matrix and convolution as int8"
    io = weights.load_tensors(export / weights.DECODER_IO)
    assert "conv_in.weight" in io and "null_rep" in io and not any(k.startswith(("down", "mid", "up")) for k in io)
    config = weights.model_config(weights.read_manifest(export), export)
    assert config.decoder.kind == "unet" and config.decoder.widths == (8, 16, 16)

    runtime = MiniRuntime.load(export, CPU, CPU)
    assert isinstance(runtime.decoder, VideoUNet)
    clips = runtime.decode(torch.randn(2, 32, 64), [1, 4], [0, 1], steps=2)
    video = CONFIG.model.video
    assert clips.dtype == torch.uint8 and clips.shape == (2, video.frames, video.height, video.width, 3)


def test_init_from_a_dit_checkpoint_restarts_the_decoder_only_when_asked(tmp_path: Path) -> None:
    dit_export = tmp_path / "dit" / "mini"
    run(TINY, tmp_path / "dit_run", device="cpu", export=dit_export, cache=tmp_path / "cache",
        stages=("autoencoder", "decoder", "judge", "lm"), log=lambda _line: None)
    with pytest.raises(ValueError, match=r"decoder is a dit, this config's a unet: add decoder,adapt to --restart"):
        run(CONFIG, tmp_path / "refused", device="cpu", init=dit_export, cache=tmp_path / "cache",
            stages=("decoder",), log=lambda _line: None)
    lines: list[str] = []
    state = run(CONFIG, tmp_path / "unet_run", device="cpu", init=dit_export, cache=tmp_path / "cache",
                stages=("decoder",), restart=("decoder", "adapt"), log=lines.append)
    assert state.stages["decoder"].done
    assert any("the decoder starts anew: the --init checkpoint's is of another kind" in line for line in lines)
