"""The one way a workflow record changes state: :func:`perform`.

It checks, in this order, that the transition exists, that the actor is someone the law
allows (else :class:`Forbidden`), that the record is in a state the transition starts from
(else :class:`TransitionNotAllowed`), that the submitted facts are valid (else
:class:`InvalidInput`), then — with the record locked — the state again and that the law's
precondition holds (else :class:`Blocked`); it then applies the effect, moves the state and writes the
audit event, all in one transaction, and hands the change to the workflow's ``announce`` (the
e-mail to the persons concerned, sent once the transaction commits). Web pages and the API both call it, so they enforce
the same rules.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol, TypeVar, cast

from django.db import models, transaction
from django.utils import timezone

from sewer_office.accounts.actors import Actor

from . import audit
from .errors import Blocked, Forbidden, InvalidInput, TransitionNotAllowed
from .town_law import require_acting_for
from .workflow import Step, Workflow, WorkflowRecord

M = TypeVar("M", bound=models.Model)


class _Driven(WorkflowRecord, Protocol):
    """A model driven by a workflow: its ``state`` and its kind's ``WORKFLOW``."""

    WORKFLOW: Workflow


def _driven(record: models.Model) -> _Driven:
    """``record`` as :func:`perform` reads it (a cast for the type checker, nothing at run time)."""
    return cast(_Driven, record)


def bind_form(transition: Step, data: Any = None, files: Any = None) -> Any:
    """The transition's form bound to ``data`` (None when the transition records no facts)."""
    if transition.form is None:
        return None
    return transition.form(data=data if data is not None else {}, files=files)


def validate(transition: Step, data: Any, files: Any, reason: str) -> dict[str, Any]:
    """The cleaned facts of a transition, or :class:`InvalidInput` with field-level errors.

    A form's cleaned data, untyped in Django: the transition reads it as its declared facts
    (:meth:`~sewer_office.core.workflow.Transition.check`, ``apply``).
    """
    errors: dict[str, list[str]] = {}
    cleaned: dict[str, Any] = {}
    form = bind_form(transition, data, files)
    if form is not None:
        if form.is_valid():
            cleaned = dict(form.cleaned_data)
        else:
            errors.update({k: [str(m) for m in v] for k, v in form.errors.items()})
    if transition.reason_required and not reason.strip():
        errors["reason"] = [f"A reason is required to {transition.label.lower()}."]
    if errors:
        raise InvalidInput(errors, form)
    return cleaned


def _check_state(workflow: Workflow, transition: Step, state: str) -> None:
    if state not in transition.sources:
        raise TransitionNotAllowed(
            f"{transition.label}: not possible while the record is {workflow.label(state).lower()}."
        )


def perform(
    record: M,
    name: str,
    actor: Actor,
    data: Any = None,
    *,
    files: Any = None,
    reason: str = "",
    at: datetime | None = None,
    automatic: bool = False,
) -> M:
    """Make transition ``name`` on ``record`` as ``actor``; returns the updated record.

    ``at`` back-dates the event; it exists for loading historical records (the demo town,
    paper files being digitised) and is never taken from a request. ``automatic`` is said only
    by the app whose event makes an automatic transition (billing, for a permit's fee step
    settled by a payment); the pages and the API never say it, so such a step is refused there.
    """
    workflow = _driven(record).WORKFLOW
    try:
        transition = workflow.get(name)
    except KeyError:
        raise TransitionNotAllowed(f"unknown action {name!r}") from None
    if transition.automatic and not automatic:
        raise Forbidden(
            f"{transition.label}: not a manual step — made by {transition.automatic} "
            f"({transition.citation})."
        )
    if not workflow.permits(actor, _driven(record), transition):
        raise Forbidden(
            f"{transition.label}: reserved to {transition.who()} ({transition.citation})."
        )
    require_acting_for(actor, record, transition.label)
    _check_state(workflow, transition, _driven(record).state)
    cleaned = validate(transition, data, files, reason)
    when = at or timezone.now()
    model = type(record)
    with transaction.atomic():
        locked = model._default_manager.select_for_update().get(pk=record.pk)
        _check_state(workflow, transition, _driven(locked).state)
        message = transition.check(locked, cleaned)
        if message:
            raise Blocked(message)
        before = audit.snapshot(locked)
        state_from = _driven(locked).state
        transition.apply(locked, cleaned, actor, when)
        if transition.target is not None:
            _driven(locked).state = transition.target
        elif _driven(locked).state not in (state_from, *transition.outcomes):
            # the declaration is what the database allows too: an effect leading elsewhere
            # is a bug of the workflow, never a state to record
            raise TransitionNotAllowed(
                f"{transition.label}: its effect led to {_driven(locked).state!r}, which "
                f"{workflow.name}.{transition.name} does not declare."
            )
        locked.save()
        event = audit.record(
            actor=actor,
            action=transition.name,
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=reason.strip(),
            citation=workflow.citation_on(locked, transition),
            state_from=state_from,
            state_to=_driven(locked).state,
            at=when,
        )
        if workflow.announce is not None and at is None:
            # told at once, after the commit; a back-dated record (history being loaded) is
            # announced, if recent, by the daily ``sewer-use send-reminders``
            workflow.announce(locked, event)
    return locked
