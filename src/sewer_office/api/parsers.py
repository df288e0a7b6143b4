"""The API's JSON parser: DRF's, with the nesting of a request's JSON bounded.

A body of ``[[[…]]]`` 100,000 deep made Python's decoder raise ``RecursionError`` (a server
error) in DRF's parser; here it is a 400 saying the JSON is nested too deeply, as is any body
nested deeper than :data:`sewer_rules.hostile.MAX_JSON_DEPTH`, a number of more digits than
Python reads, and, whatever the body's size, a string or key holding a control character
(NUL...), named. Every view reads JSON through it (``DEFAULT_PARSER_CLASSES`` and the views
that name their parsers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from sewer_office.core.control_chars import in_json
from sewer_rules.hostile import MAX_JSON_DEPTH, TOO_DEEP, TOO_MANY_DIGITS, nesting


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - {TOO_DEEP}") from None
        except ParseError as e:
            if "digits" in str(e.detail):
                raise ParseError(f"JSON parse error - {TOO_MANY_DIGITS}") from None
            raise
        if nesting(data) > MAX_JSON_DEPTH:
            raise ParseError(f"JSON parse error - {TOO_DEEP}")
        # the middleware reads bodies up to DATA_UPLOAD_MAX_MEMORY_SIZE; a larger one, which
        # DRF reads from the stream, is checked here: a NUL never reaches the database
        found = in_json(data)
        if found is not None:
            raise ParseError(found.message)
        return data
