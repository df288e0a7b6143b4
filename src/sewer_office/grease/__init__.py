"""Grease traps and interceptors: inventory, cleaning, pump-outs, sizing (§ 196-19 F)."""
