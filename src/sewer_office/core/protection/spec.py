"""What one model's records of legal weight may still change: :class:`Protected` (the package
says how the triggers read it)."""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps as global_apps


@dataclass(frozen=True)
class Protected:
    """One model's issued records and what may still change on them (see the module)."""

    model: str  # "app_label.ModelName"
    when: str = ""
    fill_once: tuple[str, ...] = ()
    transitions: tuple[tuple[str, str, str], ...] = ()
    bookkeeping: tuple[str, ...] = ()
    workflow: str = ""
    with_move: tuple[tuple[str, str], ...] = ()
    settled: str = ""
    #: a class attribute of the model naming more ``fill_once`` columns, where the model keeps
    #: the same list for its own check (one list for ``save()`` and the trigger)
    fill_once_from: str = ""

    @property
    def append_only(self) -> bool:
        """Whether nothing of legal content may change on any of its rows once written."""
        return not (
            self.when
            or self.fill_once
            or self.fill_once_from
            or self.transitions
            or self.workflow
            or self.with_move
            or self.settled
        )

    def filled_once(self) -> tuple[str, ...]:
        """The ``fill_once`` columns and those the model names in ``fill_once_from`` (read
        now, from the model class: core imports no app)."""
        if not self.fill_once_from:
            return self.fill_once
        named = getattr(global_apps.get_model(self.model), self.fill_once_from)
        return self.fill_once + tuple(sorted(c for c in named if c not in self.fill_once))

    def moves(self) -> tuple[tuple[str, str, str], ...]:
        """The declared ``transitions`` and those of the model's workflow (read now: the
        models' ``WORKFLOW`` is bound when their apps are ready)."""
        if not self.workflow:
            return self.transitions
        model = global_apps.get_model(self.model)
        workflow = getattr(model, "WORKFLOW", None)
        if workflow is None:
            raise LookupError(f"{self.model} has no WORKFLOW to read its moves from")
        derived = tuple((self.workflow, a, b) for a, b in workflow.moves())
        return self.transitions + tuple(m for m in derived if m not in self.transitions)
