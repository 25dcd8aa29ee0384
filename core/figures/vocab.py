"""The words and patterns the figures reader knows: currencies, scales, months, number words.

Patterns here run on text already passed through ``core.text.normalise.normalise`` (lower case,
every dash a "-", every space one " "). This module only holds vocabulary; it refuses to
read or compare anything (that is ``core.figures.read`` and ``core.figures.compare``).
"""

from __future__ import annotations

from decimal import Decimal

# Currency markers as written before or after a number, mapped to one code each. "$" is taken
# as US dollars, as in the English-language reports this desk reads; A$, C$, HK$ stay apart.
CURRENCY_CODES: dict[str, str] = {
    "$": "USD",
    "us$": "USD",
    "us $": "USD",  # "US $ 1,270" in a tokenised text
    "usd": "USD",
    "dollar": "USD",
    "dollars": "USD",
    "a$": "AUD",
    "aud": "AUD",
    "c$": "CAD",
    "cad": "CAD",
    "hk$": "HKD",
    "s$": "SGD",
    "€": "EUR",
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "£": "GBP",
    "gbp": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "₹": "INR",
    "rs": "INR",
    "rs.": "INR",
    "inr": "INR",
    "rupee": "INR",
    "rupees": "INR",
    "¥": "JPY",
    "jpy": "JPY",
    "yen": "JPY",
}
# Longest first so that "us$" wins over "$".
CURRENCY_BEFORE = (
    r"(?:(?<![a-z])us\s?\$|hk\$|a\$|c\$|s\$|\$|€|£|₹|¥"
    r"|(?:rs\.?|inr|usd|eur|gbp|aud|cad|jpy)(?=\s?\d))"  # codes only right before digits
)
# "pounds" is left out: after a number it is as often a weight as money.
CURRENCY_AFTER = r"(?:usd|eur|gbp|inr|aud|cad|jpy|dollars?|euros?|rupees?|yen)"

# Scale suffixes written straight after the digits ("525k", "1.2bn") and scale words after a space.
SCALE_SUFFIX: dict[str, Decimal] = {
    "k": Decimal(10) ** 3,
    "m": Decimal(10) ** 6,
    "mn": Decimal(10) ** 6,
    "mm": Decimal(10) ** 6,
    "b": Decimal(10) ** 9,
    "bn": Decimal(10) ** 9,
    "tn": Decimal(10) ** 12,
    "cr": Decimal(10) ** 7,
}
SCALE_WORD: dict[str, Decimal] = {
    # Compound Indian scales first, so that a pattern joining these words tries them first:
    # "1.2 lakh crore" is 1.2 * 10**12, not 1.2 lakh followed by a stray word.
    "lakh crore": Decimal(10) ** 12,
    "lakh crores": Decimal(10) ** 12,
    "thousand crore": Decimal(10) ** 10,
    "thousand crores": Decimal(10) ** 10,
    "thousand": Decimal(10) ** 3,
    "million": Decimal(10) ** 6,
    "millions": Decimal(10) ** 6,
    "mn": Decimal(10) ** 6,
    "billion": Decimal(10) ** 9,
    "billions": Decimal(10) ** 9,
    "bn": Decimal(10) ** 9,
    "trillion": Decimal(10) ** 12,
    "lakh": Decimal(10) ** 5,
    "lakhs": Decimal(10) ** 5,
    "lac": Decimal(10) ** 5,
    "lacs": Decimal(10) ** 5,
    "crore": Decimal(10) ** 7,
    "crores": Decimal(10) ** 7,
}

MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
    "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
MONTH_NAMES = ("", "January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")  # fmt: skip
MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")"

ORDINAL_WORDS: dict[str, int] = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
}  # fmt: skip
ORDINAL = r"(?:first|second|third|fourth|1st|2nd|3rd|4th)"
# Ordinals written out, as a page gives a rank ("the thirteenth largest", "thirty-sixth most successful").
ORDINAL_UNITS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
    "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
}  # fmt: skip
ORDINAL_TENS: dict[str, int] = {
    "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
    "eightieth": 80, "ninetieth": 90,
}  # fmt: skip

UNITS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
TENS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
UNIT_WORD = r"(?:" + "|".join(sorted(UNITS, key=len, reverse=True)) + r")"
TENS_WORD = r"(?:" + "|".join(TENS) + r")"

