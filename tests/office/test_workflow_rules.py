"""Every transition of every workflow: forbidden to every role the law does not name, and
impossible from every state it does not start from."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from sewer_office.accounts.roles import roles_of
from sewer_office.core import protection
from sewer_office.core.errors import Forbidden, TransitionNotAllowed
from sewer_office.core.services import perform
from sewer_office.permits.kinds import KINDS

from .factories import USERS, Town, new_record

CASES = [(slug, t.name) for slug, k in KINDS.items() for t in k.model.WORKFLOW.transitions]


def _in_state(record: Any, state: str) -> Any:
    # put there directly, as no workflow would (the database's guard set aside for it)
    with protection.suspended(connection, record._meta.label):
        type(record).objects.filter(pk=record.pk).update(state=state)
    record.refresh_from_db()
    return record


def test_every_transition_cites_the_law_and_names_who() -> None:
    for slug, name in CASES:
        t = KINDS[slug].model.WORKFLOW.get(name)
        assert t.citation.startswith("§ 196-"), (slug, name)
        assert t.roles or t.applicant, (slug, name)


@pytest.mark.parametrize(("slug", "name"), CASES)
def test_transition_forbidden_to_other_roles(town: Town, slug: str, name: str) -> None:
    record = new_record(slug, town)  # the owner's record
    t = record.WORKFLOW.get(name)
    record = _in_state(record, t.sources[0])
    for username in USERS:
        user = town.u(username)
        allowed = bool(t.roles & roles_of(user)) or (t.applicant and username == "owner")
        if allowed:
            continue
        with pytest.raises(Forbidden) as info:
            perform(record, name, user, data={}, reason="test")
        assert t.citation in info.value.message
    record.refresh_from_db()
    assert record.state == t.sources[0], "a forbidden transition changed nothing"


@pytest.mark.parametrize(("slug", "name"), CASES)
def test_transition_impossible_from_other_states(town: Town, slug: str, name: str) -> None:
    record = new_record(slug, town)
    wf = record.WORKFLOW
    t = wf.get(name)
    actor = (
        town.u("owner")
        if not t.roles
        else next(town.u(u) for u, r in USERS.items() if set(r) & t.roles)
    )
    for state in (s.value for s in wf.states):
        if state in t.sources:
            continue
        record = _in_state(record, state)
        with pytest.raises(TransitionNotAllowed):
            # an automatic step (a fee paid in billing) as billing makes it: still refused
            perform(record, name, actor, data={}, reason="test", automatic=bool(t.automatic))
        record.refresh_from_db()
        assert record.state == state
