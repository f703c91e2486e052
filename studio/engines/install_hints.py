"""What a user runs to add an optional part of the studio (the engines' libraries, Ray).

The studio is not published on PyPI: it is installed from its checkout (or a wheel built
there), so each hint names the commands that work in a checkout. torch from PyPI is the
large CUDA build; a machine without an NVIDIA GPU takes the CPU build from PyTorch's own
index first (``make`` does that by itself).
"""

from __future__ import annotations

TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
"""Where the CPU build of torch comes from (packaging/bootstrap.sh's default too)."""

ENGINES_INSTALL = (f"in the studio's checkout: make run ENGINES=1, or pip install '.[engines]' (without an NVIDIA "
                   f"GPU, first: pip install torch --index-url {TORCH_CPU_INDEX})")
"""How to add torch and the model engines' libraries (the ``engines`` extra)."""

CLUSTER_INSTALL = "in the studio's checkout: pip install '.[cluster]' (or packaging/bootstrap.sh --cluster)"
"""How to add Ray for the render farm (the ``cluster`` extra)."""


def extra_install(extra: str) -> str:
    """The install command for one of pyproject's extras, said as the hints above say it."""
    if extra == "engines":
        return ENGINES_INSTALL
    if extra == "cluster":
        return CLUSTER_INSTALL
    return f"in the studio's checkout: pip install '.[{extra}]'"
