"""Pictures that embed an ICC colour profile (Display P3 from a phone, Adobe RGB, a grey
scanner profile, a print shop's CMYK profile) were shown with their pixel values taken as
sRGB: washed out, oversaturated or with the wrong inks. Their colours are now converted to
sRGB from the profile, as an image viewer does; an sRGB picture keeps its values, and a
damaged profile leaves the picture opening as if it had none.

The profiles are written here, byte by byte, from their published primaries and curves (the
ICC v2 format), and the expected colours are computed independently from the colour-space
matrices, not by the colour library under test."""

from __future__ import annotations

import os
import struct
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageCms

from studio.storage import Project
from studio.storage.images import open_image
from studio.storage.media_import import import_image

D50 = (0.9642, 1.0, 0.8249)  # the ICC profile connection space's white
D65_XY = (0.3127, 0.3290)
DISPLAY_P3 = ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060))
SRGB = ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060))
GAMMA_22 = 563 / 256  # 2.2 as a one-entry curve stores it (u8Fixed8Number)
BRADFORD = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])


# --- ICC v2 profile bytes --------------------------------------------------------------------

def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _xyz_tag(xyz: Sequence[float]) -> bytes:
    return b"XYZ " + bytes(4) + b"".join(_s15(v) for v in xyz)


def _gamma_tag(gamma: float | None) -> bytes:
    """A curveType: no entry is the identity (gamma 1), one entry a gamma."""
    if gamma is None:
        return b"curv" + bytes(4) + struct.pack(">I", 0)
    return b"curv" + bytes(4) + struct.pack(">IH", 1, round(gamma * 256))


