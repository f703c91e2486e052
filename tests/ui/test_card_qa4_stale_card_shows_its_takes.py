"""A stale card (its turn's parent changed since it was generated) with several takes hid its
take count: the "stale" label took the place where a card says "3 takes". The count now sits
beside the label, apart from it, on a card at the default zoom and at the smallest zoom that
shows it, and with a long title, a bookmark and an engine warning."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from studio.core.state import CharacterState
from studio.ui import palette
from studio.ui.canvas.card_item import PILL_H, PILL_INSET, CardItem, status_pills
from studio.ui.canvas.geometry import CARD_H, CARD_W, FULL_DETAIL, POSTER
from studio.ui.node_summary import CardStatus, NodeSummary, PosterState

DPR = 2.0
OFFSET = 4.0  # the card's bounding rect starts 4 units above and left of its corner
STALE = (0xE0, 0xA0, 0x40)


class StubScene:
    """What a card asks its scene for: a grey poster."""

    def __init__(self) -> None:
        self.image = QImage(160, 112, QImage.Format.Format_RGB32)
        self.image.fill(QColor("#808080"))

    def poster(self, rel: str) -> QImage:
        return self.image

    def poster_state(self, rel: str) -> PosterState:
        return PosterState.LOADING

    def clip_frames(self, rel: str) -> None:
        return None


@pytest.fixture
def dark(qapp) -> Iterator[None]:  # type: ignore[no-untyped-def]
    palette.use_scheme("dark")
    yield


def _summary(**changes: object) -> NodeSummary:
    fields: dict[str, object] = dict(
        node_id="turn", title="Qiqi · town", excerpt="gently sit on railing", state=CharacterState(),
        motion_level=2, status=CardStatus.STALE, bookmarked=False, poster_path="poster.png",
        clip_path="clip.mp4", take_count=3)
    fields.update(changes)
    return NodeSummary(**fields)  # type: ignore[arg-type]


def _render(summary: NodeSummary, scale: float) -> QImage:
    image = QImage(round((CARD_W + 2 * OFFSET) * scale * DPR), round((CARD_H + 2 * OFFSET) * scale * DPR),
                   QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(DPR)
    image.fill(palette.BACKGROUND)
    painter = QPainter(image)
    painter.scale(scale, scale)
    painter.translate(OFFSET, OFFSET)
    CardItem(summary, StubScene()).paint(painter, QStyleOptionGraphicsItem())  # type: ignore[arg-type]
    painter.end()
    return image


def _kind(color: QColor) -> str:
    """What a pixel of the poster's top strip shows: a label's backdrop (dark), the stale label,
    text (light) or the dimmed poster."""
    rgb = (color.red(), color.green(), color.blue())
    if max(abs(a - b) for a, b in zip(rgb, STALE, strict=True)) < 30:
        return "stale"
    if max(rgb) < 55:
        return "dark"
    if min(rgb) > 170:
        return "light"
    return "poster"


def _runs(image: QImage, y: float, scale: float) -> list[tuple[str, float, float]]:
    """The runs of one kind of pixel along the card row ``y``, over the poster: (kind, left, right)
    in card units."""
    unit = scale * DPR
    row = round((y + OFFSET) * unit)
    runs: list[tuple[str, float, float]] = []
    for x in range(round((POSTER.left() + 2 + OFFSET) * unit), round((POSTER.right() - 2 + OFFSET) * unit)):
        kind = _kind(image.pixelColor(x, row))
        at = x / unit - OFFSET
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1], at)
        else:
            runs.append((kind, at, at))
    return runs


@pytest.mark.parametrize("scale", [1.0, FULL_DETAIL + 0.01])  # the least zoom that shows it
def test_a_stale_card_shows_its_take_count_beside_the_stale_label(dark: None, scale: float) -> None:
    image = _render(_summary(), scale)
    edge_row = POSTER.top() + PILL_INSET + 2.5  # above the labels' letters
    labels = [run for run in _runs(image, edge_row, scale) if run[0] != "poster" and run[2] - run[1] >= 8]
    assert [kind for kind, _, _ in labels] == ["dark", "stale"], f"no take count beside the stale label: {labels}"
    (_, _, count_right), (_, stale_left, _) = labels
    assert stale_left - count_right >= 2, "the count and the label touch"

    middle = POSTER.top() + PILL_INSET + PILL_H / 2
    inside = [run for run in _runs(image, middle, scale) if run[1] < count_right]
    assert any(kind == "light" for kind, _, _ in inside), "the count's figures are written"


def test_a_plain_stale_card_has_only_its_label(dark: None) -> None:
    image = _render(_summary(take_count=1), 1.0)
    labels = [run for run in _runs(image, POSTER.top() + PILL_INSET + 2.5, 1.0)
              if run[0] != "poster" and run[2] - run[1] >= 8]
    assert [kind for kind, _, _ in labels] == ["stale"]


@pytest.mark.parametrize("status", [CardStatus.STALE, CardStatus.QUEUED, CardStatus.FAILED, CardStatus.DONE])
@pytest.mark.parametrize("count", [2, 48, 12_345, 7_654_321])
def test_the_labels_stay_apart_and_clear_of_the_badges(dark: None, status: CardStatus, count: int) -> None:
    """However many takes, the labels keep inside the poster, apart from each other and right of
    the bookmark star and the warning badge; the count is always there."""
    summary = _summary(status=status, take_count=count, bookmarked=True, warnings=2,
                       title="Qiqi the wandering storyteller of the northern mountains · the old harbour town")
    pills = status_pills(summary)
    assert any(str(count) in pill.text and not pill.status for pill in pills)
    badges_right = POSTER.left() + 36 + 9  # the warning badge's right edge, beside the star
    for index, pill in enumerate(pills):
        assert POSTER.contains(pill.rect) and pill.rect.left() > badges_right, pill
        for other in pills[index + 1:]:
            assert not pill.rect.intersects(other.rect), (pill, other)
    _render(summary, FULL_DETAIL + 0.01)  # paints without an error


def test_a_running_card_shows_its_ring_only(dark: None) -> None:
    assert status_pills(_summary(status=CardStatus.RUNNING, fraction=0.4)) == []
    assert [pill.text for pill in status_pills(_summary(status=CardStatus.DONE))] == ["3 takes"]
    assert QRectF(POSTER).contains(status_pills(_summary(status=CardStatus.DONE))[0].rect)
