"""Billing rules: pure computations of what a facility owes for a period (no Django)."""
