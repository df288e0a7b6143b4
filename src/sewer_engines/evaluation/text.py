"""Messages built from columns, safely over any chunk layout.

Work-around of a polars defect (polars 2.1.0, kept as pinned): ``pl.format`` panics with
``assertion failed: i < self.len()`` (polars-arrow ``binview``) when a string column is made
of several chunks of which two or more consecutive ones are empty — exactly what filtering a
large CSV's columns down to a few bad rows produces (a 50,000-row file with three bad dates).
``pl.concat_str`` over the same columns is correct, so every message of the engine is built
here with it instead; the template keeps ``pl.format``'s ``{}`` placeholders.

Every value a message quotes is shortened as :func:`sewer_rules.hostile.shorten` does (a
200,000-digit value is quoted by its first 79 characters and an ellipsis).
"""

from __future__ import annotations

import polars as pl

from sewer_rules.hostile import QUOTE_LIMIT


def quoted(text: pl.Expr) -> pl.Expr:
    """``text`` shortened for a message, like :func:`sewer_rules.hostile.shorten`."""
    return (
        pl.when(text.str.len_chars() > QUOTE_LIMIT)
        .then(pl.concat_str([text.str.slice(0, QUOTE_LIMIT - 1), pl.lit("…")]))
        .otherwise(text)
    )


def format_text(template: str, *args: pl.Expr | str, quote: bool = True) -> pl.Expr:
    """``pl.format(template, *args)`` by ``pl.concat_str`` (null when an argument is null).

    ``quote=False`` leaves the values as they are: for a caller that knows every value is
    within :data:`QUOTE_LIMIT` characters, where :func:`quoted` would change nothing and only
    cost a pass over each value."""
    pieces = template.split("{}")
    if len(pieces) != len(args) + 1:
        raise ValueError(f"{template!r} has {len(pieces) - 1} placeholders for {len(args)} values")
    exprs: list[pl.Expr] = []
    for i, piece in enumerate(pieces):
        if piece:
            exprs.append(pl.lit(piece, dtype=pl.String))
        if i < len(args):
            arg = args[i]
            value = (pl.col(arg) if isinstance(arg, str) else arg).cast(pl.String)
            exprs.append(quoted(value) if quote else value)
    if not exprs:
        return pl.lit("", dtype=pl.String)
    return pl.concat_str(exprs)
