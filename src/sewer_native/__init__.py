"""Compiled loops for the engines of :mod:`sewer_rules.monitoring` (``_kernels.c``).

The package holds no law and imports nothing of the project. Its module may be missing (a
machine without a C compiler builds the project without it); :mod:`sewer_engines.monitoring.native`
decides whether to use it.
"""
