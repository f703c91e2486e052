"""A bundle whose manifest names another program: the refusal reads as a sentence. It said
"its manifest says it was made by 'other' made by Kamishibai Studio"."""

from __future__ import annotations

import json

import pytest

from studio.storage.bundle_manifest import ManifestError, parse_manifest


@pytest.mark.parametrize(("manifest", "said"), [
    ({"app": "other-tool", "format": 2}, "its manifest says it was made by 'other-tool', not by Kamishibai Studio "
                                         "(a bundle made by another program?)"),
    ({"format": 2}, "its manifest does not say it was made by Kamishibai Studio (a bundle made by another program?)"),
    ({"app": "", "format": 2}, "its manifest does not say it was made by Kamishibai Studio"),
])
def test_the_refusal_names_the_program(manifest: dict[str, object], said: str) -> None:
    with pytest.raises(ManifestError) as refused:
        parse_manifest(json.dumps(manifest).encode())
    assert str(refused.value).startswith(said)
    assert str(refused.value).count("made by") == 2  # the program's, and the question's