def _srgb_curve_tag() -> bytes:
    """A parametricCurveType of function type 3 with the sRGB standard's parameters."""
    params = (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    return b"para" + bytes(4) + struct.pack(">HH", 3, 0) + b"".join(_s15(p) for p in params)


def _desc_tag(text: str) -> bytes:
    ascii_text = text.encode("ascii") + b"\0"
    return (b"desc" + bytes(4) + struct.pack(">I", len(ascii_text)) + ascii_text
            + struct.pack(">II", 0, 0) + struct.pack(">HB", 0, 0) + bytes(67))


def _profile(device_class: bytes, space: bytes, pcs: bytes, tags: dict[bytes, bytes]) -> bytes:
    """A whole ICC v2 profile: 128-byte header, tag table, tag data on 4-byte boundaries."""
    table_size = 4 + 12 * len(tags)
    offset = 128 + table_size
    entries, data = [], b""
    for signature, body in tags.items():
        entries.append(signature + struct.pack(">II", offset + len(data), len(body)))
        data += body + bytes(-len(body) % 4)
    size = offset + len(data)
    header = (struct.pack(">I", size) + bytes(4) + struct.pack(">I", 0x02100000) + device_class + space + pcs
              + bytes(12) + b"acsp" + bytes(4 * 4 + 8) + struct.pack(">I", 0) + b"".join(_s15(v) for v in D50)
              + bytes(4) + bytes(44))
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + b"".join(entries) + data


def _rgb_to_xyz(primaries: Sequence[tuple[float, float]], white_xy: tuple[float, float]) -> np.ndarray:
    """The matrix from linear RGB to XYZ, from the chromaticities of the primaries and white."""
    columns = np.array([[x / y, 1.0, (1 - x - y) / y] for x, y in primaries]).T
    wx, wy = white_xy
    white = np.array([wx / wy, 1.0, (1 - wx - wy) / wy])
    return columns * np.linalg.solve(columns, white)


def _adapted_to_d50(matrix: np.ndarray, white_xy: tuple[float, float]) -> np.ndarray:
    """``matrix`` with its white moved to D50 (Bradford), as ICC colorant tags must be."""
    wx, wy = white_xy
    source = BRADFORD @ np.array([wx / wy, 1.0, (1 - wx - wy) / wy])
    target = BRADFORD @ np.array(D50)
    adaptation = np.linalg.inv(BRADFORD) @ np.diag(target / source) @ BRADFORD
    return adaptation @ matrix


def _matrix_profile(name: str, primaries: Sequence[tuple[float, float]], curve: bytes) -> bytes:
    """A display (matrix/TRC) RGB profile of the given primaries, D65 white and curve."""
    colorants = _adapted_to_d50(_rgb_to_xyz(primaries, D65_XY), D65_XY)
    return _profile(b"mntr", b"RGB ", b"XYZ ", {
        b"desc": _desc_tag(name), b"wtpt": _xyz_tag(D50),
        b"rXYZ": _xyz_tag(colorants[:, 0]), b"gXYZ": _xyz_tag(colorants[:, 1]), b"bXYZ": _xyz_tag(colorants[:, 2]),
        b"rTRC": curve, b"gTRC": curve, b"bTRC": curve})


def _grey_profile(gamma: float | None) -> bytes:
    return _profile(b"mntr", b"GRAY", b"XYZ ", {b"desc": _desc_tag("Linear grey"), b"wtpt": _xyz_tag(D50),
                                               b"kTRC": _gamma_tag(gamma)})


INKS = {  # what paper with these inks (cyan, magenta, yellow) measures, in Lab
    (0, 0, 0): (100, 0, 0), (1, 0, 0): (55, -37, -50), (0, 1, 0): (48, 74, -3), (0, 0, 1): (89, -5, 93),
    (1, 1, 0): (24, 22, -46), (1, 0, 1): (50, -65, 27), (0, 1, 1): (47, 68, 48), (1, 1, 1): (20, 0, 0)}
BLACK_INK = (10, 0, 0)  # black ink on paper is never pure black


def _cmyk_profile() -> bytes:
    """A print (output) CMYK profile whose A2B0 is a lut16 with a 2-point grid per ink."""
    clut = b""
    for c in (0, 1):  # the first input varies slowest
        for m in (0, 1):
            for y in (0, 1):
                for k in (0, 1):
                    lightness, a, b = BLACK_INK if k else INKS[(c, m, y)]
                    clut += struct.pack(">HHH", round(lightness * 652.80), round((a + 128) * 256),
                                        round((b + 128) * 256))
    identity = b"".join(_s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
    lut = (b"mft2" + bytes(4) + struct.pack(">BBBB", 4, 3, 2, 0) + identity + struct.pack(">HH", 2, 2)
           + struct.pack(">HH", 0, 65535) * 4 + clut + struct.pack(">HH", 0, 65535) * 3)
    return _profile(b"prtr", b"CMYK", b"Lab ", {b"desc": _desc_tag("Coated test press"), b"wtpt": _xyz_tag(D50),
                                                b"A2B0": lut})


# --- the colour science the expectations are computed with -----------------------------------

def _srgb_encoded(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0.0, 1.0)
    encoded = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)
    return np.asarray(encoded * 255)


def _expected_from_p3(rgb: tuple[int, int, int]) -> np.ndarray:
    """``rgb`` in Display P3 with a 2.2 gamma, as sRGB 0-255 values (not rounded); both spaces
    share the D65 white, so no adaptation is needed."""
    linear = (np.array(rgb) / 255) ** GAMMA_22
    xyz = _rgb_to_xyz(DISPLAY_P3, D65_XY) @ linear
    srgb_linear = np.linalg.solve(_rgb_to_xyz(SRGB, D65_XY), xyz)
    assert np.all((srgb_linear > 0) & (srgb_linear < 1)), "choose a colour sRGB can show"
    return _srgb_encoded(srgb_linear)


def _pixel(picture: Image.Image, xy: tuple[int, int] = (8, 8)) -> tuple[int, ...]:
    value = picture.getpixel(xy)
    assert isinstance(value, tuple)
    return value


# --- the tests ---------------------------------------------------------------------------------

P3_ORANGE = (220, 110, 70)
P3_GREEN = (90, 190, 100)


@pytest.mark.parametrize("colour", [P3_ORANGE, P3_GREEN], ids=["orange", "green"])
def test_a_display_p3_photo_is_shown_in_srgb(tmp_path: Path, colour: tuple[int, int, int]) -> None:
    source = tmp_path / "iphone.png"
    Image.new("RGB", (16, 16), colour).save(source, icc_profile=_matrix_profile("Display P3", DISPLAY_P3,
                                                                                 _gamma_tag(GAMMA_22)))
    shown = np.array(_pixel(open_image(source)))
    expected = _expected_from_p3(colour)
    assert np.max(np.abs(shown - np.array(colour))) > 15, (shown, colour)  # not the raw values
    assert np.max(np.abs(shown - expected)) <= 2, (shown, expected)


def test_a_p3_jpeg_turned_by_its_orientation_is_converted_too(tmp_path: Path) -> None:
    source = tmp_path / "portrait.jpg"
    picture = Image.new("RGB", (32, 16), (255, 255, 255))
    picture.paste(P3_ORANGE, (0, 0, 16, 16))
    exif = Image.Exif()
    exif[0x0112] = 6  # to be turned 90 degrees clockwise: the orange half goes on top
    picture.save(source, format="JPEG", quality=100, subsampling=0, exif=exif.tobytes(),
                 icc_profile=_matrix_profile("Display P3", DISPLAY_P3, _gamma_tag(GAMMA_22)))
    shown = open_image(source)
    assert shown.size == (16, 32)
    assert np.max(np.abs(np.array(_pixel(shown, (8, 8))) - _expected_from_p3(P3_ORANGE))) <= 4
    assert _pixel(shown, (8, 24)) == (255, 255, 255)


def test_transparent_parts_of_a_profiled_picture_lie_on_white(tmp_path: Path) -> None:
    source = tmp_path / "mei-front.png"
    art = Image.new("RGBA", (16, 16), (0, 0, 0, 0))
    art.paste((*P3_GREEN, 255), (0, 0, 8, 16))
    art.save(source, icc_profile=_matrix_profile("Display P3", DISPLAY_P3, _gamma_tag(GAMMA_22)))
    shown = open_image(source)
    assert shown.mode == "RGB"
    assert _pixel(shown, (12, 8)) == (255, 255, 255)
    assert np.max(np.abs(np.array(_pixel(shown, (4, 8))) - _expected_from_p3(P3_GREEN))) <= 2


def test_a_palette_picture_with_a_profile_is_converted(tmp_path: Path) -> None:
    source = tmp_path / "flat.png"
    art = Image.new("P", (16, 16), 1)
    art.putpalette([0, 0, 0, *P3_ORANGE])
    art.paste(0, (0, 0, 4, 16))
    art.save(source, transparency=0, icc_profile=_matrix_profile("Display P3", DISPLAY_P3, _gamma_tag(GAMMA_22)))
    shown = open_image(source)
    assert _pixel(shown, (1, 8)) == (255, 255, 255)
    assert np.max(np.abs(np.array(_pixel(shown, (10, 8))) - _expected_from_p3(P3_ORANGE))) <= 2


def test_a_grey_picture_with_a_linear_grey_profile_is_lighter(tmp_path: Path) -> None:
    source = tmp_path / "scan.png"
    Image.new("L", (16, 16), 128).save(source, icc_profile=_grey_profile(None))
    red, green, blue = _pixel(open_image(source))
    expected = float(_srgb_encoded(np.array(128 / 255)))  # about 188: linear light, sRGB encoded
    assert red == green == blue
    assert abs(red - expected) <= 2, (red, expected)


def test_a_sixteen_bit_grey_picture_with_a_grey_profile_keeps_its_shades(tmp_path: Path) -> None:
    source = tmp_path / "scan16.png"
    shades = np.zeros((16, 32), dtype=np.uint16)
    shades[:, 16:] = 40000
    Image.fromarray(shades).save(source, format="PNG", icc_profile=_grey_profile(None))
    with Image.open(source) as written:
        assert written.mode.startswith("I") and written.info.get("icc_profile")
    shown = open_image(source)
    assert _pixel(shown, (4, 8)) == (0, 0, 0)
    expected = float(_srgb_encoded(np.array((40000 >> 8) / 255)))
    assert max(abs(v - expected) for v in _pixel(shown, (24, 8))) <= 2


def _cmyk_jpeg(path: Path, profile: bytes | None) -> None:
    """Quarters of white paper, black ink, cyan ink and cyan + magenta inks."""
    picture = Image.new("CMYK", (32, 32), (0, 0, 0, 0))
    picture.paste((0, 0, 0, 255), (16, 0, 32, 16))
    picture.paste((255, 0, 0, 0), (0, 16, 16, 32))
    picture.paste((255, 255, 0, 0), (16, 16, 32, 32))
    extra = {"icc_profile": profile} if profile is not None else {}
    picture.save(path, format="JPEG", quality=100, **extra)


@pytest.mark.parametrize("profiled", [True, False], ids=["with-profile", "without-profile"])
def test_a_cmyk_jpeg_keeps_white_paper_and_dark_black(tmp_path: Path, profiled: bool) -> None:
    source = tmp_path / "print.jpg"
    _cmyk_jpeg(source, _cmyk_profile() if profiled else None)
    with Image.open(source) as written:
        assert written.mode == "CMYK" and bool(written.info.get("icc_profile")) == profiled
    shown = open_image(source)
    assert min(_pixel(shown, (8, 8))) >= 250, _pixel(shown, (8, 8))  # paper
    assert max(_pixel(shown, (24, 8))) <= 30, _pixel(shown, (24, 8))  # black ink
    red, green, blue = _pixel(shown, (8, 24))  # cyan ink
    assert red < 60 and green > 100 and blue > 150, (red, green, blue)
    red, green, blue = _pixel(shown, (24, 24))  # cyan and magenta: blue
    assert blue > red and blue > green, (red, green, blue)


def test_a_cmyk_profile_gives_the_inks_its_measured_colour(tmp_path: Path) -> None:
    """Process cyan is a middle blue, far from the (0, 255, 255) of naive conversion."""
    source, plain = tmp_path / "print.jpg", tmp_path / "plain.jpg"
    _cmyk_jpeg(source, _cmyk_profile())
    _cmyk_jpeg(plain, None)
    cyan, naive = _pixel(open_image(source), (8, 24)), _pixel(open_image(plain), (8, 24))
    assert naive[1] > 240 and naive[2] > 240, naive
    assert cyan[1] < 200 and cyan[2] < 245 and cyan[2] > cyan[1], cyan


def test_an_srgb_picture_keeps_its_values(tmp_path: Path) -> None:
    source = tmp_path / "web.png"
    rng = np.random.default_rng(7)
    values = rng.integers(0, 256, (16, 16, 3), dtype=np.uint8)
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    Image.fromarray(values).save(source, icc_profile=srgb)
    assert np.array_equal(np.asarray(open_image(source)), values)


def test_a_profile_with_srgb_colours_under_another_name_changes_nothing_visible(tmp_path: Path) -> None:
    """The profile is applied (its name does not say sRGB), and the sRGB primaries and curve
    give back the same values, within rounding."""
    source = tmp_path / "camera.png"
    rng = np.random.default_rng(8)
    values = rng.integers(0, 256, (16, 16, 3), dtype=np.uint8)
    Image.fromarray(values).save(source, icc_profile=_matrix_profile("Camera standard", SRGB, _srgb_curve_tag()))
    shown = np.asarray(open_image(source)).astype(int)
    assert np.max(np.abs(shown - values.astype(int))) <= 2


DAMAGED = {
    "random-bytes": lambda: os.urandom(300),
    "cut-short": lambda: _matrix_profile("Display P3", DISPLAY_P3, _gamma_tag(GAMMA_22))[:200],
    "header-only": lambda: _matrix_profile("Display P3", DISPLAY_P3, _gamma_tag(GAMMA_22))[:128],
}


@pytest.mark.parametrize("suffix", [".png", ".jpg"])
@pytest.mark.parametrize("damage", list(DAMAGED))
def test_a_damaged_profile_is_ignored_and_the_picture_opens(tmp_path: Path, suffix: str, damage: str) -> None:
    source = tmp_path / f"odd{suffix}"
    Image.new("RGB", (16, 16), P3_ORANGE).save(source, icc_profile=DAMAGED[damage](), quality=100)
    with Image.open(source) as written:
        assert written.info.get("icc_profile")
    assert np.max(np.abs(np.array(_pixel(open_image(source))) - np.array(P3_ORANGE))) <= 2


def test_a_cmyk_jpeg_with_a_cut_short_profile_opens_plainly(tmp_path: Path) -> None:
    source = tmp_path / "print.jpg"
    profile = _cmyk_profile()
    _cmyk_jpeg(source, profile[:len(profile) - 40])
    shown = open_image(source)
    assert min(_pixel(shown, (8, 8))) >= 250 and max(_pixel(shown, (24, 8))) <= 30
    red, green, blue = _pixel(shown, (8, 24))
    assert red < 30 and green > 240 and blue > 240, (red, green, blue)  # the plain conversion's cyan


def test_a_profile_for_other_colours_than_the_picture_is_ignored(tmp_path: Path) -> None:
    """An RGB profile on a grey picture (some editors write that) can't describe it."""
    source = tmp_path / "grey.png"
    Image.new("L", (16, 16), 128).save(source, icc_profile=_matrix_profile("Display P3", DISPLAY_P3,
                                                                           _gamma_tag(GAMMA_22)))
    assert _pixel(open_image(source)) == (128, 128, 128)


def test_an_imported_p3_picture_is_stored_in_srgb(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "mei.png"
    Image.new("RGB", (16, 16), P3_ORANGE).save(source, icc_profile=_matrix_profile("Display P3", DISPLAY_P3,
                                                                                   _gamma_tag(GAMMA_22)))
    with Image.open(project.resolve(import_image(project, source, "characters"))) as stored:
        shown = np.array(_pixel(stored.convert("RGB")))
    assert np.max(np.abs(shown - _expected_from_p3(P3_ORANGE))) <= 2
