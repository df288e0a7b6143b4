"""The slow-down of a name attacked from many addresses holds when the attempts arrive at once
(PostgreSQL, threads): of twelve attempts sent together, exactly one takes the turn, the others
are told to wait. Runs on PostgreSQL only (``DATABASE_URL=postgresql://...``): SQLite
serialises writers itself."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from sewer_office.accounts import throttle
from sewer_office.accounts.models import SignInFailure

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL"),
]


def test_attempts_sent_at_once_get_one_turn(settings: Any) -> None:
    settings.SEWER_USE_SIGNIN_SLOW_SECONDS = 3600
    now = timezone.now()
    SignInFailure.objects.bulk_create(
        SignInFailure(username="superintendent", address=f"203.0.113.{n}", at=now)
        for n in range(settings.SEWER_USE_SIGNIN_SLOW_AFTER)
    )
    attempts = 12
    barrier = threading.Barrier(attempts)
    answers: list[throttle.Pause | None] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def attempt(n: int) -> None:
        try:
            barrier.wait()
            answer = throttle.refusal(throttle.Attempt("superintendent", f"198.51.100.{n}"))
            with lock:
                answers.append(answer)
        except BaseException as e:
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(attempts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    assert len(answers) == attempts
    assert sum(1 for a in answers if a is None) == 1
    assert all(a.whom == "slowed" for a in answers if a is not None)
