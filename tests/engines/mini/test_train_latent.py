"""The training command with a latent decoder, at toy size on the CPU: the autoencoder stage
first, the latent table and its scale, the decoder stages on latents, a run paused by its time
budget resuming, ``--restart autoencoder`` from an export, and a checkpoint the engine loads."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.config import load_train_config, named_config  # noqa: E402
from studio.engines.mini.runtime import MiniRuntime  # noqa: E402
from studio.engines.mini.train import STAGES, main, run  # noqa: E402

CONFIG = load_train_config(named_config("tiny_latent"))
CPU = torch.device("cpu")


def _steps(lines: list[str], stage: str) -> list[str]:
    return [line for line in lines if line.split("] ", 1)[-1].startswith(f"{stage} step=")]


def test_a_latent_run_trains_every_stage_resumes_and_exports_a_checkpoint_the_runtime_decodes(tmp_path: Path) -> None:
    out, export, cache = tmp_path / "run", tmp_path / "ckpt" / "mini", tmp_path / "cache"
    assert STAGES[0] == "autoencoder"
    lines: list[str] = []
    # 3.6 s: more than a third of the CPU's 5 s reserve (the stage starts), less than all of it (it pauses)
    paused = run(CONFIG, out, device="cpu", minutes=0.06, export=export, cache=cache, log=lines.append)
    assert not paused.stages["autoencoder"].done and not paused.stages["decoder"].done
    assert paused.latent_scale is None
    assert any("stage autoencoder paused: this run's time is up" in line for line in lines)
    assert not _steps(lines, "decoder"), "the decoder never starts before the autoencoder is done"

    lines.clear()
    done = run(CONFIG, out, device="cpu", export=export, cache=cache, log=lines.append)
    assert any(line.split("] ", 1)[-1].startswith("resuming") for line in lines)
    expected = {"autoencoder": CONFIG.autoencoder_stage.steps, "decoder": CONFIG.decoder_stage.steps,
                "judge": CONFIG.judge_stage.steps, "lm": CONFIG.lm_stage.steps, "adapt": CONFIG.adapt_stage.steps}
    for name, steps in expected.items():
        assert done.stages[name].done and done.stages[name].steps == steps, name
    assert len(_steps(lines, "autoencoder")) == CONFIG.autoencoder_stage.steps
    assert done.stages["eval"].done and 0 <= done.metrics["level_accuracy"] <= 1
    assert any("latent table" in line for line in lines)
    scale = done.latent_scale
    assert scale is not None and scale > 0 and scale != 1.0
    assert (out / "state" / "autoencoder.safetensors").is_file()

    manifest = weights.read_manifest(export)
    config = weights.model_config(manifest, export)
    assert config.latent == CONFIG.model.latent and config.latent_scale == pytest.approx(scale)
    assert manifest["training"]["run"]["latent_scale"] == pytest.approx(scale)
    assert set(weights.engine_files(config)[1:]) | {weights.LATENT_ENCODER} <= set(manifest["files"])
    assert (export / "samples.png").is_file()

    runtime = MiniRuntime.load(export, CPU, CPU)
    clips = runtime.decode(torch.randn(3, 32, 64), [1, 2, 5], [0, 1, 2], steps=2)
    video = CONFIG.model.video
    assert clips.dtype == torch.uint8 and clips.shape == (3, video.frames, video.height, video.width, 3)

    # a finished run has nothing left to do; its scale stays the one measured
    lines.clear()
    again = run(CONFIG, out, device="cpu", export=export, cache=cache, log=lines.append)
    assert {k: v.steps for k, v in again.stages.items()} == {k: v.steps for k, v in done.stages.items()}
    assert not any("] stage " in line and " start_step=" in line for line in lines)
    assert again.latent_scale == pytest.approx(scale)


def test_a_raised_stage_cap_continues_the_autoencoder_and_keeps_its_state(tmp_path: Path) -> None:
    """``--out`` again with more autoencoder steps: the stage continues from its saved weights."""
    first = dataclasses.replace(CONFIG, autoencoder_stage=dataclasses.replace(CONFIG.autoencoder_stage, steps=2))
    run(first, tmp_path / "run", device="cpu", stages=("autoencoder",), log=lambda _m: None)
    state = json.loads((tmp_path / "run" / "state" / "run.json").read_text())
    assert state["stages"]["autoencoder"] == {**state["stages"]["autoencoder"], "steps": 2, "done": True}
    saved = weights.load_tensors(tmp_path / "run" / "state" / "autoencoder.safetensors")

    more = dataclasses.replace(CONFIG, autoencoder_stage=dataclasses.replace(
        CONFIG.autoencoder_stage, steps=4, minutes=10.0))
    lines: list[str] = []
    state2 = run(more, tmp_path / "run", device="cpu", stages=("autoencoder", "decoder"), log=lines.append)
    assert any("stage autoencoder continues" in line for line in lines)
    assert state2.stages["autoencoder"].steps == 4 and state2.stages["decoder"].done
    assert [line.split("step=")[1].split()[0] for line in _steps(lines, "autoencoder")] == ["3", "4"]
    resumed = weights.load_tensors(tmp_path / "run" / "state" / "autoencoder.safetensors")
    assert set(resumed) == set(saved) and any(not torch.equal(resumed[k], saved[k]) for k in saved)


def test_restart_autoencoder_trains_the_exported_autoencoder_on_and_measures_its_new_scale(tmp_path: Path) -> None:
    export = tmp_path / "first"
    first = run(CONFIG, tmp_path / "a", device="cpu", stages=("autoencoder", "decoder"), export=export,
                log=lambda _m: None)
    lines: list[str] = []
    frozen = dataclasses.replace(CONFIG, freeze_encoder=True)
    again = ("autoencoder", "decoder", "adapt")
    second = run(frozen, tmp_path / "b", device="cpu", stages=again, init=export, restart=again, log=lines.append)
    assert second.stages["autoencoder"].steps == CONFIG.autoencoder_stage.steps
    assert len(_steps(lines, "autoencoder")) == CONFIG.autoencoder_stage.steps
    assert second.stages["decoder"].done and second.stages["adapt"].done and not second.stages["lm"].done
    assert second.latent_scale is not None and second.latent_scale != pytest.approx(first.latent_scale)
    kept = run(frozen, tmp_path / "c", device="cpu", stages=("decoder",), init=export, restart=("decoder",),
               log=lambda _m: None)
    assert kept.latent_scale == pytest.approx(first.latent_scale), "the init's autoencoder and scale are kept"
    before = weights.load_tensors(export / weights.LATENT_DECODER)
    after = weights.load_tensors(tmp_path / "c" / "state" / "autoencoder.safetensors")
    assert all(torch.equal(after[f"decoder.{k}"].half(), v) for k, v in before.items())


def test_the_lease_command_line_with_restart_autoencoder(tmp_path: Path) -> None:
    """The lease's command shape (``--init`` a pixel checkpoint, ``--restart
    autoencoder,decoder,adapt``): the pixel decoder's weights are not loaded into the latent one."""
    pixel = tmp_path / "pixel"
    run(load_train_config(named_config("tiny")), tmp_path / "p", device="cpu", stages=("decoder",), export=pixel,
        log=lambda _m: None)
    config_file = tmp_path / "latent.json"
    data = json.loads(named_config("tiny_latent").read_text())
    config_file.write_text(json.dumps({**data, "freeze_encoder": True}))
    assert main(["--config", str(config_file), "--out", str(tmp_path / "run"), "--device", "cpu", "--init", str(pixel),
                 "--restart", "autoencoder,decoder,adapt", "--stages", "autoencoder,decoder"]) == 0
    state = json.loads((tmp_path / "run" / "state" / "run.json").read_text())
    assert state["stages"]["autoencoder"]["done"] and state["stages"]["decoder"]["done"]
    assert state["latent_scale"] > 0
    # the clip encoder came from the pixel checkpoint (frozen)
    exported = weights.load_tensors(pixel / weights.ENCODER)
    kept = weights.load_tensors(tmp_path / "run" / "state" / "encoder.safetensors")
    assert all(torch.equal(kept[k], v.float()) for k, v in exported.items())
    with pytest.raises(ValueError, match="add autoencoder,decoder,adapt to --restart"):
        run(CONFIG, tmp_path / "x", device="cpu", stages=("decoder",), init=pixel, log=lambda _m: None)


