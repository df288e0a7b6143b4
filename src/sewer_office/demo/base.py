"""Helpers shared by the demo town's record builders: back-dated transitions by demo users."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sewer_office.core.services import perform

from .town import Town


class RecordsBase:
    #: Phase III-A systems required to connect when the Town declared sewer available.
    connection_required: list[Any]

    def __init__(self, town: Town) -> None:
        self.town = town
        self.rng = town.rng
        self.clock = 0

    # --- helpers -----------------------------------------------------------------------------

    def at(self, days_ago: int) -> Any:
        self.clock += 7
        return self.town.moment(max(days_ago, 0), self.clock % 420)

    def user(self, name: str) -> Any:
        return self.town.users[name]

    def do(
        self,
        record: Any,
        name: str,
        user: str,
        days_ago: int,
        data: dict[str, Any] | None = None,
        reason: str = "",
    ) -> Any:
        return perform(
            record, name, self.user(user), data=data or {}, reason=reason, at=self.at(days_ago)
        )

    def day(self, days_ago: int) -> Any:
        return self.town.anchor - timedelta(days=max(days_ago, 0))
