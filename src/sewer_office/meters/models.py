"""Models of the meters app."""

from __future__ import annotations
