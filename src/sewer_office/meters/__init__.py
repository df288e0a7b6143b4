"""Meters and continuous monitoring in the office: readings, slugs, reports (§ 196-19 D(9))."""
