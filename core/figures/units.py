"""Units of measure that convert exactly: "90 minutes" is "1.5 hours", "4km" is "4,000 metres".

A claim often restates its source's figure in another unit of the same system: a duration in
hours for one in minutes, a distance in metres for one in kilometres, a volume in litres for
one in millilitres. Each table here holds units whose ratios are exact, so a conversion never
rounds; a figure then keeps the claim's own precision, converted with it ("2 km" is written to
the kilometre, 1,000 metres). Units of different systems ("5,200 miles" against "5,150 km"), a
month against days (a month has no fixed length), and units whose written form is ambiguous
once lowercased ("mw" for milliwatts or megawatts, "mb" for megabits or megabytes) never convert.
"""

from __future__ import annotations

from decimal import Decimal

# One dimension per table, each unit in the table's base: seconds, months, metres, inches, kilograms, litres, hertz.
_TABLES: tuple[dict[str, Decimal], ...] = (
    {"s": Decimal(1), "min": Decimal(60), "h": Decimal(3600), "day": Decimal(86400), "week": Decimal(604800)},
    {"month": Decimal(1), "year": Decimal(12)},
    {"mm": Decimal("0.001"), "cm": Decimal("0.01"), "m": Decimal(1), "km": Decimal(1000)},
    {"in": Decimal(1), "ft": Decimal(12), "mile": Decimal(63360)},
    {"mg": Decimal("0.000001"), "g": Decimal("0.001"), "kg": Decimal(1), "tonne": Decimal(1000)},
    {"ml": Decimal("0.001"), "l": Decimal(1)},
    {"khz": Decimal(1000), "mhz": Decimal(10**6), "ghz": Decimal(10**9)},
)


def factor(unit: str, to: str) -> Decimal | None:
    """Return how many of ``to`` one ``unit`` is ("h" to "min": 60), None when the two do not convert exactly."""
    for table in _TABLES:
        if unit in table and to in table:
            return table[unit] / table[to]
    return None


def ratios(unit: str) -> tuple[Decimal, ...]:
    """Return how many of each other unit of its table one ``unit`` is ("km": 1000000, 100000, 1000), () for none."""
    table = next((t for t in _TABLES if unit in t), {})
    return tuple(table[unit] / size for other, size in table.items() if other != unit)


__all__ = ["factor", "ratios"]
