"""Guards every reader of users' files shares against hostile input (a file built to exhaust memory, time or a parser), pure and without I/O.

- :func:`shorten` — quote a piece of input in a message, cut to :data:`QUOTE_LIMIT`
  characters: a 200,000-digit value or a line of a million characters is not echoed whole.
- :func:`loads_json` — JSON text decoded with its nesting bounded (:data:`MAX_JSON_DEPTH`):
  ``[[[…]]]`` 100,000 deep is a :class:`JSONRefused` saying so, never a ``RecursionError``, and
  a number of more digits than Python converts is refused the same way.
- :func:`utf8_text` — bytes as UTF-8 text (a byte order mark dropped), or a
  :class:`TextRefused` naming the line of the first byte that is not UTF-8, and UTF-16.
- :func:`control_character` — the first character of a text that no record may hold (NUL and
  the other C0 controls but tab, line feed and carriage return).
"""

from __future__ import annotations

import json
import re
from typing import Any

#: How much of a user's input a message may quote.
QUOTE_LIMIT = 80
#: Nesting a JSON document the office reads may have (GeoJSON needs 6, a design 4).
MAX_JSON_DEPTH = 64
#: The control characters no record may hold (a regular expression; polars reads it too).
CONTROL_PATTERN = r"[\x00-\x08\x0b\x0c\x0e-\x1f]"
_CONTROLS = re.compile(CONTROL_PATTERN)
#: The refusals of JSON that :func:`loads_json` and the API's parser share.
TOO_DEEP = f"nested more than {MAX_JSON_DEPTH} levels deep"
TOO_MANY_DIGITS = "a number of more than 4,300 digits"


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for quoting input in a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class JSONRefused(ValueError):
    """Text that is not JSON the office reads: the message says why, quoting little."""


def nesting(value: Any) -> int:
    """How deeply ``value`` (decoded JSON) nests, without recursion (counted up to one
    level beyond :data:`MAX_JSON_DEPTH`)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level > MAX_JSON_DEPTH:
                return level
            children = item.values() if isinstance(item, dict) else item
            stack.extend((c, level + 1) for c in children if isinstance(c, dict | list))
    return deepest


def loads_json(text: str | bytes) -> Any:
    """``text`` decoded as JSON, nested at most :data:`MAX_JSON_DEPTH` levels.

    Raises :class:`JSONRefused` for text that is not JSON (the decoder's message, with its
    line and column), nests deeper, or writes a number of more digits than Python reads.
    """
    try:
        data = json.loads(text)
    except RecursionError:
        raise JSONRefused(TOO_DEEP) from None
    except json.JSONDecodeError as e:
        raise JSONRefused(f"not JSON: {e.msg}: line {e.lineno} column {e.colno}") from None
    except ValueError as e:  # an integer of more digits than int() converts (sys.int_info)
        if "digits" in str(e):
            raise JSONRefused(TOO_MANY_DIGITS) from None
        raise JSONRefused(f"not JSON: {shorten(str(e))}") from None
    if nesting(data) > MAX_JSON_DEPTH:
        raise JSONRefused(TOO_DEEP)
    return data


class TextRefused(ValueError):
    """Bytes that are not UTF-8 text: the message names the line."""


def utf8_text(data: bytes) -> str:
    """``data`` as UTF-8 text without its byte order mark, or :class:`TextRefused` naming the
    line (1 = the first) of the first byte that is not UTF-8."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise TextRefused("UTF-16 text, not UTF-8: save the file as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise TextRefused(
            f"not UTF-8 text: line {line} holds the byte 0x{data[e.start]:02x} "
            "(Latin-1 or Windows text?): save the file as UTF-8"
        ) from None


def control_character(text: str) -> str | None:
    """The first control character ``text`` holds that no record may (e.g. ``"NUL"``)."""
    found = _CONTROLS.search(text)
    if found is None:
        return None
    ch = found.group()
    return "NUL" if ch == "\x00" else f"U+{ord(ch):04X}"