# Fractions as a share (in percent): "a quarter" is 25%, "two thirds" is 66.67%.
FRACTION_WORDS: dict[str, Decimal] = {
    "half": Decimal(50),
    "halves": Decimal(50),
    "third": Decimal(100) / 3,
    "thirds": Decimal(100) / 3,
    "quarter": Decimal(25),
    "quarters": Decimal(25),
    "fifth": Decimal(20),
    "fifths": Decimal(20),
}
MULTIPLIER_WORDS: dict[str, int] = {
    "double": 2, "doubled": 2, "doubles": 2, "doubling": 2, "twice": 2,
    "triple": 3, "tripled": 3, "triples": 3, "tripling": 3, "thrice": 3,
    "quadruple": 4, "quadrupled": 4,
}  # fmt: skip
# A "that" standing for a figure ("twice that of Canada", "twice that amount"), not one opening what was said
# ("announced twice that the album would…", "said twice that it…"): "twice" then counts the saying.
THAT_FIGURE = r"that(?!\s(?:[`'\"]|(?:the|a|an|it|he|she|they|we|i|you|there)(?![a-z])))"

# Words before a figure that say the claim is not exact. "approx": either side; "more": the
# true figure is at least this; "less": at most this.
HEDGE = (
    r"(?<![a-z])(?P<hedge>about|around|approximately|approx\.?|roughly|nearly|almost|close to|some|circa|c\.|~|≈"
    r"|an estimated|estimated|an average of|on average|just over|just under|over|more than|above|at least"
    r"|upwards of|in excess of|exceeding|surpassed|surpassing|surpasses|exceeded|exceeds"
    r"|(?:before|after|over|under|above|below) the age of|less than|under|below|fewer than|at most|up to|as much as"
    r"|as many as|as high as|as low as|between|from"
    r"|higher than|greater than|larger than|bigger than|lower than|smaller than"
    r"|longer than|older than|shorter than|younger than"
    r"|before|after|prior to|preceding|earlier than|later than)\s?$"
)
HEDGE_SIDE: dict[str, str] = {
    "over": "more", "more than": "more", "above": "more", "at least": "more", "upwards of": "more",
    "in excess of": "more", "exceeding": "more", "just over": "more",
    "surpassed": "more", "surpassing": "more", "surpasses": "more", "exceeded": "more", "exceeds": "more",
    # An age bound: "after the age of 20" holds "at 23", "before the age of 18" holds "at the age of 15".
    "before the age of": "less", "under the age of": "less", "below the age of": "less",
    "after the age of": "more", "over the age of": "more", "above the age of": "more",
    "less than": "less", "under": "less", "below": "less", "fewer than": "less", "at most": "less",
    "up to": "less", "as much as": "less", "as many as": "less", "as high as": "less", "just under": "less",
    "as low as": "more",
    "higher than": "more", "greater than": "more", "larger than": "more", "bigger than": "more",
    "lower than": "less", "smaller than": "less",
    "longer than": "more", "older than": "more", "shorter than": "less", "younger than": "less",
    # In time, "after" is later and "before" earlier: a year or date after them is a bound.
    "after": "more", "later than": "more", "before": "less", "prior to": "less", "earlier than": "less",
    "preceding": "less",
    # "by February 2009" is at the latest then (read before dates only, by core.figures.dates).
    "by": "less",
}  # fmt: skip
# A character the page's encoding lost: U+FFFD, or its three UTF-8 bytes read as Latin-1 ("ï¿½").
LOST_CHAR = r"(?:\ufffd|ï¿½)"
# Comparators a "not" or "no" before them turns into the opposite bound (core.figures.scan reads the
# negation): "not more than 850" is at most 850, "no fewer than 30" at least 30, "not over 3,000" at most 3,000.
NEGATABLE = frozenset(
    {"more than", "less than", "fewer than", "greater than", "higher than", "lower than", "larger than",
     "smaller than", "bigger than", "over", "under", "above", "below", "exceeding", "in excess of",
     "longer than", "older than", "shorter than", "younger than"}
)  # fmt: skip
# ...and in time, a bound that holds its own point: "not founded before 1976" is 1976 or later, "no later
# than 2015" 2015 or earlier.
NEGATABLE_TIME = frozenset({"before", "after", "prior to", "earlier than", "later than"})
NEGATED_HEDGES = frozenset(f"{neg} {hedge}" for hedge in NEGATABLE | NEGATABLE_TIME for neg in ("not", "no"))
HEDGE_SIDE.update({h: "less" if HEDGE_SIDE[h.split(" ", 1)[1]] == "more" else "more" for h in NEGATED_HEDGES})
# The hedges that bound a point in time; before a count ("after 53 reviews") they are no hedge.
TIME_HEDGES = frozenset({"after", "later than", "before", "prior to", "preceding", "earlier than", "by"}) | frozenset(
    f"{neg} {hedge}" for hedge in NEGATABLE_TIME for neg in ("not", "no")
)
# "between" and "from" open ranges; "an average of" names a mean: neither makes a figure approximate.
NOT_HEDGES = frozenset({"between", "from", "an average of", "on average"})

