"""Models of the inspections app."""

from __future__ import annotations
