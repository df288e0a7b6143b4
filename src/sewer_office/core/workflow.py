"""A small, explicit state-machine helper for the office's permits and approvals.

A :class:`Workflow` lists the states of a record and its :class:`Transition` s. A transition
says where it may start, where it leads, which roles may make it (the roles the law names),
whether the record's own applicant may make it, the citation it rests on, the form of the
facts it records, a *guard* (a precondition of the law, returning a message when unmet) and
an *effect* (what else it changes, in the same transaction). Everything the pages, the API,
the dashboard and the tests need to know about a workflow is read from this one declaration;
:func:`sewer_office.core.services.perform` is the only code that applies a transition.

Types: a :class:`Workflow` is generic in the record it drives (``R``), a :class:`Transition`
in the record and in its *facts* (``F``): a ``TypedDict`` naming the fields of the
transition's form and the types its cleaned data has. The transition declares it
(``facts=``), its guard and effect take it, so mypy checks that a guard reads only facts the
form records, and :class:`Workflow` checks when it is declared that the facts name exactly the
form's fields (the one place where Django's untyped ``cleaned_data`` becomes the facts is
:func:`~sewer_office.core.services.validate`). A transition without a form has the facts
:class:`NoFacts`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypedDict, cast

from typing_extensions import TypeVar

from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import role_label, roles_of

if TYPE_CHECKING:
    from django import forms
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    User = AbstractBaseUser | AnonymousUser


class WorkflowRecord(Protocol):
    """What a model needs to be driven by a workflow."""

    pk: Any
    state: str

    def is_applicant(self, user: Actor) -> bool: ...


#: The record a workflow drives (a model satisfying :class:`WorkflowRecord`); ``Any`` where a
#: caller reaches a workflow through a model's ``WORKFLOW`` without knowing the model.
R = TypeVar("R", bound=WorkflowRecord, default=Any)
#: The facts a transition records: a ``TypedDict`` of its form's cleaned data.
F = TypeVar("F", bound=Mapping[str, object], default=Any)


class NoFacts(TypedDict):
    """The facts of a transition without a form: nothing but its reason (kept by the audit)."""


#: A precondition of the law: a message when it is unmet, None when the transition may go on.
Guard: TypeAlias = Callable[[R, F], str | None]
#: What else the transition changes on the locked record (and beyond), as ``actor`` at ``at``.
Effect: TypeAlias = Callable[[R, F, Actor, datetime], None]
#: What the app of a record tells people of a change: called with the record and its audit
#: event inside the transition's transaction (it sends by ``transaction.on_commit``).
Announce = Callable[[Any, Any], None]
#: (record, transition's name, its citation) → the citation the record's event records.
Cites = Callable[[Any, str, str], str]
#: (record, transition's name, its label) → what the page calls the step on that record.
Names = Callable[[Any, str, str], str]

REASON_REQUIRED = "required"
REASON_OPTIONAL = "optional"


@dataclass(frozen=True)
class State:
    value: str
    label: str
    terminal: bool = False


@dataclass(frozen=True)
class Step(Generic[R]):
    """A transition as the workflow machinery reads it, whatever facts it records: what a
    :class:`Workflow` lists and :func:`~sewer_office.core.services.perform` applies. Declared
    as a :class:`Transition`; this base says nothing of the facts, so that a workflow's list
    does not tell mypy what they are and each transition's facts are read from its own
    declaration (its ``facts``, ``guard`` and ``effect`` must agree)."""

    name: str
    label: str
    sources: tuple[str, ...]
    target: str | None
    citation: str
    roles: frozenset[str] = frozenset()
    applicant: bool = False
    reason: str = REASON_OPTIONAL
    form: type[forms.Form] | None = None
    danger: bool = False
    help: str = ""
    #: False for side actions (withdrawal on the applicant's behalf, notes) that should not
    #: put every open record in the actor's work queue on the dashboard.
    queue: bool = True
    #: Not a manual step: what makes it (e.g. "a payment settling the permit's fee invoice,
    #: recorded by the clerk in billing"). Never offered as an action on the pages or the API;
    #: still in the work queue of its roles (the clerk has the fee to take, elsewhere);
    #: :func:`~sewer_office.core.services.perform` makes it only when its caller says
    #: ``automatic=True`` (the higher app that owns the event), as an actor the transition's
    #: roles name.
    automatic: str = ""
    #: Where a transition whose effect decides the state (``target`` None) may lead besides
    #: staying where it is: served or mailed, back where the record was. Declared, so that
    #: the database's guard of the state (:mod:`sewer_office.core.protection`) is read from
    #: the same declaration as the pages, and :func:`~sewer_office.core.services.perform`
    #: refuses an effect that leads anywhere else.
    outcomes: tuple[str, ...] = ()

    @property
    def reason_required(self) -> bool:
        return self.reason == REASON_REQUIRED

    def who(self) -> str:
        """The actors the law allows, for messages and the pages."""
        if self.automatic:
            return self.automatic
        names = sorted(role_label(r) for r in self.roles)
        if self.applicant:
            names.append("the applicant")
        return ", ".join(names) or "nobody"

    def check(self, record: R, cleaned: Mapping[str, Any]) -> str | None:
        """The guard's message for ``record`` and the form's cleaned data, None when met."""
        return None

    def apply(self, record: R, cleaned: Mapping[str, Any], actor: Actor, at: datetime) -> None:
        """The effect on ``record`` of the form's cleaned data, as ``actor`` at ``at``."""