# Words after which a number names a thing rather than measuring it ("PEP 632", "Table 5").
LABEL_WORDS = (
    r"(?<![a-z])(?:pep|peps|bpo|gh|issue|issues|table|tables|note|notes|item|items|section|sections|rule|rules"
    r"|part|parts|page|pages|pp\.|p\.|chapter|figure|fig\.|no\.|number|#|exhibit|schedule|appendix|article|class"
    r"|form|s&p|ftse|fortune|nasdaq|russell|nikkei|dax|stoxx)\s?-?$"
)
# Words after which a decimal is a software version ("Python 3.12", "since 3.8").
VERSION_WORDS = r"(?<![a-z])(?:python|cpython|pypy|jython|version|versions|release|releases|since|until|through|v)\s?$"

# Units of measure read after a number ("3,200 miles", "90-day"): when claim and quote both name
# one, they must agree, as currencies must. Each word maps to one unit.
UNIT_WORDS: dict[str, str] = {
    "mile": "mile", "miles": "mile", "mi": "mile", "km": "km", "kilometer": "km", "kilometers": "km",
    "kilometre": "km", "kilometres": "km", "meter": "m", "meters": "m", "metre": "m", "metres": "m",
    "feet": "ft", "foot": "ft", "ft": "ft", "inch": "in", "inches": "in", "kg": "kg", "kilogram": "kg",
    "kilograms": "kg", "lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb", "ton": "ton", "tons": "ton",
    "tonne": "tonne", "tonnes": "tonne", "gallon": "gal", "gallons": "gal", "liter": "l", "liters": "l",
    "litre": "l", "litres": "l", "mph": "mph", "second": "s", "seconds": "s", "sec": "s", "secs": "s",
    "minute": "min", "minutes": "min", "mins": "min", "hour": "h", "hours": "h", "hrs": "h", "day": "day",
    "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month", "year": "year",
    "years": "year", "yrs": "year", "byte": "byte", "bytes": "byte", "kb": "kb", "mb": "mb", "gb": "gb",
    "tb": "tb", "degree": "deg", "degrees": "deg", "mm": "mm", "cm": "cm", "ghz": "ghz", "mhz": "mhz",
    "khz": "khz", "mah": "mah", "kwh": "kwh", "kw": "kw", "mw": "mw", "gw": "gw", "mg": "mg", "ml": "ml",
    "gram": "g", "grams": "g", "gramme": "g", "grammes": "g", "milligram": "mg", "milligrams": "mg",
    "kilogramme": "kg", "kilogrammes": "kg", "millilitre": "ml", "millilitres": "ml", "milliliter": "ml",
    "milliliters": "ml", "centimetre": "cm", "centimetres": "cm", "centimeter": "cm", "centimeters": "cm",
    "millimetre": "mm", "millimetres": "mm", "millimeter": "mm", "millimeters": "mm", "ounce": "oz",
    "ounces": "oz", "oz": "oz",
}  # fmt: skip
UNIT_AFTER = r"(?:\s|-)(?P<unit>" + "|".join(sorted(UNIT_WORDS, key=len, reverse=True)) + r")(?![a-z])"
# Units that count time: a small whole number of them still stands alone ("over 5 years").
TIME_UNITS = frozenset({"s", "min", "h", "day", "week", "month", "year"})
# Units written glued to their number ("512MB", "2.4GHz", "5km"): the number is read, with its unit.
GLUED_UNITS = (  # noqa: SIM905 (a word list reads best as words)
    "kb mb gb tb pb kib mib gib tib kbps mbps gbps hz khz mhz ghz mah wh kwh mwh gwh w kw mw gw "
    "km cm mm kg mg ml nm ms mph kph kmh"
).split()
GLUED_UNIT = r"(?P<unit>" + "|".join(sorted(GLUED_UNITS, key=len, reverse=True)) + r")(?![a-z0-9])"

# A line holds a figure only if it has a digit or one of these (the number words the reader reads
# beyond the small ones it drops when they stand alone, fractions, multipliers, ordinal periods, a
# share told in words, "one in five"): the page's other lines are not read for figures.
MAY_HOLD_FIGURE = (
    r"\d|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|eleven|twelve|teen|hundred|thousand|million"
    r"|billion|trillion|lakh|crore|half|halves|third|quarter|fifth|double|twice|tripl|thrice|quadrupl"
    r"|percent|per cent|times|first|second|fourth|fiscal|fold|½|¼|¾|⁄"
    r"|one in|two in|three in|four in|five in|six in|seven in|eight in|nine in"
)
