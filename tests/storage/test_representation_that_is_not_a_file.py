"""A take's representation path naming a FIFO (a named pipe in a copied or crafted project
folder) used to block the worker for good: the file was opened without a look at what it
is, and opening a pipe for reading waits for a writer that never comes, so generating the
next turn hung before its engine started (no cancel could reach it). It is now refused as
not a file, as clips and pictures already were; the context then goes without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from studio.storage.media import MediaError, read_representation, write_representation

READ = """
import sys
from pathlib import Path
from studio.storage.media import MediaError, read_representation
try:
    read_representation(Path(sys.argv[1]))
except MediaError as error:
    print(error.message)
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "representation.safetensors"
    os.mkfifo(pipe)
    # in a child: the blocked open holds the GIL, so a thread here would hang the test
    try:
        done = subprocess.run([sys.executable, "-c", READ, str(pipe)], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("reading the representation waited on a named pipe")
    assert "not a regular file" in done.stdout, done


def test_a_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "representation.safetensors"
    folder.mkdir()
    with pytest.raises(MediaError, match="not a regular file"):
        read_representation(folder)


def test_a_real_file_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "representation.safetensors"
    write_representation(path, np.ones((4, 8), np.float32), {"representation_space": "x"})
    array, metadata = read_representation(path)
    assert array.shape == (4, 8) and metadata["representation_space"] == "x"
