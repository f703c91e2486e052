"""A cluster address that is not HOST:PORT (no port, no host, a port out of range, a URL,
an IPv6 host without brackets) used to reach Ray, which read it as another host (its
message named the node's own IP), said "no Ray cluster answered" after the whole timeout
(port -1), or raised its own ValueError. It is refused at once, before Ray sees it, saying
what is wrong with it; the queued jobs stay queued."""

from __future__ import annotations

import sys
import time

import pytest

from studio.core.errors import StudioError
from studio.worker.cluster import ClusterSpec, parse_cluster
from studio.worker.cluster.spec import address_problem

from .ray_stand_in import RayThatMustNotJoin


@pytest.mark.parametrize(("address", "said"), [
    ("10.0.0.5", "it has no port"),
    (":6379", "no host before the port"),
    ("head:", "from 1 to 65535, not ''"),
    ("head:-1", "from 1 to 65535, not '-1'"),
    ("head:0", "from 1 to 65535, not '0'"),
    ("head:99999", "from 1 to 65535, not '99999'"),
    ("head:６３７９", "from 1 to 65535"),  # full-width digits
    ("http://head:6379", "without a scheme"),
    ("::1:6379", "IPv6 host goes in brackets"),
    ("my head:6379", "is not a host name"),
    ("bad host:::", "is not a host name"),
    ("head::6379", "IPv6 host goes in brackets"),
    ("[::1]", "it has no port"),
    ("[::1]6379", "IPv6 host goes in brackets"),
    ("[head]:6379", "not an IPv6 address in brackets"),
    ("[::1:6379", "IPv6 host goes in brackets"),
    ("he]ad:6379", "is not a host name"),
    ("head:63x9", "from 1 to 65535, not '63x9'"),
    ("head:65536", "from 1 to 65535, not '65536'"),
    ("head:\t6379", "from 1 to 65535"),
])
def test_what_is_wrong_with_an_address(address: str, said: str) -> None:
    assert said in address_problem(address)


GOOD = ["local", "auto", "10.0.0.5:6379", "head.example:6379", "[::1]:6379", "[fd00::5]:1", "head-2:65535"]


@pytest.mark.parametrize("address", GOOD)
def test_good_addresses_pass(address: str) -> None:
    assert address_problem(address) == ""


@pytest.mark.parametrize("address", ["head:-1", "10.0.0.5", "head:99999", ":6379"])
def test_joining_a_malformed_address_fails_at_once_without_asking_ray(address: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.worker.cluster.backend import RayCluster

    fake = RayThatMustNotJoin(5)
    monkeypatch.setitem(sys.modules, "ray", fake)
    spec = ClusterSpec(address=address, connect_timeout_s=1)  # as parse_cluster would not make it (below)
    started = time.perf_counter()
    with pytest.raises(StudioError, match="is not a Ray cluster's address") as caught:
        RayCluster.connect(spec)
    assert time.perf_counter() - started < 1.0
    assert fake.inits == []
    assert address in caught.value.message


MALFORMED = ["bad host:::", "head:-1", "10.0.0.5", "head:99999", ":6379", "head:", "head:port", "::1:6379",
             "[nothost]:6379", "my head:6379", "http://head:6379"]


@pytest.mark.parametrize("address", MALFORMED)
def test_parsing_a_malformed_address_refuses_it_naming_it(address: str) -> None:
    """Refused when given (``--cluster``, the settings dialog), not only when joined."""
    with pytest.raises(StudioError) as caught:
        parse_cluster(address, connect_timeout_s=1)
    assert caught.value.message.startswith(f"{address!r} is not a Ray cluster's address: ")
    assert address_problem(address) in caught.value.message
    assert "HOST:PORT" in caught.value.hint


@pytest.mark.parametrize("address", [*GOOD, " 10.0.0.5:6379 ", "AUTO", "Local"])
def test_good_addresses_parse(address: str) -> None:
    spec = parse_cluster(address, actors=2)
    given = address.strip()
    assert spec.address == (given.lower() if given.lower() in ("local", "auto") else given)
    assert spec.actors == 2


def test_client_and_empty_addresses_keep_their_own_messages() -> None:
    with pytest.raises(StudioError, match="Ray client addresses"):
        parse_cluster("ray://head:10001")
    with pytest.raises(StudioError, match="No cluster address given"):
        parse_cluster("  ")
