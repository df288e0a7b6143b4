"""Signals of the registry that other apps act on inside the same transaction."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent by :func:`sewer_office.registry.services.declare_public_sewer_available` inside its
#: transaction, with ``area``, ``on`` (date), ``act`` and ``actor``: the permits app answers
#: with a connection requirement for every property of the area on a private system
#: (§ 196-17 E).
public_sewer_declared = Signal()
