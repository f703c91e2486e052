"""The training command at toy size on the CPU: every stage runs a few steps, a run paused by
its time budget resumes where it stopped, and the export is a checkpoint the engine loads."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.base import EngineConfig  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.config import load_train_config, named_config  # noqa: E402
from studio.engines.mini.train import STAGES, main, run  # noqa: E402

CONFIG = load_train_config(named_config("tiny"))


def test_a_paused_run_resumes_and_exports_a_checkpoint_the_engine_loads(tmp_path: Path) -> None:
    out, export, cache = tmp_path / "run", tmp_path / "ckpt" / "mini", tmp_path / "cache"
    lines: list[str] = []
    paused = run(CONFIG, out, device="cpu", minutes=0.01, export=export, cache=cache, log=lines.append)
    assert not paused.stages["decoder"].done, "a budget smaller than the reserve stops before training"
    assert any("stage decoder not started: this run's time is up" in line for line in lines)
    assert (out / "state" / "run.json").is_file() and list(cache.glob("*.jsonl.gz"))

    lines.clear()
    done = run(CONFIG, out, device="cpu", export=export, cache=cache, log=lines.append)
    assert any(line.split("] ", 1)[-1].startswith("resuming") for line in lines)
    assert any("text episodes from the cache" in line for line in lines)
    expected = {"decoder": CONFIG.decoder_stage.steps, "judge": CONFIG.judge_stage.steps,
                "lm": CONFIG.lm_stage.steps, "adapt": CONFIG.adapt_stage.steps, "distill": CONFIG.distill_stage.steps}
    for name, steps in expected.items():
        assert done.stages[name].done and done.stages[name].steps == steps
    assert done.stages["eval"].done and 0 <= done.metrics["level_accuracy"] <= 1
    assert any("distilling student_steps=1 teacher_steps=2 guidance=2" in line for line in lines)
    assert (out / "state" / "distill_teacher.safetensors").is_file()

    manifest = weights.read_manifest(export)
    assert set(weights.ENGINE_FILES[1:]) | {weights.ENCODER, weights.JUDGE} <= set(manifest["files"])
    assert manifest["training"]["run"]["stages"]["lm"]["steps"] == CONFIG.lm_stage.steps
    assert (export / "samples.png").is_file()

    from studio.core.instruction import parse_instruction
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext
    from studio.engines.mini.engine import MiniEngine

    engine = MiniEngine(EngineConfig(checkpoints=export.parent, threads=1))
    engine.load()
    settings = MiniSettings.from_values({"steps": 1, "height": 32, "width": 48})
    prediction = engine.predict(GenerationContext(), parse_instruction("Motion: wave."), settings, 1)
    assert engine.decode(prediction, settings, 1).frames.shape == (17, 32, 48, 3)

    # a finished run has nothing left to do: no stage takes another step
    lines.clear()
    again = run(CONFIG, out, device="cpu", export=export, cache=cache, log=lines.append)
    assert {k: v.steps for k, v in again.stages.items()} == {k: v.steps for k, v in done.stages.items()}
    assert not any(line.split("] ", 1)[-1].startswith("stage decoder ") for line in lines)

    # another config's run in the same folder is refused, naming what differs (it would otherwise
    # continue this run's weights and skip its own --init and --restart)
    other = dataclasses.replace(CONFIG, name="another", seed=CONFIG.seed + 1)
    with pytest.raises(SystemExit, match="differs from 'another' in: seed. Give a fresh --out"):
        run(other, out, device="cpu", export=export, cache=cache, log=lines.append)
    lines.clear()
    renamed = dataclasses.replace(CONFIG, name="the same run, other stage caps",
                                  lm_stage=dataclasses.replace(CONFIG.lm_stage, minutes=5.0),
                                  data=dataclasses.replace(CONFIG.data, workers=CONFIG.data.workers + 3))
    # a later lease's caps and another machine's render processes: resumed
    run(renamed, out, device="cpu", export=export, cache=cache, log=lines.append)
    assert any(line.split("] ", 1)[-1].startswith("resuming") for line in lines)


def test_the_command_line_runs_chosen_stages(tmp_path: Path) -> None:
    assert main(["--config", "tiny", "--out", str(tmp_path / "run"), "--device", "cpu", "--stages", "judge"]) == 0
    state = json.loads((tmp_path / "run" / "state" / "run.json").read_text())
    assert state["stages"]["judge"]["done"] and not state["stages"]["decoder"]["done"]
    assert set(state["stages"]) == set(STAGES)
    with pytest.raises(SystemExit):
        main(["--config", "tiny", "--out", str(tmp_path / "x"), "--stages", "nonsense"])


def test_the_encoder_motion_loss_trains_a_head_kept_with_the_run_state(tmp_path: Path) -> None:
    import dataclasses

    assert CONFIG.encoder_motion_loss > 0, "the tiny config exercises the auxiliary loss"
    run(CONFIG, tmp_path / "on", device="cpu", stages=("decoder",), log=lambda _m: None)
    assert (tmp_path / "on" / "state" / "encoder_aux.safetensors").is_file()
    off = dataclasses.replace(CONFIG, encoder_motion_loss=0.0)
    run(off, tmp_path / "off", device="cpu", stages=("decoder",), log=lambda _m: None)
    assert not (tmp_path / "off" / "state" / "encoder_aux.safetensors").exists()


def test_the_decoder_experiment_prepares_data_trains_to_a_flop_budget_and_scores(tmp_path: Path) -> None:
    from studio.engines.mini import experiment

    data = tmp_path / "data.pt"
    experiment.prepare(data, train_episodes=2, heldout_episodes=1, height=32, width=48, workers=1)
    variant = experiment.Variant(decoder=dataclasses.replace(
        experiment.DecoderConfig(), hidden=32, layers=1, heads=2, patch=8, tpatch=2, head_hidden=32, spatial_rep=True,
        loss_space="x"), batch=2, warmup=1)
    out = tmp_path / "run.json"
    result = experiment.run(data, variant, 0.002, out, seed=0, sample_steps=[1, 2])
    assert json.loads(out.read_text())["steps"] == result["steps"] >= 1
    assert result["steps"] == max(1, int(0.002e12 / (result["step_gflops"] * 1e9)))
    assert result["ground_truth"]["psnr"] == 100.0  # the reference against itself
    for key in ("raw", "ema", "raw_2", "ema_2"):
        assert 0 <= result[key]["location"] <= 1 and 0 < result[key]["psnr"] < 100
    assert (tmp_path / "run.safetensors").is_file() and (tmp_path / "run_1.png").is_file()
    assert result["ground_truth"]["change"] > 0 and "fg_change" in result["ema"]
    report = experiment.diagnose(data, tmp_path / "diagnosis.json", tmp_path / "run.safetensors", variant, steps=1)
    assert set(report["probes"]["mean of text tokens"]) == {"motion", "location", "character"}
    judged = report["generated"]["judge motion"]
    assert judged["ground truth, first frame held"]["same as on the frozen first frame"] == 1.0
    assert report["generated"]["swap text tokens: mean |change| of the clip"] >= 0


def test_the_experiment_helpers_oracle_codes_probe_and_frame_change() -> None:
    from studio.engines.mini import experiment

    reps = torch.randn(6, 32, 64)
    motions = torch.tensor([0, 1, 0, 2, 1, 0])
    coded = experiment.oracle_text(reps, motions, 8)
    assert torch.equal(coded[:, 8:], reps[:, 8:])  # the image tokens are kept
    assert torch.equal(coded[0, :8], coded[2, :8]) and not torch.equal(coded[0, :8], coded[1, :8])
    still = torch.zeros(2, 3, 5, 8, 8)
    assert experiment.frame_change(still) == 0.0
    still[:, :, 2:] = 1.0  # one step of 1.0 among four changes
    assert experiment.frame_change(still) == pytest.approx(0.25)
    mask = torch.ones(2, 1, 1, 8, 8)
    moving = torch.zeros(2, 3, 5, 8, 8)
    moving[1, :, 1::2] = 1.0  # the second clip moves, the first does not
    assert experiment.frame_changes(moving, mask).tolist() == [0.0, 1.0]
    assert experiment.correlation(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 4.0, 6.5])) > 0.99
    coarse = experiment.blocks(torch.randn(1, 3, 2, 8, 8), 4)
    assert torch.equal(coarse[..., :4, :4], coarse[..., :1, :1].expand(-1, -1, -1, 4, 4))
    generator = torch.Generator().manual_seed(0)
    labels = torch.randint(0, 3, (60,), generator=generator)
    features = torch.nn.functional.one_hot(labels, 3).float() + 0.1 * torch.randn(60, 3, generator=generator)
    assert experiment.linear_probe(features[:40], labels[:40], features[40:], labels[40:]) == 1.0
    noise = torch.randn(60, 3, generator=generator)
    assert experiment.linear_probe(noise[:40], labels[:40], noise[40:], labels[40:]) < 0.8


def test_a_frozen_encoder_keeps_the_representation_space_while_the_decoder_trains(tmp_path: Path) -> None:
    first = tmp_path / "first"
    run(CONFIG, tmp_path / "a", device="cpu", stages=("decoder",), export=first, log=lambda _m: None)
    frozen = dataclasses.replace(CONFIG, freeze_encoder=True)
    state = run(frozen, tmp_path / "b", device="cpu", stages=("decoder", "adapt"), init=first,
                restart=("decoder", "adapt"), log=lambda _m: None)
    assert state.stages["decoder"].done and state.stages["adapt"].done and not state.stages["lm"].done
    exported = weights.load_tensors(first / weights.ENCODER)
    kept = weights.load_tensors(tmp_path / "b" / "state" / "encoder.safetensors")
    assert all(torch.equal(kept[k], v.float()) for k, v in exported.items())
    decoder_before = weights.load_tensors(first / weights.DECODER)
    decoder_after = weights.load_tensors(tmp_path / "b" / "state" / "decoder.safetensors")
    assert any(not torch.equal(decoder_after[k].half(), v) for k, v in decoder_before.items())


def test_the_decoder_experiment_trains_on_an_autoencoders_latent_and_decodes_its_samples(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from safetensors.torch import save_model

    from studio.engines.mini import experiment, latent_ae
    from studio.engines.mini.config import LatentConfig, ModelConfig

    latent = LatentConfig(channels=(8, 8), patch=2, temporal=2, latent_channels=4, blocks=1, groups=4)
    torch.manual_seed(0)
    weights_path = tmp_path / "ae.fp16.safetensors"
    save_model(latent_ae.VideoAutoencoder(latent).half(), str(weights_path))  # drops Downsample2D's alias
    loaded = experiment.load_autoencoder(weights_path, latent)
    assert next(loaded.parameters()).dtype == torch.float32
    with pytest.raises(ValueError, match="not a"):
        experiment.load_autoencoder(weights_path, dataclasses.replace(latent, latent_channels=8))

    rep = ModelConfig().representation
    generator = torch.Generator().manual_seed(0)

    def part(n: int) -> dict[str, torch.Tensor]:
        return {"clips": torch.randint(0, 256, (n, 17, 32, 48, 3), dtype=torch.uint8, generator=generator),
                "reps": torch.randn(n, rep.tokens, rep.dim, generator=generator),
                "levels": torch.randint(1, 6, (n,), generator=generator),
                "labels": torch.zeros(n, 4, dtype=torch.long),
                "occupancy": (torch.rand(n, 196, generator=generator) > 0.8).float()}

    data = tmp_path / "data.pt"
    torch.save({"height": 32, "width": 48, "frames": 17, "train": part(6), "heldout": part(3)}, data)
    variant = experiment.Variant(decoder=dataclasses.replace(
        experiment.DecoderConfig(), hidden=32, layers=1, heads=2, patch=2, tpatch=1, head_hidden=32, spatial_rep=True,
        loss_space="x"), batch=2, warmup=1, frame_step=1)
    decoded: list[tuple[int, ...]] = []
    forward = latent_ae.Decoder.forward

    def spy(self: latent_ae.Decoder, z: torch.Tensor) -> torch.Tensor:
        decoded.append(tuple(z.shape))
        return forward(self, z)

    monkeypatch.setattr(latent_ae.Decoder, "forward", spy)
    out = tmp_path / "latent.json"
    result = experiment.run(data, variant, 0.001, out, seed=0, sample_steps=[1, 2], nets=("ema",),
                            latent=(weights_path, latent))
    canvas = [4, 9, 8, 12]  # 17 x 32 x 48 clips, 2x in time, 4x in space
    assert result["latent"]["canvas"] == canvas and result["latent"]["latent_scale"] > 0
    assert result["steps"] == max(1, int(0.001e12 / (result["step_gflops"] * 1e9)))
    assert (3, *canvas) in decoded, "the held-out samples are latents the autoencoder decodes"
    for key in ("ema", "ema_2"):
        assert 0 < result[key]["psnr"] < 100 and result[key]["sample_gflops_per_clip"] > 0
        assert "raw" not in result and result[key]["change"] >= 0
    assert (tmp_path / "latent_1.png").is_file() and (tmp_path / "latent.safetensors").is_file()
    caches = list(tmp_path.glob("data.latent-*.pt"))
    assert len(caches) == 1 and torch.load(caches[0])["table"].shape == (6, *canvas)
    capsys.readouterr()
    again = experiment.run(data, variant, 0.001, tmp_path / "again.json", seed=0, sample_steps=[1], nets=("ema",),
                           latent=(weights_path, latent))
    assert "latent table from" in capsys.readouterr().out  # the second run reuses the encoded table
    assert again["latent"]["latent_scale"] == result["latent"]["latent_scale"]
    with pytest.raises(ValueError, match="frame_step 1"):
        experiment.run(data, dataclasses.replace(variant, frame_step=2), 0.001, out, seed=0, sample_steps=[1],
                       latent=(weights_path, latent))


def test_a_stage_clock_leaves_each_invocations_first_step_out_of_the_cap() -> None:
    """On a GPU the first step compiles (50-90 s): a one-minute stage must still train a minute."""
    from studio.engines.mini.train import StageClock

    now = [100.0]
    clock = StageClock(seconds_before=30.0, now=lambda: now[0])
    now[0] += 80.0  # the first step, compiling
    assert clock.spent() == pytest.approx(110.0)  # before it is marked, everything counts
    assert clock.first_step_done() == pytest.approx(80.0)
    assert clock.spent() == pytest.approx(30.0)
    now[0] += 45.0
    assert clock.first_step_done() == pytest.approx(80.0)  # marked once per invocation
    assert clock.spent() == pytest.approx(75.0)


def test_a_stage_shorter_than_its_log_interval_records_its_last_loss(tmp_path: Path) -> None:
    short = dataclasses.replace(CONFIG, judge_stage=dataclasses.replace(CONFIG.judge_stage, steps=2, log_every=1000))
    state = run(short, tmp_path / "run", device="cpu", stages=("judge",), log=lambda _m: None)
    judge = state.stages["judge"]
    assert judge.done and judge.steps == 2
    assert judge.loss == judge.loss and judge.loss > 0  # not NaN: the last step's loss


def test_a_stage_paused_by_the_budget_holds_back_the_later_stages_and_the_evaluation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lease's first call once evaluated a model whose adaptation had not run, marked the
    evaluation done, and the second call, which adapted it, never evaluated the result."""
    import math

    from studio.engines.mini import train

    out_of_time = [False]

    class EndsAtTheLMStage:
        def __init__(self, minutes: float) -> None:
            self.minutes = minutes

        def elapsed(self) -> float:
            return 0.0

        def left(self) -> float:
            return 0.0 if out_of_time[0] else math.inf

    lines: list[str] = []

    def log(line: str) -> None:
        lines.append(line)
        if line.split("] ", 1)[-1].startswith("stage lm start_step"):
            out_of_time[0] = True

    monkeypatch.setattr(train, "Budget", EndsAtTheLMStage)
    out = tmp_path / "run"
    paused = run(CONFIG, out, device="cpu", log=log)
    assert paused.stages["judge"].done and not paused.stages["lm"].done
    assert not paused.stages["adapt"].done and not paused.stages["eval"].done and not paused.metrics
    assert any("stage eval not started: stage lm paused" in line for line in lines)

    monkeypatch.undo()
    done = run(CONFIG, out, device="cpu", log=lines.append)
    assert done.stages["lm"].done and done.stages["adapt"].done and done.stages["eval"].done
    assert 0 <= done.metrics["level_accuracy"] <= 1


