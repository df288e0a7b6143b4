"""Hostile input, the API as a whole: schemathesis over ``/api/schema/``.

Every operation of the schema, as every role of the demo town (and anonymous), with
generated requests — valid and invalid, odd characters, huge numbers, far dates — sent
through the WSGI application: no server error, no response that breaks the declared schema,
no status code the schema does not declare, no content type it does not declare. The run is
deterministic (``derandomize``) and bounded: ``SEWER_USE_HOSTILE_EXAMPLES`` examples per
operation and role (default 3; 6 for the Superintendent and the outside user). The report
(operations, requests, statuses, failures) is printed at the end, even without ``-s``.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = (
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
)
#: The demo's logins (demo/build.py USERS) and anonymous (None).
ROLES = (
    "superintendent",
    "engineer",
    "inspector",
    "clerk",
    "highway",
    "viewer",
    "owner",
    "acme",
    None,
)
EXAMPLES = int(os.environ.get("SEWER_USE_HOSTILE_EXAMPLES", "3"))
MORE = {"superintendent": max(EXAMPLES, 6), "acme": max(EXAMPLES, 6)}


@pytest.fixture
def wsgi_app(transactional_db: Any, load_demo: Any) -> Any:
    """The office with the demo town (``load_demo``, its build kept once per test process:
    ``demo_cache``), as a WSGI application whose requests keep the test's database connection
    (as Django's test client does)."""
    load_demo(verbosity=0)
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def _run(schema: Any, role: str | None, n: int, tally: dict[str, Counter[Any]]) -> list[str]:
    headers = {}
    if role is not None:
        user = get_user_model().objects.get(username=role)
        headers["Authorization"] = f"Token {Token.objects.get_or_create(user=user)[0].key}"
    failures: list[str] = []
    for result in schema.get_all_operations():
        _probe(result.ok(), role, n, headers, tally, failures)()
    return failures


def _probe(
    operation: Any,
    role: str | None,
    n: int,
    headers: dict[str, str],
    tally: dict[str, Counter[Any]],
    failures: list[str],
) -> Any:
    @settings(
        max_examples=n,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    @given(case=operation.as_strategy())
    def probe(case: Any) -> None:
        response = case.call(headers=headers)
        tally["status"][response.status_code] += 1
        tally["requests"][role or "anonymous"] += 1
        for check in CHECKS:
            try:
                case.validate_response(response, checks=[check])
            except BaseException as e:  # schemathesis' FailureGroup is a BaseExceptionGroup
                tally["failures"][check.__name__] += 1
                failures.append(
                    f"{role or 'anonymous'} {operation.label} {check.__name__} "
                    f"[{response.status_code}]: {case.as_curl_command()}\n{str(e)[:600]}"
                )

    return probe


@pytest.mark.slow
def test_every_operation_as_every_role(wsgi_app: Any, capsys: Any) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app)
    operations = [r.ok() for r in schema.get_all_operations()]
    tally: dict[str, Counter[Any]] = {
        "status": Counter(),
        "requests": Counter(),
        "failures": Counter(),
    }
    failures: list[str] = []
    for role in ROLES:
        failures += _run(schema, role, MORE.get(role or "", EXAMPLES), tally)
    with capsys.disabled():
        print("\n--- hostile input: schemathesis over /api/schema/ ---")
        print(f"operations: {len(operations)}   roles: {len(ROLES)} (anonymous included)")
        print(f"requests: {sum(tally['requests'].values())}  by role: {dict(tally['requests'])}")
        print(f"statuses: {dict(sorted(tally['status'].items()))}")
        print(f"server errors: {tally['status'].get(500, 0)}   failures: {dict(tally['failures'])}")
    assert len(operations) > 100
    assert not failures, "\n\n".join(failures[:10])