def test_a_latent_config_must_render_before_training(tmp_path: Path) -> None:
    background = dataclasses.replace(CONFIG, render_before_training=False)
    with pytest.raises(ValueError, match="render_before_training"):
        run(background, tmp_path / "run", device="cpu", log=lambda _m: None)


def test_a_pixel_model_skips_the_autoencoder_stage(tmp_path: Path) -> None:
    lines: list[str] = []
    state = run(load_train_config(named_config("tiny")), tmp_path / "run", device="cpu", stages=("autoencoder",),
                log=lines.append)
    assert state.stages["autoencoder"].done and state.stages["autoencoder"].steps == 0
    assert any("stage autoencoder skipped" in line for line in lines)
    assert state.latent_scale is None and not (tmp_path / "run" / "state" / "autoencoder.safetensors").exists()


def test_the_latent_scale_is_the_standard_deviation_of_the_whole_table() -> None:
    from studio.engines.mini.train import _std

    table = torch.randn(700, 4, 3, 2, 2, generator=torch.Generator().manual_seed(0)) * 0.3 + 0.2
    assert _std(table, chunk=256) == pytest.approx(float(table.double().std()), rel=1e-9)
    assert _std(table.bfloat16()) == pytest.approx(float(table.bfloat16().double().std()), rel=1e-6)
