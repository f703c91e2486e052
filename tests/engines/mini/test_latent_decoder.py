"""The decoder on a latent of our own (issue 14): the config, the DiT's canvas, the checkpoint's
latent files (clear errors as the other files give) and the runtime that decodes latents to pixels."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.base import EngineConfig, EngineLoadError, RequirementKind  # noqa: E402
from studio.engines.catalog import mini as catalog  # noqa: E402
from studio.engines.mini import weights  # noqa: E402
from studio.engines.mini.config import (  # noqa: E402
    LatentConfig,
    ModelConfig,
    TrainConfig,
    from_dict,
    load_train_config,
    named_config,
    to_dict,
)
from studio.engines.mini.decoder import VideoDiT, sample  # noqa: E402
from studio.engines.mini.runtime import MiniRuntime  # noqa: E402
from studio.engines.mini.tiny import write_tiny_checkpoint  # noqa: E402
from tests.engines.mini.damage import alter_one_byte, truncate  # noqa: E402

TINY = load_train_config(named_config("tiny")).model
TINY_LATENT = load_train_config(named_config("tiny_latent")).model
CPU = torch.device("cpu")


@pytest.fixture(scope="module")
def tiny_latent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_checkpoint(tmp_path_factory.mktemp("tiny_latent") / "mini", config_name="tiny_latent")


@pytest.fixture
def checkpoints(tiny_latent: Path, tmp_path: Path) -> Path:
    shutil.copytree(tiny_latent, tmp_path / "mini")
    return tmp_path


def _load(folder: Path) -> MiniRuntime:
    return MiniRuntime.load(folder, CPU, CPU)


# -- config ------------------------------------------------------------------------------------------
def test_from_dict_reads_an_optional_latent_and_old_configs_without_one() -> None:
    old = to_dict(TINY)
    del old["latent"], old["latent_scale"]  # a config.json written before the latent decoder
    assert from_dict(ModelConfig, old).latent is None
    assert from_dict(ModelConfig, old).latent_scale == 1.0
    assert from_dict(ModelConfig, json.loads(json.dumps(old))) == TINY

    data = json.loads(json.dumps(to_dict(TINY_LATENT)))  # through JSON: lists, not tuples
    assert isinstance(data["latent"], dict)
    config = from_dict(ModelConfig, data)
    assert config == TINY_LATENT
    assert isinstance(config.latent, LatentConfig) and config.latent.channels == (8, 16)
    assert from_dict(ModelConfig, {**data, "latent": None}).latent is None
    with pytest.raises(ValueError, match="no field"):
        from_dict(ModelConfig, {**data, "latent": {**data["latent"], "nonsense": 1}})


def test_the_latent_config_moved_to_config_and_latent_ae_still_offers_it() -> None:
    from studio.engines.mini import latent_ae, latent_experiment

    assert latent_ae.LatentConfig is LatentConfig
    assert latent_experiment.Variant().latent.__class__ is LatentConfig
    # one windowing and one loss for the experiment and the training stage, not copies
    assert latent_experiment.reconstruction_loss is latent_ae.reconstruction_loss
    assert latent_experiment.Windows is latent_ae.Windows


def test_the_lease_config_round_trips_and_builds_the_planned_sizes() -> None:
    from studio.engines.mini.latent_ae import VideoAutoencoder, parameter_count

    config = load_train_config(named_config("h200_latent"))
    assert from_dict(TrainConfig, json.loads(json.dumps(to_dict(config)))) == config
    assert "latent" in config.name and config.render_before_training and config.freeze_encoder
    model = config.model
    assert model.latent is not None and model.latent.spatial == 8 and model.latent.temporal == 2
    assert model.canvas() == (16, 9, 16, 24)
    dit = VideoDiT(model)
    assert dit.canvas == (16, 9, 16, 24) and dit.grid == (9, 8, 12) and dit.position.shape[0] == 864
    assert 2.7e6 < parameter_count(VideoAutoencoder(model.latent)) < 2.9e6
    # the rest of the model is lease 7's (the LM, the clip encoder and the judge are kept)
    lease7 = load_train_config(named_config("h200_lease7"))
    for part in ("video", "representation", "encoder", "lm", "judge"):
        assert getattr(model, part) == getattr(lease7.model, part)
    assert dataclasses.replace(model.decoder, patch=16, tpatch=4) == lease7.model.decoder
    assert config.data == lease7.data


def test_every_committed_config_loads_and_the_later_latent_leases_keep_lease_8s_model() -> None:
    from studio.engines.mini.config import CONFIG_DIR

    configs = {path.stem: load_train_config(path) for path in sorted(CONFIG_DIR.glob("*.json"))}
    assert {"tiny", "h200", "h200_latent", "h200_latent3", "h200_latent4", "cpu_distill_latent"} <= set(configs)
    for config in configs.values():
        assert from_dict(TrainConfig, json.loads(json.dumps(to_dict(config)))) == config
    # a lease continued with --init must build the same networks as the export it starts from
    for name in ("h200_latent2", "h200_latent3", "h200_latent4", "cpu_distill_latent"):
        assert configs[name].model == configs["h200_latent"].model, name
    assert configs["cpu_distill_latent"].distill_stage.steps > 0


def test_the_lease_checkpoint_files_stay_under_the_repository_limit(tmp_path: Path) -> None:
    from studio.engines.mini.latent_ae import VideoAutoencoder
    from studio.engines.mini.lm import MiniLM

    model = load_train_config(named_config("h200_latent")).model
    assert model.latent is not None
    manifest = weights.save_checkpoint(tmp_path, model, "{}", lm=MiniLM(model), decoder=VideoDiT(model),
                                       autoencoder=VideoAutoencoder(model.latent))
    assert {weights.LATENT_DECODER, weights.LATENT_ENCODER} <= set(manifest["files"])
    assert all(entry["bytes"] < weights.MAX_FILE_BYTES for entry in manifest["files"].values())


def test_the_grown_decoder_config_keeps_the_rest_and_its_checkpoint_fits_32_mib(tmp_path: Path) -> None:
    from studio.engines.mini.critic import MotionCritic
    from studio.engines.mini.data import MOTION_NAMES
    from studio.engines.mini.encoder import ClipEncoder
    from studio.engines.mini.judge import Judge
    from studio.engines.mini.latent_ae import VideoAutoencoder
    from studio.engines.mini.lm import MiniLM

    grown, before = load_train_config(named_config("h200_latent5")), load_train_config(named_config("h200_latent4"))
    assert grown.model.decoder == dataclasses.replace(before.model.decoder, layers=12)
    assert dataclasses.replace(grown.model, decoder=before.model.decoder) == before.model
    assert grown.int8_decoder_blocks and grown.data == before.data
    model = dataclasses.replace(grown.model, critic=(48, 64, 96, 128))  # as shipped, with its motion critic
    assert model.latent is not None
    critic = MotionCritic(model.canvas()[0], model.critic, len(MOTION_NAMES))
    manifest = weights.save_checkpoint(tmp_path, model, "{}", lm=MiniLM(model), decoder=VideoDiT(model),
                                       encoder=ClipEncoder(model), judge=Judge(model.judge),
                                       autoencoder=VideoAutoencoder(model.latent), critic=critic, int8_blocks=True)
    sizes = {name: entry["bytes"] for name, entry in manifest["files"].items()}
    assert set(weights.WEIGHT_FILES) <= set(sizes)
    assert max(sizes.values()) < weights.MAX_FILE_BYTES
    total = sum(sizes.values()) + len(json.dumps(manifest)) + 100_000  # the config's training history grows
    assert total <= 32 * 2**20, f"{total:,} bytes"


def test_the_16_block_config_grows_lease_13s_decoder_and_its_int8_checkpoint_fits_32_mb(tmp_path: Path) -> None:
    from studio.engines.mini.critic import MotionCritic
    from studio.engines.mini.data import MOTION_NAMES
    from studio.engines.mini.encoder import ClipEncoder
    from studio.engines.mini.judge import Judge
    from studio.engines.mini.latent_ae import VideoAutoencoder
    from studio.engines.mini.lm import MiniLM

    grown, before = load_train_config(named_config("h200_latent8")), load_train_config(named_config("h200_latent7"))
    assert grown.model.decoder == dataclasses.replace(before.model.decoder, layers=16)
    assert dataclasses.replace(grown.model, decoder=before.model.decoder) == before.model
    assert grown.data == before.data and grown.int8_decoder_blocks and grown.int8_lm and not before.int8_lm
    model = dataclasses.replace(grown.model, critic=grown.critic.widths)  # the export lists its critic
    assert model.latent is not None
    critic = MotionCritic(model.canvas()[0], model.critic, len(MOTION_NAMES))
    manifest = weights.save_checkpoint(tmp_path, model, "{}", lm=MiniLM(model), decoder=VideoDiT(model),
                                       encoder=ClipEncoder(model), judge=Judge(model.judge),
                                       autoencoder=VideoAutoencoder(model.latent), critic=critic,
                                       int8_blocks=True, int8_lm=True)
    assert weights.CRITIC in manifest["files"]
    sizes = {name: entry["bytes"] for name, entry in manifest["files"].items()}
    assert max(sizes.values()) < weights.MAX_FILE_BYTES, sizes
    total = sum(sizes.values()) + len(json.dumps(manifest)) + 100_000  # the config's training history grows
    assert total <= 32_000_000, f"{total:,} bytes"
    fp16_lm = weights.save_checkpoint(tmp_path / "fp16", model, "{}", lm=MiniLM(model))["files"][weights.LM]["bytes"]
    assert total + fp16_lm - sizes[weights.LM] > 32 * 2**20, "without the int8 LM it would not fit"


# -- decoder -----------------------------------------------------------------------------------------
def test_the_dit_works_on_the_latent_canvas() -> None:
    assert VideoDiT(TINY).canvas == (3, 5, 32, 48)  # pixels, as before
    torch.manual_seed(0)
    dit = VideoDiT(TINY_LATENT).eval()
    assert dit.canvas == TINY_LATENT.canvas() == (4, 3, 8, 12)
    assert dit.grid == (3, 4, 6) and dit.patch_dim == 4 * 1 * 2 * 2
    canvas = torch.randn(2, *dit.canvas)
    assert torch.equal(dit.unpatchify(dit.patchify(canvas)), canvas)
    rep = torch.randn(2, TINY_LATENT.representation.tokens, TINY_LATENT.representation.dim)
    out = dit(canvas, torch.rand(2), torch.tensor([1, 3]), rep)
    assert out.shape == canvas.shape


def test_sampling_clamps_pixels_but_leaves_latents_as_they_are() -> None:
    class Constant(torch.nn.Module):
        def forward(self, z: torch.Tensor, *_args: torch.Tensor) -> torch.Tensor:
            return torch.full_like(z, 5.0)

    noise = torch.zeros(1, 4, 3, 8, 12)
    rep, level = torch.zeros(1, 32, 64), torch.ones(1, dtype=torch.long)
    pixels = sample(Constant(), rep, level, noise, steps=1)  # type: ignore[arg-type]
    latent = sample(Constant(), rep, level, noise, steps=1, clamp=False)  # type: ignore[arg-type]
    assert float(pixels.max()) == 1.0
    assert torch.allclose(latent, torch.full_like(latent, 5.0))


# -- checkpoint files --------------------------------------------------------------------------------
def test_a_latent_checkpoint_lists_the_autoencoder_halves(tiny_latent: Path) -> None:
    manifest = weights.read_manifest(tiny_latent)
    config = weights.model_config(manifest, tiny_latent)
    assert weights.engine_files(config) == (*weights.ENGINE_FILES, weights.LATENT_DECODER)
    assert weights.engine_files(TINY) == weights.ENGINE_FILES
    for name in (*weights.engine_files(config)[1:], weights.LATENT_ENCODER):
        weights.verify_file(tiny_latent, name, manifest)
    decoder_half = weights.load_tensors(tiny_latent / weights.LATENT_DECODER)
    encoder_half = weights.load_tensors(tiny_latent / weights.LATENT_ENCODER)
    assert decoder_half and all(v.dtype == torch.float16 for v in decoder_half.values())
    assert config.latent is not None
    from studio.engines.mini.latent_ae import Decoder, Encoder

    assert set(decoder_half) == set(Decoder(config.latent).state_dict())
    assert set(encoder_half) == set(Encoder(config.latent).state_dict())
    assert catalog.LATENT_DECODER.path == weights.LATENT_DECODER
    assert catalog.check(EngineConfig(checkpoints=tiny_latent.parent)) == []


def test_a_missing_latent_decoder_is_named_by_the_check_and_the_load(checkpoints: Path) -> None:
    path = checkpoints / "mini" / weights.LATENT_DECODER
    path.unlink()
    with pytest.raises(EngineLoadError, match="Missing .*latent_decoder.safetensors"):
        _load(checkpoints / "mini")
    unmet = catalog.check(EngineConfig(checkpoints=checkpoints))
    assert [r.path for r in unmet if r.kind is RequirementKind.FILE] == [str(path)]


def test_a_truncated_latent_decoder_is_refused_by_the_check_and_the_load(checkpoints: Path) -> None:
    path = checkpoints / "mini" / weights.LATENT_DECODER
    truncate(path)
    unmet = catalog.check(EngineConfig(checkpoints=checkpoints))
    assert any(r.kind is RequirementKind.FILE and "latent_decoder.safetensors" in r.message and "expected" in r.message
               for r in unmet)
    with pytest.raises(EngineLoadError, match="latent_decoder.safetensors is .* bytes, expected"):
        _load(checkpoints / "mini")


def test_an_altered_latent_decoder_is_found_corrupt(checkpoints: Path) -> None:
    path = checkpoints / "mini" / weights.LATENT_DECODER
    alter_one_byte(path)
    with pytest.raises(EngineLoadError, match="latent_decoder.safetensors is corrupt"):
        _load(checkpoints / "mini")


def test_a_latent_decoder_of_another_shape_is_refused(checkpoints: Path) -> None:
    from safetensors.torch import save_file

    folder = checkpoints / "mini"
    state = weights.load_tensors(folder / weights.LATENT_DECODER)
    save_file({k: v for k, v in state.items() if not k.startswith("conv_out")}, str(folder / weights.LATENT_DECODER))
    manifest = json.loads((folder / weights.CONFIG).read_text())
    path = folder / weights.LATENT_DECODER
    manifest["files"][weights.LATENT_DECODER] = {"bytes": path.stat().st_size, "sha256": weights.sha256(path)}
    (folder / weights.CONFIG).write_text(json.dumps(manifest))
    with pytest.raises(EngineLoadError, match="latent_decoder.safetensors does not fit the model"):
        _load(folder)


def test_a_pixel_checkpoint_needs_no_latent_file(tmp_path: Path) -> None:
    folder = write_tiny_checkpoint(tmp_path / "mini")
    assert not (folder / weights.LATENT_DECODER).exists()
    assert catalog.check(EngineConfig(checkpoints=tmp_path)) == []
    runtime = _load(folder)
    assert runtime.latent_decoder is None and runtime.noise([1]).shape == (1, 3, 5, 32, 48)


# -- runtime -----------------------------------------------------------------------------------------
def test_the_runtime_samples_a_latent_and_decodes_it_to_pixels(tiny_latent: Path) -> None:
    runtime = _load(tiny_latent)
    assert runtime.latent_decoder is not None
    assert runtime.noise([1, 2]).shape == (2, 4, 3, 8, 12)
    rep = torch.randn(2, 32, 64)
    steps: list[int] = []
    clips = runtime.decode(rep, [1, 4], [1, 2], steps=2, step=steps.append)
    assert clips.dtype == torch.uint8 and clips.shape == (2, 5, 32, 48, 3)
    assert steps == [1, 2]
    again = runtime.decode(rep, [1, 4], [1, 2], steps=2)
    assert torch.equal(clips, again), "seeded"
    # the DiT's latent is multiplied by latent_scale before the autoencoder's decoder sees it
    runtime.config = dataclasses.replace(runtime.config, latent_scale=runtime.config.latent_scale * 8)
    assert not torch.equal(runtime.decode(rep, [1, 4], [1, 2], steps=2), clips)


def test_the_engine_makes_a_turn_with_a_latent_checkpoint(tiny_latent: Path) -> None:
    from studio.core.instruction import parse_instruction
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.context import GenerationContext
    from studio.engines.mini.engine import MiniEngine

    engine = MiniEngine(EngineConfig(checkpoints=tiny_latent.parent, threads=1))
    engine.load()
    settings = MiniSettings.from_values({"steps": 1, "height": 64, "width": 96, "frames": 5})
    prediction = engine.predict(GenerationContext(), parse_instruction("Motion: wave."), settings, 3)
    assert engine.decode(prediction, settings, 3).frames.shape == (5, 64, 96, 3)


def test_the_runtime_refuses_a_latent_config_without_the_autoencoder() -> None:
    from studio.engines.mini.lm import MiniLM
    from studio.engines.mini.tokenizer import Vocab, corpus, train_tokenizer

    vocab = Vocab(train_tokenizer(corpus(["Motion: wave."]), 64))
    model = dataclasses.replace(TINY_LATENT, vocab_size=vocab.size)
    with pytest.raises(ValueError, match="autoencoder"):
        MiniRuntime(model, vocab, MiniLM(model), VideoDiT(model), CPU, CPU)


def test_the_speed_and_throughput_probes_measure_a_latent_decoder() -> None:
    from studio.engines.mini.bench import decoder_rate
    from studio.engines.mini.experiment import speed

    assert decoder_rate(load_train_config(named_config("tiny_latent")), CPU, batch=2, seconds=0.05,
                        compile=False) > 0
    assert speed("tiny_latent", steps=1, repeats=1)["decode_s"] > 0
