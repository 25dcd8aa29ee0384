"""The editor's words for every way a fetch can fail, and the retry rules that lead to them.

Each function returns a reason (what happened, to which source, what to do next) or a failed
``Source`` carrying one. Tests check the exact wording of the important ones. This module
never opens connections and never decides anything beyond which reason applies.
"""

from __future__ import annotations

import email.utils

import httpx

from core.fetch import netguard
from core.fetch.clock import SYSTEM, Clock
from core.fetch.shown import mask_password
from core.models import Source, SourceStatus
from core.settings import Settings
from core.store import now_iso

#: Statuses asked again after a wait: rate limits and server trouble that often passes.
RETRIED = (429, 500, 502, 503, 504)


def failure(url: str, status: SourceStatus, reason: str, final_url: str = "", http_status: int | None = None) -> Source:
    """Return a source that could not be read, with its reason (a redirect's password masked in both)."""
    return Source(
        url=url,
        status=status,
        reason=mask_password(reason),
        final_url=mask_password(final_url or url),
        http_status=http_status,
        fetched_at=now_iso(),
    )


def via(chain: list[str], current: str, reason: str) -> str:
    """Return reason, prefixed with the redirect that led there when there was one."""
    if not chain:
        return reason
    return f"The link redirected to {current}, which Verbatim refused to follow. {reason}"


def retry_wait(response: httpx.Response, attempt: int, s: Settings, clock: Clock = SYSTEM) -> float | None:
    """Return the seconds to wait before asking again, or None when the answer is not worth retrying."""
    if response.status_code not in RETRIED:
        return None
    asked = retry_after(response.headers.get("retry-after", ""), clock)
    if asked is None:
        return float(s.retry_backoff * (2**attempt))
    return None if asked > s.max_retry_after else asked


def retry_after(value: str, clock: Clock = SYSTEM) -> float | None:
    """Return the seconds a Retry-After value asks for (seconds or an HTTP date), or None if unreadable."""
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - clock.wall())


def status_failure(
    url: str, final_url: str, response: httpx.Response, attempt: int, s: Settings, clock: Clock = SYSTEM
) -> Source:
    """Return the failed source an HTTP error status gives, after attempt retries."""
    code = response.status_code
    said = f"The server answered {code} {response.reason_phrase}".rstrip()
    tries = f" ({attempt + 1} tries)" if attempt else ""
    asked = retry_after(response.headers.get("retry-after", ""), clock)
    later = " Try again later with --refresh, or supply the page yourself."
    if code in (404, 410):
        what = "the page does not exist" if code == 404 else "the page was removed"
        reason = f"{said}: {what} (possibly an invented source, or it moved). Search the site for the quote."
        return failure(url, SourceStatus.DEAD_LINK, reason, final_url, code)
    if code in (401, 403):
        reason = (
            f"{said}: the page needs a login or sits behind a paywall, or the site refuses automated"
            " readers. Open it in your browser and supply the page yourself."
        )
    elif code == 429:
        if asked is not None and asked > s.max_retry_after:
            reason = f"{said} (rate limited) and asked to wait {asked:.0f} s, longer than Verbatim waits.{later}"
        else:
            reason = f"{said} (rate limited){tries}; Verbatim waited as asked, then gave up.{later}"
    elif code >= 500:
        reason = f"{said}{tries}: the site is failing right now.{later}"
    else:
        reason = f"{said}: Verbatim cannot read the page.{later}"
    return failure(url, SourceStatus.NOT_CHECKED, reason, final_url, code)


def timeout_reason(
    e: httpx.TimeoutException, target: netguard.Target, at: float, s: Settings, clock: Clock = SYSTEM
) -> str:
    """Return why a fetch timed out: the per-source deadline (at, by clock.now()), a connect or a read timeout."""
    if clock.now() >= at - 0.05:
        return (
            f"Fetching {target.url} took longer than the {s.total_deadline:g} s allowed per source (the server"
            " answered too slowly). Try again later or supply the page yourself."
        )
    if isinstance(e, httpx.ConnectTimeout):
        return f"{target.host} did not accept a connection within {s.connect_timeout:g} s. Try again later."
    return f"{target.host} stopped answering for {s.read_timeout:g} s. Try again later or supply the page yourself."


def connect_reason(e: httpx.ConnectError, target: netguard.Target) -> str:
    """Return why a connection failed (certificate trouble named as such)."""
    text = str(e)
    if "CERTIFICATE" in text.upper() or "SSL" in text.upper():
        return (
            f"The secure connection to {target.host} failed ({text}): its certificate may be wrong or expired."
            " Open the link in a browser to see, and supply the page yourself if you trust it."
        )
    return f"Could not connect to {target.host}:{target.port} ({text}): the server is down or refuses connections."


def too_large(cap: int, length: int | None = None) -> str:
    """Return the reason for a body over the cap (its declared length when known)."""
    size = f" ({length / 1e6:.0f} MB)" if length else ""
    return (
        f"The source is larger{size} than the {cap / 1024 / 1024:.0f} MB Verbatim reads (a compressed page counts"
        " by its unpacked size). Supply the relevant part yourself."
    )
