"""The render-farm box is editable: typing "off" (to turn the farm off) was taken for the
address of a cluster's head and refused ("'off' is not a Ray cluster's address: it has no
port"), and "Local" typed over the list kept its capital. A choice typed, in any case, or
its whole label, is now that choice; anything else is an address, as before."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from studio.ui.cluster_settings import OFF, ClusterChoice


@pytest.fixture
def choice(qapp: QApplication) -> ClusterChoice:
    return ClusterChoice("", None)


@pytest.mark.parametrize(("typed", "address"), [
    ("off", ""), ("Off", ""), (" OFF ", ""), (OFF, ""), ("", ""),
    ("Local", "local"), ("AUTO ", "auto"), ("local (a Ray instance on this machine)", "local"),
    (" 10.0.0.5:6379 ", "10.0.0.5:6379"), ("head.example:6379", "head.example:6379"),
])
def test_a_typed_choice_is_that_choice(choice: ClusterChoice, typed: str, address: str) -> None:
    choice.where.setEditText(typed)
    assert choice.address() == address
    choice.validated()  # none of these is refused


def test_an_address_typed_is_still_checked(choice: ClusterChoice) -> None:
    choice.where.setEditText("offline")
    assert choice.address() == "offline"
    with pytest.raises(Exception, match="'offline' is not a Ray cluster's address"):
        choice.validated()