def test_a_frozen_encoders_representation_table_trains_the_decoder_as_encoding_each_batch_did(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.engines.mini import train

    config = dataclasses.replace(CONFIG, freeze_encoder=True, render_before_training=True,
                                 decoder_stage=dataclasses.replace(CONFIG.decoder_stage, steps=3, log_every=1))
    lines: list[str] = []
    from_table = run(config, tmp_path / "table", device="cpu", stages=("decoder",), log=lines.append)
    assert any("representation table" in line for line in lines)

    monkeypatch.setattr(train.Trainer, "representation_table", lambda self: None)
    per_batch = run(config, tmp_path / "batch", device="cpu", stages=("decoder",), log=lambda _m: None)
    assert from_table.stages["decoder"].steps == per_batch.stages["decoder"].steps == 3
    assert from_table.stages["decoder"].loss == pytest.approx(per_batch.stages["decoder"].loss, rel=1e-5)


def test_uploads_keep_the_drawn_values_on_the_cpu_and_on_a_gpu(tmp_path: Path) -> None:
    from studio.engines.mini.train import Budget, Trainer

    drawn = torch.rand(5, generator=torch.Generator().manual_seed(3))
    trainer = Trainer(CONFIG, tmp_path / "run", torch.device("cpu"), Budget(0), log=lambda _m: None)
    assert torch.equal(trainer.upload(drawn), drawn)
    if torch.cuda.is_available():
        gpu = Trainer(CONFIG, tmp_path / "gpu", torch.device("cuda"), Budget(0), log=lambda _m: None)
        assert torch.equal(gpu.upload(drawn).cpu(), drawn)


def test_set_changes_config_fields_for_a_variant_and_refuses_what_does_not_fit(tmp_path: Path) -> None:
    from studio.engines.mini.config import load_train_config, named_config

    path = named_config("h200_latent6")
    variant = load_train_config(path, ["critic.balance=1.0", "critic.in_distill=true", "data.workers=8",
                                       "critic.widths=[32, 32, 64]", "decoder_stage.minutes=30"])
    base = load_train_config(path)
    assert (variant.critic.balance, variant.critic.in_distill, variant.data.workers) == (1.0, True, 8)
    assert variant.critic.widths == (32, 32, 64) and variant.decoder_stage.minutes == 30
    assert dataclasses.replace(variant, critic=base.critic, data=base.data, decoder_stage=base.decoder_stage) == base
    for bad, message in (("critic.balance=abc", "takes a float"), ("critic.nope=1", "no field"),
                         ("critic=3", "group of fields"), ("noequals", "FIELD=VALUE"),
                         ("critic.in_distill=1", "takes a bool"), ("seed.x=1", "a value, not a group")):
        with pytest.raises(ValueError, match=message):
            load_train_config(path, [bad])
    with pytest.raises(SystemExit, match="--set: critic.balance takes a float"):
        main(["--config", "h200_latent6", "--out", str(tmp_path / "run"), "--set", "critic.balance=abc"])
