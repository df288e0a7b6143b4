"""Reading a laboratory file: the bytes of an upload, refused by size, name or text, read into
the project's layout as text columns (through a laboratory's mapping when it has one).

Nothing here checks the rows against the registry or the law (:mod:`.lab_checks` does) or stores
anything (:mod:`.lab_store`): reading is the part the mapping pages share with the import.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, cast

import polars as pl

from sewer_io.check_io import UnusableFile, frame_with_rows, mapped_rows
from sewer_io.lab_mapping import LabMapping
from sewer_office.core.errors import shorten, upload_refused
from sewer_rules.hostile import TextRefused, utf8_text

from .models import LabImport

if TYPE_CHECKING:
    pass


def read_upload(upload: Any) -> bytes:
    """An uploaded laboratory file's bytes, refused by its size before it is read."""
    name = str(getattr(upload, "name", "") or "upload")
    refusal = upload_refused(name, int(upload.size))
    if refusal:
        raise UnusableFile(refusal)
    return cast(bytes, upload.read())


def read_lab_bytes(data: bytes, source_name: str) -> pl.DataFrame:
    """The file as text columns plus ``row``; :class:`UnusableFile` when it cannot be read."""
    raw, _refused = read_lab_file(data, source_name)
    return raw


def read_lab_file(
    data: bytes, source_name: str, mapping: LabMapping | None = None
) -> tuple[pl.DataFrame, list[tuple[int, str, str]]]:
    """The file in the project's layout (text columns plus ``row``, the file's lines) and the
    rows its laboratory's ``mapping`` refused (none without a mapping: the file is then in the
    project's own layout). Without a ``sampling_point`` in the mapping, every row's is blank
    (the facility's only sampling point). :class:`UnusableFile` when it cannot be read."""
    frame = csv_text_frame(data, source_name)
    refused: list[tuple[int, str, str]] = []
    if mapping is None:
        raw = frame_with_rows(frame, source_name)
    else:
        if not frame.columns or frame.columns == [""]:
            raise UnusableFile(f"{source_name}: empty file (no header)")
        numbered = frame.with_row_index("row", offset=2).with_columns(pl.col("row").cast(pl.Int64))
        # Blank lines are dropped before the mapping's constants would fill them.
        numbered = numbered.filter(~pl.all_horizontal(pl.exclude("row").is_null()))
        mapped = mapped_rows(numbered, source_name, mapping)
        raw, refused = mapped.frame, list(mapped.errors.iter_rows())
        if "facility" not in raw.columns:
            raise UnusableFile(
                f"{source_name}: the mapping '{mapping.name}' gives no facility (a column or a "
                "constant)"
            )
        if "sampling_point" not in raw.columns:
            raw = raw.with_columns(pl.lit(None, dtype=pl.String).alias("sampling_point"))
    # Blank lines (a trailing newline too many) are not results.
    raw = raw.filter(~pl.all_horizontal(pl.exclude("row").is_null()))
    if raw.height == 0 and not refused:
        raise UnusableFile(f"{source_name}: empty file (a header but no rows)")
    if "facility" not in raw.columns:
        raise UnusableFile(f"{source_name}: missing required column 'facility'")
    if "sampling_point" not in raw.columns:
        raise UnusableFile(f"{source_name}: missing required column 'sampling_point'")
    return raw, refused


def csv_text_frame(data: bytes, source_name: str) -> pl.DataFrame:
    """The file's CSV as text columns, its header as written; refused by size, name or text."""
    refusal = upload_refused(source_name, len(data))
    if refusal:
        raise UnusableFile(refusal)
    name_limit = LabImport._meta.get_field("source_name").max_length or 0
    if len(source_name) > name_limit:
        raise UnusableFile(
            f"{shorten(source_name)}: a file name of {len(source_name)} characters, longer than "
            f"the {name_limit} stored"
        )
    try:  # a UTF-8 byte order mark (spreadsheets write one) is dropped, not a header
        data = utf8_text(data).encode("utf-8")
    except TextRefused as e:
        raise UnusableFile(f"{shorten(source_name)}: {e}") from None
    try:
        frame = pl.read_csv(
            io.BytesIO(data), infer_schema=False, encoding="utf8", raise_if_empty=False
        )
    except (pl.exceptions.PolarsError, UnicodeDecodeError) as e:
        raise UnusableFile(f"{source_name}: unreadable as CSV: {str(e).splitlines()[0]}") from None
    return frame
