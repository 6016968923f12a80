"""Status policy: every cell of the GOOGLE and RFC9309 presets, the switches, validation.

Categories: GOOGLE preset (D11 / Google spec "Handling HTTP result codes"), RFC9309 preset
(RFC 9309 sections 2.3.1.1-2.3.1.4), switches, invalid combinations (rejected when built).
"""

from __future__ import annotations

import pytest

from robotsclient._exceptions import InvalidArgument
from robotsclient._outcome import (
    GOOGLE,
    RFC9309,
    Cell,
    FetchResult,
    InvalidPolicy,
    Outcome,
    StatusClass,
    StatusPolicy,
    outcome_of,
)

ALLOW, DENY, COND = Outcome.FULL_ALLOW, Outcome.FULL_DISALLOW, Outcome.CONDITIONAL


def result(status: int | None) -> FetchResult:
    return FetchResult("https://example.com/robots.txt", status, error=None if status else "reset")


GOOGLE_TABLE = [
    (200, COND, False),
    (204, COND, False),
    (299, COND, False),
    (301, ALLOW, False),  # D11: a redirect left unfollowed (sixth, loop, no Location) is a 404
    (308, ALLOW, False),
    (400, ALLOW, False),
    (401, ALLOW, False),  # Google spec: "This includes 401 and 403"
    (403, ALLOW, False),
    (404, ALLOW, False),
    (410, ALLOW, False),
    (429, DENY, True),  # D11: Google's crawler treats 429 as a server error
    (451, ALLOW, False),
    (500, DENY, True),
    (503, DENY, True),
    (599, DENY, True),
    (600, DENY, True),  # outside the classes: treated as a server error
    (100, DENY, True),
    (None, DENY, True),  # network errors: "treated as a server error"
]


@pytest.mark.parametrize(
    ("status", "outcome", "temporary"), GOOGLE_TABLE, ids=[str(r[0]) for r in GOOGLE_TABLE]
)
def test_google_preset_cells(status: int | None, outcome: Outcome, temporary: bool) -> None:
    """D11: the default policy, cell by cell."""
    assert outcome_of(result(status)) is outcome
    assert GOOGLE.outcome(result(status)) is outcome
    assert GOOGLE.is_temporary(result(status)) is temporary


RFC_TABLE = [
    (200, COND, False),  # 2.3.1.1 successful access
    (302, ALLOW, False),  # 2.3.1.2 more than five redirects: may assume unavailable
    (401, ALLOW, False),  # 2.3.1.3 unavailable
    (403, ALLOW, False),
    (404, ALLOW, False),
    (429, ALLOW, False),  # 2.3.1.3: 429 is a 4xx: unavailable, not unreachable
    (500, DENY, True),  # 2.3.1.4 unreachable
    (503, DENY, True),
    (None, DENY, True),  # 2.3.1.4: network errors are unreachable
]


@pytest.mark.parametrize(
    ("status", "outcome", "temporary"), RFC_TABLE, ids=[str(r[0]) for r in RFC_TABLE]
)
def test_rfc9309_preset_cells(status: int | None, outcome: Outcome, temporary: bool) -> None:
    """RFC 9309 section 2.3.1: the RFC's own reading, cell by cell."""
    assert outcome_of(result(status), RFC9309) is outcome
    assert RFC9309.is_temporary(result(status)) is temporary


def test_every_cell_documents_its_source() -> None:
    for policy in (GOOGLE, RFC9309):
        for kind in StatusClass:
            assert policy.cell(kind).why, (policy.name, kind)


def test_switch_auth_as_disallow() -> None:
    policy = GOOGLE.with_auth_as_disallow()
    assert policy.outcome(result(401)) is DENY
    assert policy.outcome(result(403)) is DENY
    assert policy.outcome(result(404)) is ALLOW
    assert GOOGLE.outcome(result(401)) is ALLOW  # presets are not changed in place


def test_switch_network_errors_as_allow_stays_temporary() -> None:
    """Archiving crawlers: allow on network errors, but keep retrying (D14 backoff still applies)."""
    policy = GOOGLE.with_network_errors_as_allow()
    assert policy.outcome(result(None)) is ALLOW
    assert policy.is_temporary(result(None)) is True
    assert policy.outcome(result(503)) is DENY


def test_switch_server_errors_allow_after_days() -> None:
    policy = GOOGLE.with_server_errors_allow_after(3)
    assert policy.outcome(result(503), failing_for=2.9 * 86_400) is DENY
    assert policy.outcome(result(503), failing_for=3 * 86_400) is ALLOW
    assert policy.outcome(result(None), failing_for=30 * 86_400) is DENY  # network errors untouched


def test_switches_combine() -> None:
    policy = RFC9309.with_auth_as_disallow().with_network_errors_as_allow()
    assert policy.outcome(result(403)) is DENY
    assert policy.outcome(result(None)) is ALLOW
    assert policy.outcome(result(429)) is ALLOW


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda: GOOGLE.with_server_errors_allow_after(0), id="zero-days"),
        pytest.param(lambda: GOOGLE.with_server_errors_allow_after(-1), id="negative-days"),
        pytest.param(
            lambda: StatusPolicy("x", tuple((k, Cell(ALLOW)) for k in StatusClass)).validate(),
            id="2xx-not-conditional",
        ),
        pytest.param(
            lambda: StatusPolicy("x", tuple((k, Cell(COND)) for k in StatusClass)).validate(),
            id="error-conditional",
        ),
        pytest.param(lambda: StatusPolicy("x", GOOGLE.cells[:-1]).validate(), id="missing-cell"),
        pytest.param(
            lambda: StatusPolicy(
                "x",
                tuple(
                    (k, Cell(ALLOW) if k is StatusClass.SERVER_ERROR else c)
                    for k, c in GOOGLE.cells
                ),
            ).with_server_errors_allow_after(2),
            id="5xx-already-allow",
        ),
    ],
)
def test_invalid_combinations_are_rejected(build) -> None:
    with pytest.raises(InvalidPolicy) as info:
        build()
    assert isinstance(info.value, InvalidArgument)
    assert str(info.value)
