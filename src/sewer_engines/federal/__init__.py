"""Engines of the federal rules: SNC (40 CFR 403.8(f)(2)(viii)) counted column-wise."""
