"""Host names read with Unicode's confusable rules (UTS #39, through ICU's spoof checker).

``lookalike`` says whether a host is written to look like another: a label in one non-Latin
script whose every letter has a Latin twin (``www.іеа.org`` in Cyrillic: "whole-script"), or a
label mixing scripts beyond UTS #39's highly restrictive level (``pаypal.com``: "mixed-script").
The name it imitates is the host with each letter replaced by its UTS #39 skeleton, named only
when that gives a plain ASCII host. Honest international names (``bücher.de``, ``東京.jp``,
``пример.рф``) are none of these. It only reads names: it never resolves, fetches or refuses.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import icu
import idna

#: Scripts that say nothing about a label's own script (digits, the hyphen, combining marks).
_NEUTRAL = frozenset({"Common", "Inherited"})


@dataclass(frozen=True, kw_only=True)
class LookAlike:
    """A host written to look like another: as written, its punycode, the host it imitates and why."""

    host: str  # as written, in Unicode
    punycode: str  # the ASCII form DNS and the server see
    imitates: str  # the ASCII host it looks like, "" when the letters imitate no plain name
    scripts: tuple[str, ...]  # the scripts of its letters, Latin first ("Latin", "Cyrillic")
    mixed: bool  # one label mixes scripts (else a whole label is written in another script)

    @property
    def message(self) -> str:
        """Return the editor's sentence: what the host is written in, what it looks like, what to do."""
        others = [s for s in self.scripts if s != "Latin"] or list(self.scripts)
        names = list(self.scripts) if self.mixed else others
        letters = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        how = f"mixes {letters} letters" if self.mixed else f"is written in {letters} letters"
        like = f" that look like {self.imitates}" if self.imitates else ", the spelling of a look-alike host"
        return (
            f"The link's host {self.host} ({self.punycode}) {how}{like}: it is not that site."
            " Check who publishes this page before relying on it."
        )


@functools.cache
def _checker() -> icu.SpoofChecker:
    checker = icu.SpoofChecker()
    # UTS #39's restriction level "highly restrictive": Latin beside Han, Kana or Hangul is honest.
    checker.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
    checker.setChecks(icu.USpoofChecks.RESTRICTION_LEVEL)
    return checker


def _script(ch: str) -> str:
    return str(icu.Script.getScript(ch).getName())


def _twin(ch: str) -> str | None:
    """Return the ASCII letters a character's skeleton is (its Latin twin), or None when it has none."""
    if ch.isascii():
        return ch
    skeleton = str(_checker().getSkeleton(0, ch))
    return skeleton.lower() if skeleton.isascii() and skeleton.isalnum() else None


def _unicode(host: str) -> str | None:
    """Return the host in Unicode, lower-case as IDNA maps it (punycode labels decoded), or None when invalid."""
    try:
        return idna.decode(idna.encode(host.rstrip("."), uts46=True))
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


@functools.lru_cache(maxsize=4096)
def lookalike(host: str) -> LookAlike | None:
    """Return what makes a host a look-alike of another name, or None for an honest (or ASCII, or IP) host."""
    name = _unicode(host) if host else None
    if name is None or name.isascii():
        return None
    scripts: list[str] = []
    mixed = False
    twins: list[str | None] = []
    for label in name.split("."):
        own = {_script(ch) for ch in label} - _NEUTRAL
        scripts += [s for s in sorted(own) if s not in scripts]
        mixed = mixed or bool(_checker().check(label) & icu.USpoofChecks.RESTRICTION_LEVEL)
        twins.extend(_twin(ch) for ch in label)
        twins.append(".")
    imitated = "".join(t for t in twins if t is not None)[:-1] if None not in twins else ""
    # Letters of Latin alone with a twin (Turkish "ı" in "kırmızı") are how that language writes.
    whole = bool(imitated) and any(s != "Latin" for s in scripts)
    if not (whole or mixed):
        return None
    ordered = tuple(sorted(scripts, key=lambda s: (s != "Latin", s)))
    punycode = idna.encode(name, uts46=True).decode("ascii")
    return LookAlike(host=name, punycode=punycode, imitates=imitated, scripts=ordered, mixed=mixed)
