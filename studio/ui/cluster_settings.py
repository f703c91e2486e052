"""The render-farm choice in the settings: off, a Ray instance on this machine, this
machine's Ray cluster, or a cluster's address, with the number of engine actors.

Without Ray installed the choice is greyed, and its tooltip says how to get it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSpinBox, QWidget

from studio.core.errors import StudioError
from studio.worker.cluster.spec import INSTALL_HINT, parse_cluster, ray_available

OFF = "Off (this machine's devices)"
CHOICES = (("", OFF), ("local", "local (a Ray instance on this machine)"),
           ("auto", "auto (the Ray cluster this machine joined)"))
ACTORS_AUTO = "one per GPU"
NO_RAY_TIP = f"Rendering on a Ray cluster needs Ray, which is not installed. Install it with: {INSTALL_HINT}"
TIP = ("Run the generation queue's engines on a Ray cluster, one actor per GPU "
       "(README: “A tree that outgrows one machine”): "
       "local starts Ray on this machine, auto joins the cluster this machine is part of (`ray start`), "
       "or type the head's HOST:PORT. Applies to the next project you open.")


class ClusterChoice(QWidget):
    """An editable list (off, local, auto, or an address) and an actor count."""

    def __init__(self, address: str, actors: int | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.where = QComboBox(self)
        self.where.setEditable(True)
        self.where.setAccessibleName("Render farm")  # the form's label names this whole row, not the list
        for value, label in CHOICES:
            self.where.addItem(label, value)
        known = [value for value, _ in CHOICES]
        if address in known:
            self.where.setCurrentIndex(known.index(address))
        else:
            self.where.setEditText(address)
        self.actors = QSpinBox(self)
        self.actors.setRange(0, 1024)
        self.actors.setSpecialValueText(ACTORS_AUTO)  # 0: one per GPU
        self.actors.setValue(actors or 0)
        self.actors.setToolTip("Engine actors to start on the cluster (each holds one GPU when it has GPUs).")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.where, 1)
        actors_label = QLabel("Actors", self)
        actors_label.setBuddy(self.actors)  # a screen reader names the box after it
        layout.addWidget(actors_label)
        layout.addWidget(self.actors)
        self.available = ray_available()
        self.setEnabled(self.available)
        self.setToolTip(TIP if self.available else NO_RAY_TIP)
        self.where.setToolTip(self.toolTip())

    def address(self) -> str:
        """``""`` (off), ``local``, ``auto`` or an address."""
        index = self.where.currentIndex()
        text = self.where.currentText().strip()
        if index >= 0 and text == self.where.itemText(index):
            return str(self.where.itemData(index) or "")
        for value, label in CHOICES:  # a choice typed (or its label, whatever the case) is that choice
            if text.casefold() in (label.casefold(), value.casefold() or "off"):
                return value
        return text

    def actor_count(self) -> int | None:
        return self.actors.value() or None

    def validated(self) -> None:
        """Raise a StudioError for an address that can't be used."""
        address = self.address()
        if address:
            parse_cluster(address, self.actor_count())
        elif self.actor_count() is not None and self.available:
            raise StudioError("An actor count needs a cluster.", hint="Choose local, auto or an address.")