@dataclass(frozen=True)
class Transition(Step[R], Generic[R, F]):
    """A transition and the facts ``F`` it records (see the module's docstring)."""

    #: The type of the form's cleaned data (a ``TypedDict`` with one key per field of
    #: ``form``), what ``guard`` and ``effect`` read; checked against the form here. None
    #: leaves the facts an open ``dict[str, Any]`` (a workflow whose facts are not typed yet).
    facts: type[F] | None = None
    guard: Guard[R, F] | None = None
    effect: Effect[R, F] | None = None

    def __post_init__(self) -> None:
        if self.facts is None:
            return
        keys = set(self.facts.__annotations__)
        fields = set(self.form.base_fields) if self.form is not None else set()
        if keys != fields:
            raise ValueError(
                f"{self.name}: facts {self.facts.__name__} name {sorted(keys)}, "
                f"its form records {sorted(fields)}"
            )

    def check(self, record: R, cleaned: Mapping[str, Any]) -> str | None:
        # the one place the untyped cleaned data becomes the facts: sound because the facts
        # name exactly the form's fields (checked above) and typed as the form cleans them
        return self.guard(record, cast(F, cleaned)) if self.guard is not None else None

    def apply(self, record: R, cleaned: Mapping[str, Any], actor: Actor, at: datetime) -> None:
        if self.effect is not None:
            self.effect(record, cast(F, cleaned), actor, at)


