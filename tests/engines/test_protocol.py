"""The engine protocol's parts: typed settings, configuration and placement, requirements."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from studio.engines.base import (
    CheckpointFile,
    DeviceKind,
    EngineCapabilities,
    EngineConfig,
    EngineInfo,
    EngineSettings,
    Placement,
    Preset,
    RequirementKind,
    SettingsError,
    Stage,
    StageNeeds,
    setting,
)
from studio.engines.config import ConfigError, DType
from studio.engines.devices import DeviceInfo
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import check_devices, check_files, check_packages
from studio.engines.settings import SettingKind

GIB = 1024**3


@dataclass(frozen=True, slots=True)
class ToySettings(EngineSettings):
    ENGINE = "Toy"
    PRESETS = (Preset("fast", "Fast", {"steps": 4, "sampler": "Euler"}, changes_output=True),)

    steps: int = setting(50, label="Steps", minimum=1, maximum=100, help="Denoising steps.")
    guidance: float = setting(6.0, label="Guidance", minimum=1.0, maximum=20.0)
    tiling: bool = setting(False, label="VAE tiling")
    sampler: str = setting("DDIM", label="Sampler", choices=("DDIM", "Euler"))
    prompt_prefix: str = setting("", label="Prefix")


def test_schema_describes_every_field() -> None:
    specs = {s.name: s for s in ToySettings.schema()}
    assert [s.kind for s in specs.values()] == [SettingKind.INT, SettingKind.FLOAT, SettingKind.BOOL,
                                                  SettingKind.CHOICE, SettingKind.TEXT]
    assert specs["steps"].help == "Denoising steps." and specs["steps"].describe_range() == "from 1 to 100"
    assert specs["sampler"].describe_range() == "one of DDIM, Euler"


def test_values_are_read_and_checked_with_clear_errors() -> None:
    chosen = ToySettings.from_values({"steps": "30", "guidance": 7, "tiling": "yes", "sampler": "euler"})
    assert (chosen.steps, chosen.guidance, chosen.tiling, chosen.sampler) == (30, 7.0, True, "Euler")
    assert isinstance(chosen.guidance, float)
    assert chosen.overrides() == {"steps": 30, "guidance": 7.0, "tiling": True, "sampler": "Euler"}
    for bad, words in (({"steps": 0}, "from 1 to 100, got 0"), ({"steps": 2.5}, "whole number"),
                       ({"steps": True}, "whole number"), ({"guidance": float("nan")}, "a number"),
                       ({"tiling": "perhaps"}, "true or false"), ({"sampler": "heun"}, "one of DDIM, Euler"),
                       ({"prompt_prefix": 3}, "text"), ({"stpes": 3}, "no setting 'stpes'")):
        with pytest.raises(SettingsError, match=words) as error:
            ToySettings.from_values(bad)
        assert "Toy" in error.value.message
    with pytest.raises(SettingsError, match="Its settings: steps, guidance"):
        ToySettings.from_values({"stpes": 3})
    assert ToySettings.from_values({"stpes": 3, "steps": 9}, ignore_unknown=True).steps == 9


def test_presets_apply_under_the_users_values() -> None:
    fast = ToySettings.from_values({"guidance": 3}, preset="fast")
    assert (fast.steps, fast.sampler, fast.guidance) == (4, "Euler", 3.0)
    assert ToySettings.from_values({"steps": 8}, preset="fast").steps == 8
    with pytest.raises(SettingsError, match="no preset 'turbo'"):
        ToySettings.from_values({}, preset="turbo")
    assert ToySettings.preset("fast").changes_output
    # a preset named among the values, as `--setting preset=fast` gives it
    named = ToySettings.from_values({"preset": "fast", "guidance": 3})
    assert (named.steps, named.sampler, named.guidance) == (4, "Euler", 3.0)
    with pytest.raises(SettingsError, match="no preset 'turbo'"):
        ToySettings.from_values({"preset": "turbo"})
    with pytest.raises(SettingsError, match="or preset=NAME, one of fast"):
        ToySettings.from_values({"stpes": 3})


def test_coerce_accepts_its_own_class_or_a_mapping_only() -> None:
    from studio.engines.catalog.sketch import SketchSettings

    toy = ToySettings(steps=3)
    assert ToySettings.coerce(toy) is toy
    assert ToySettings.coerce(None) == ToySettings()
    assert ToySettings.coerce({"steps": 5}).steps == 5
    with pytest.raises(SettingsError, match="can't use settings of Sketch"):
        ToySettings.coerce(SketchSettings())


def test_config_parses_devices_per_stage() -> None:
    config = EngineConfig.parse("predict=cuda:0, decode=cuda:1+offload", checkpoints="/w", dtype="bfloat16",
                                threads=3)
    assert config.place(Stage.PREDICT) == Placement("cuda:0")
    assert config.place(Stage.DECODE) == Placement("cuda:1", offload=True)
    assert config.place(Stage.DECODE).index == 1 and config.place(Stage.DECODE).kind is DeviceKind.CUDA
    assert (config.dtype, config.threads, config.checkpoints) == (DType.BFLOAT16, 3, Path("/w"))
    assert config.describe() == "predict=cuda:0,decode=cuda:1+offload"
    assert EngineConfig.parse("cuda").place(Stage.DECODE).index == 0
    assert EngineConfig.parse("cpu").describe() == "cpu"
    for spec, words in (("tpu", "Unknown device 'tpu'"), ("render=cuda:0", "Unknown stage 'render'"),
                        ("cpu+offload", "only makes sense onto a GPU"), ("cuda:x", "Unknown device")):
        with pytest.raises(ConfigError, match=words):
            EngineConfig.parse(spec)
    with pytest.raises(ConfigError, match="Unknown dtype"):
        EngineConfig.parse("cpu", dtype="int3")
    with pytest.raises(ConfigError, match="at least 1"):
        EngineConfig.parse("cpu", threads=0)
    for spec in ("cpu,,cpu", ",cpu", "predict=cpu,,decode=cpu", "cpu,"):
        with pytest.raises(ConfigError, match="An empty entry in the device"):
            EngineConfig.parse(spec)
    with pytest.raises(ConfigError, match="names 2 devices for one worker"):
        EngineConfig.parse("cpu,cuda:0")
    assert EngineConfig.parse(" predict=cpu , decode=cpu ").describe() == "cpu"


def test_cpu_engines_stay_on_the_cpu_and_gpu_engines_keep_their_placement() -> None:
    config = EngineConfig.parse("predict=cuda:0,decode=cuda:1")
    on_cpu = config.adapted_to((DeviceKind.CPU,))
    assert {p.device for p in on_cpu.placements().values()} == {"cpu"}
    assert config.adapted_to((DeviceKind.CPU, DeviceKind.CUDA)) is config
    assert config.adapted_to((DeviceKind.CUDA,)) is config


def test_check_files_names_missing_and_truncated_files(tmp_path: Path) -> None:
    (tmp_path / "a.safetensors").write_bytes(b"x" * 10)
    (tmp_path / "b.safetensors").write_bytes(b"x" * 7)
    files = (CheckpointFile("a.safetensors", 10), CheckpointFile("b.safetensors", 12),
             CheckpointFile("sub/c.json", None, "the config"))
    unmet = check_files(tmp_path, files, engine="toy")
    assert [(r.kind, Path(r.path).name) for r in unmet] == [(RequirementKind.FILE, "b.safetensors"),
                                                           (RequirementKind.FILE, "c.json")]
    assert "7 bytes, expected 12" in unmet[0].message
    assert str(tmp_path / "sub" / "c.json") in unmet[1].message and "the config" in unmet[1].message


def test_check_packages() -> None:
    assert check_packages(["json"], engine="toy") == []
    unmet = check_packages(["no_such_package_kamishibai"], engine="toy")
    assert unmet[0].kind is RequirementKind.PACKAGE and "no_such_package_kamishibai" in unmet[0].message


CAPS = EngineCapabilities(devices=(DeviceKind.CUDA,), memory={Stage.PREDICT: StageNeeds(device_bytes=15 * GIB),
                                                               Stage.DECODE: StageNeeds(device_bytes=10 * GIB)})


def test_check_devices_adds_up_the_stages_on_one_gpu() -> None:
    gpus = [DeviceInfo("cuda:0", "A", 24 * GIB, 20 * GIB), DeviceInfo("cuda:1", "B", 24 * GIB, 20 * GIB)]
    both = check_devices(EngineConfig.parse("cuda:0"), CAPS, engine="big", probe=lambda: gpus)
    assert [r.kind for r in both] == [RequirementKind.MEMORY]
    assert "25.0 GiB on cuda:0" in both[0].message and both[0].expected_bytes == 25 * GIB
    assert check_devices(EngineConfig.parse("predict=cuda:0,decode=cuda:1"), CAPS, engine="big",
                         probe=lambda: gpus) == []
    assert check_devices(EngineConfig.parse("cuda:0+offload"), CAPS, engine="big", probe=lambda: gpus) == []
    no_gpu = check_devices(EngineConfig.parse("cuda:0"), CAPS, engine="big", probe=lambda: [])
    assert {r.kind for r in no_gpu} == {RequirementKind.DEVICE} and "no CUDA device" in no_gpu[0].message
    on_cpu = check_devices(EngineConfig.parse("cpu"), CAPS, engine="big", probe=lambda: gpus)
    assert on_cpu and all("can't run its" in r.message and "cpu" in r.message for r in on_cpu)


def test_registry_knows_engines_without_importing_them() -> None:
    info = EngineInfo(name="ghost", version="1", label="Ghost", description="-", capabilities=EngineCapabilities(),
                      settings=ToySettings, entry_point="studio.engines.no_such_module:Ghost",
                      check=lambda config: [])
    registry = EngineRegistry()
    registry.register(info)
    assert registry.names() == ["ghost"] and "ghost" in registry and registry.check("ghost") == []
    from studio.engines.base import EngineLoadError

    with pytest.raises(EngineLoadError, match="can't be imported"):
        registry.create("ghost")
    with pytest.raises(Exception, match="Unknown engine 'nope'"):
        registry.info("nope")

    def broken(config: EngineConfig) -> list:  # type: ignore[type-arg]
        raise RuntimeError("probe exploded")

    registry.register(EngineInfo(name="flaky", version="1", label="F", description="-",
                                 capabilities=EngineCapabilities(), settings=ToySettings, entry_point="x:y",
                                 check=broken))
    unmet = registry.check("flaky")
    assert unmet[0].kind is RequirementKind.CONFIG and "probe exploded" in unmet[0].message
