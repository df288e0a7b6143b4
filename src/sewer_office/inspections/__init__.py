"""Inspections of facilities, easements and works (§ 196-21)."""