@dataclass
class Workflow(Generic[R]):
    name: str
    states: list[State]
    initial: str
    transitions: list[Step[R]]
    #: Set by the app that owns the records (permits, enforcement): the e-mail that tells the
    #: persons concerned of a change as it happens (:mod:`sewer_office.registry.notify`).
    #: Core calls it and imports nothing of the apps above it.
    announce: Announce | None = None
    #: Set by the app whose records may be under another law than the transition's citation
    #: (enforcement, for a town whose law is its own): the citation the audit event of a
    #: transition on this record records. ``None``: every record cites the transition's own.
    cites: Cites | None = None
    #: Set by the app whose records may be under another law: what a step is called on this
    #: record (a town's notice demands an explanation and a plan, not a correction). ``None``:
    #: every step keeps its label.
    names: Names | None = None
    #: Set by the app whose records may be under another law: what a state is called on this
    #: record (a town's law with no fine: its deadline passed unanswered, no "fines accruing").
    #: ``None``: every state keeps its label.
    state_names: Names | None = None
    _by_name: dict[str, Step[R]] = field(init=False, repr=False)
    _states: dict[str, State] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._states = {s.value: s for s in self.states}
        self._by_name = {}
        if self.initial not in self._states:
            raise ValueError(f"{self.name}: initial state {self.initial!r} is not a state")
        for t in self.transitions:
            if t.name in self._by_name:
                raise ValueError(f"{self.name}: transition {t.name!r} declared twice")
            named = (*t.sources, t.target, *t.outcomes)
            unknown = [s for s in named if s is not None and s not in self._states]
            if unknown:
                raise ValueError(f"{self.name}.{t.name}: unknown state(s) {unknown}")
            if not t.citation:
                raise ValueError(f"{self.name}.{t.name}: every transition cites the law")
            if t.outcomes and t.target is not None:
                raise ValueError(f"{self.name}.{t.name}: outcomes are for a target decided later")
            self._by_name[t.name] = t

    @property
    def choices(self) -> list[tuple[str, str]]:
        return [(s.value, s.label) for s in self.states]

    def state(self, value: str) -> State:
        return self._states[value]

    def label(self, value: str) -> str:
        s = self._states.get(value)
        return s.label if s else value

    def state_label_on(self, record: R) -> str:
        """What ``record``'s state is called on it (:attr:`state_names`), else its label."""
        label = self.label(record.state)
        return label if self.state_names is None else self.state_names(record, record.state, label)

    def label_on(self, record: R, transition: Step[R]) -> str:
        """What ``transition`` is called on ``record`` (:attr:`names`), else its label."""
        if self.names is None:
            return transition.label
        return self.names(record, transition.name, transition.label)

    def citation_on(self, record: R, transition: Step[R]) -> str:
        """The law ``transition`` rests on for ``record``: its own citation, or the one the
        owning app says the record's law gives (:attr:`cites`). What the audit event records
        and what the page shows beside the action."""
        return (
            transition.citation
            if self.cites is None
            else self.cites(record, transition.name, transition.citation)
        )

    def get(self, name: str) -> Step[R]:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"{self.name} has no transition {name!r}") from None

    def moves(self) -> list[tuple[str, str]]:
        """Every (from, to) change of state a transition may make, in declaration order: what
        the database lets the state column do (:mod:`sewer_office.core.protection`)."""
        out: list[tuple[str, str]] = []
        for t in self.transitions:
            for source in t.sources:
                for target in (t.target,) if t.target is not None else t.outcomes:
                    if target != source and (source, target) not in out:
                        out.append((source, target))
        return out

    def from_state(self, state: str) -> list[Step[R]]:
        return [t for t in self.transitions if state in t.sources]

    def permits(
        self,
        user: Actor | None,
        record: R,
        transition: Step[R],
        owned: bool | None = None,
    ) -> bool:
        """Whether ``user`` is someone the law allows to make ``transition`` on ``record``.

        ``owned`` may say whether ``user`` acts for the record's applicant when the caller
        already knows (a list filtered to the user's own records), saving a query per row.
        """
        if transition.roles & roles_of(user):
            return True
        if not transition.applicant:
            return False
        if owned is not None:
            return owned
        return user is not None and record.is_applicant(user)

    def available(self, user: Actor | None, record: R, owned: bool | None = None) -> list[Step[R]]:
        """Transitions ``user`` may make on ``record`` now (the buttons on its page)."""
        return [
            t
            for t in self.from_state(record.state)
            if not t.automatic and self.permits(user, record, t, owned)
        ]

    def states_for_roles(self, roles: Iterable[str]) -> set[str]:
        """States from which someone with ``roles`` can move a record (their work queue)."""
        wanted = set(roles)
        return {s for t in self.transitions if t.queue and t.roles & wanted for s in t.sources}

    def states_for_applicant(self) -> set[str]:
        return {
            s
            for t in self.transitions
            if t.queue and not t.automatic and t.applicant
            for s in t.sources
        }

    @property
    def open_states(self) -> list[str]:
        return [s.value for s in self.states if not s.terminal]
