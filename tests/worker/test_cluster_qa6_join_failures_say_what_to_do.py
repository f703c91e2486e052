"""What a failed join of a Ray cluster says. With `--cluster auto` and no cluster on this
machine the message claimed a wait ("within 10 s") that never happened and the hint asked to
check an address the user never gave; a cluster that asks for an authentication token was
reported as unreachable. Ray's own advice about its command line (after its first line) is
left out."""

from __future__ import annotations

from studio.worker.cluster.backend import AUTO_HINT, TOKEN_HINT, UNREACHABLE_HINT, join_failure
from studio.worker.cluster.spec import parse_cluster

FAILED = "Could not connect to the Ray cluster"


def test_auto_without_a_cluster_says_to_start_one() -> None:
    error = ConnectionError("Could not find any running Ray instance. Please specify the one to connect to "
                            "by setting `--address` flag or `RAY_ADDRESS` environment variable.\nMore advice")
    refused = join_failure(parse_cluster("auto"), FAILED, error)
    # Ray's sentence named its own --address option, not the studio's --cluster
    assert refused.message == f"{FAILED}: no Ray cluster runs on this machine (--cluster auto joins one started here)"
    assert "within" not in refused.message and "--address" not in refused.message and refused.hint == AUTO_HINT
    other = join_failure(parse_cluster("auto"), FAILED, ConnectionError("Ray's session folder is unreadable"))
    assert other.message == f"{FAILED}: Ray's session folder is unreadable", "other reasons keep Ray's words"


def test_a_token_asked_for_says_how_to_give_it() -> None:
    error = RuntimeError("Authentication token is missing or incorrect")
    refused = join_failure(parse_cluster("10.0.0.5:6379"), FAILED, error)
    assert refused.hint == TOKEN_HINT and "RAY_AUTH_MODE=token" in refused.hint


def test_an_address_that_does_not_answer_keeps_its_wait_and_hint() -> None:
    refused = join_failure(parse_cluster("10.0.0.5:6379", connect_timeout_s=2), FAILED, RuntimeError("timed out"))
    assert refused.message == f"{FAILED} within 2 s: timed out" and refused.hint == UNREACHABLE_HINT
