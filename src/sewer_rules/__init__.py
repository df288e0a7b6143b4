"""sewer_rules — the Town of Wappinger's sewer-use law (Town Code ch. 196, art. VII) as code.

Pure Python: no Django, no database, no I/O beyond reading its own parameter files.
Every determination names the section it rests on (:mod:`sewer_rules.citations`) and the
dated parameter values it used (:mod:`sewer_rules.parameters`), so that it can be replayed
under the rules in force on its date.
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
