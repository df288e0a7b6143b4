"""Declared plugs: what an app above contributes to a lower one, registered by that app.

A lower layer that must show or run what a higher app has (the dashboard its permits, the
daily run its reminders) cannot import it: the layers run one way. So the lower layer declares
a :class:`Plugs` — a named, typed list of contributions — and each app that has something to
give adds it from its own ``apps.py`` ``ready()``, where Django's app loading allows models to
be imported. Nothing lower names a higher app, not even as a string: a new app joins by
registering, and an app left out of ``INSTALLED_APPS`` contributes nothing.

Contributions are kept in the order the apps are registered (``INSTALLED_APPS``, lowest app
first), each under its app's label, so a second ``ready()`` (a test that reloads the apps)
replaces the app's contribution rather than adding it twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Plugs(Generic[T]):
    """The contributions of the apps to one plug, by app label, in registration order."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._by_app: dict[str, T] = {}

    def add(self, app: str, contribution: T) -> None:
        """``app`` (its label) contributes ``contribution``; a second call replaces the first."""
        self._by_app[app] = contribution

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._by_app.values()))

    def apps(self) -> tuple[str, ...]:
        """The labels of the apps that contributed, in order (what a test checks)."""
        return tuple(self._by_app)

    def __repr__(self) -> str:
        return f"Plugs({self.what!r}: {', '.join(self._by_app) or 'none'})"
