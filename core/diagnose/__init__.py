"""Near-miss diagnosis: why a quote failed, in the page's own words. It explains; it never decides.

``words`` and ``page_index`` read a quote and a prepared page with the matcher's own tokens and
breaks (``core.text``), ``search`` finds the page's closest passage fast, ``diff`` names each
difference, ``candidates`` offers passages for a claim without a quote and says where a missing
figure stands, and ``nearmiss`` puts them together.
"""

from __future__ import annotations

from core.diagnose.nearmiss import candidates, diagnose, figures_near_miss, locate_figure, misattributed

__all__ = ["candidates", "diagnose", "figures_near_miss", "locate_figure", "misattributed"]
