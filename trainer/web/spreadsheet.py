"""Downloads as an Excel workbook (.xlsx), beside their CSV (issue 24), made with openpyxl.

The same header and rows as the CSV file, on one sheet, in a workbook written as it goes (openpyxl's
write-only mode: a row at a time, not the whole sheet in memory). Text stays text: a cell typed by
a student or a teacher that starts with "=" is stored as a string, never as a formula (the CSV
guard, P-H11, does it for CSV by an apostrophe, which a workbook has no need of).
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable, Sequence

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from werkzeug.wrappers import Response

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

#: Excel's limit on a sheet's name.
_SHEET_NAME_MAX = 31


def xlsx_bytes(sheet: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """A workbook of one sheet named ``sheet``: ``header`` in bold and frozen, then ``rows``."""
    book = Workbook(write_only=True)
    page = book.create_sheet(_sheet_name(sheet))
    page.freeze_panes = "A2"
    widths = [len(name) for name in header]
    heading = []
    for name in header:
        cell = WriteOnlyCell(page, value=name)
        cell.font = Font(bold=True)
        cell.data_type = "s"
        heading.append(cell)
    # Column widths must be set before the first row is written: measured on the header only,
    # with room for a date, a name or an answer.
    for n, width in enumerate(widths, start=1):
        page.column_dimensions[get_column_letter(n)].width = max(12, min(40, width + 4))
    page.append(heading)
    for row in rows:
        page.append([_cell(page, value) for value in row])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def xlsx_response(
    filename: str, sheet: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> Response:
    """The workbook as a download, never kept by a browser or a proxy (it holds students' work)."""
    return Response(
        xlsx_bytes(sheet, header, rows),
        mimetype=XLSX,
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


def _cell(page: object, value: object) -> object:
    if isinstance(value, str):
        cell = WriteOnlyCell(page, value=value)
        cell.data_type = "s"  # text, even "=1+1" typed as an answer
        return cell
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.astimezone(dt.UTC).replace(tzinfo=None)  # Excel has no time zones: UTC
    return value


def _sheet_name(name: str) -> str:
    cleaned = "".join(" " if ch in "[]:*?/\\" else ch for ch in name).strip() or "Sheet"
    return cleaned[:_SHEET_NAME_MAX]
