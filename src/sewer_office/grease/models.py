"""Models of the grease app."""

from __future__ import annotations
