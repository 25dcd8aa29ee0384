"""Typed field readers for the JSON report: each returns a checked value or raises ReportFormatError naming it.

``core.report.read_json`` reads whole records with them; this module knows no record and refuses to
read files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import ReportFormatError
from core.models import Span
from core.report.as_json import UNKNOWN_POSITION


def field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any = ...) -> Any:
    """Return data[key] checked against kind; a missing key gives default when one is given."""
    if key not in data or (data[key] is None and default is None):
        if default is ...:
            raise ReportFormatError(f"JSON report: {where} has no '{key}'; the file is not a Verbatim report")
        return default
    value = data[key]
    # bool is an int in Python; a span or count written as true/false is a broken file.
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise ReportFormatError(f"JSON report: {where}.{key} is a boolean where a number or text was expected")
    if not isinstance(value, kind):
        raise ReportFormatError(
            f"JSON report: {where}.{key} is {type(value).__name__}, expected {getattr(kind, '__name__', kind)}"
        )
    return value


def obj(value: Any, where: str) -> Mapping[str, Any]:
    """Return value as a JSON object; anything else raises, naming where it stands."""
    if not isinstance(value, Mapping):
        raise ReportFormatError(f"JSON report: {where} is {type(value).__name__}, expected an object")
    return value


def list_field(data: Mapping[str, Any], key: str, where: str) -> Sequence[Any]:
    """Return data[key] as a list, [] when it is missing."""
    value = field(data, key, list, where, [])
    return value  # type: ignore[no-any-return]


def span(value: Any, where: str) -> tuple[int, int]:
    """Return a [start, end] pair of whole numbers as a span."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ReportFormatError(f"JSON report: {where} is not a [start, end] pair of whole numbers")
    return int(value[0]), int(value[1])


def opt_int(data: Mapping[str, Any], key: str, where: str) -> int | None:
    """Return data[key] as a whole number, None when it is missing or null."""
    value = field(data, key, int, where, None)
    return None if value is None else int(value)


def opt_bool(data: Mapping[str, Any], key: str, where: str) -> bool | None:
    """Return data[key] as a boolean, None when it is missing or null."""
    value = field(data, key, bool, where, None)
    return None if value is None else bool(value)


def enum_value(enum_type: Any, value: Any, where: str) -> Any:
    """Return value as a member of enum_type; an unknown value raises, naming the allowed ones."""
    try:
        return enum_type(value)
    except ValueError:
        allowed = ", ".join(e.value or '""' for e in enum_type)
        raise ReportFormatError(f"JSON report: {where} is {value!r}, expected one of {allowed}") from None


def opt_enum(enum_type: Any, data: Mapping[str, Any], key: str, where: str) -> Any:
    """Return data[key] as a member of enum_type, or None when it is missing, null or ""."""
    value = field(data, key, str, where, None)
    return enum_value(enum_type, value, f"{where}.{key}") if value else None


def span_field(data: Mapping[str, Any], where: str) -> Span | None:
    """Return the span a record's "start" and "end" give, None when both are -1 or null (unknown)."""
    start, end = opt_int(data, "start", where), opt_int(data, "end", where)
    known = [v is not None and v != UNKNOWN_POSITION for v in (start, end)]
    if not any(known):
        return None
    if start is None or end is None or not all(known):
        raise ReportFormatError(f"JSON report: {where} has a start or an end without the other")
    return start, end


def strings(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    """Return data[key] as a tuple of strings, () when it is missing."""
    values = list_field(data, key, where)
    if not all(isinstance(v, str) for v in values):
        raise ReportFormatError(f"JSON report: {where}.{key} is not a list of strings")
    return tuple(values)
