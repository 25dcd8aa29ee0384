"""axe-core's WCAG 2.1 AA rules run in a real page: the engine is the axe.min.js that a pinned package ships.

The script comes from the installed axe-playwright-python package (requirements.txt pins it), read from
disk: nothing is downloaded at test time. ``violations`` returns each failed rule with the elements it
found, in words a failing assertion can show.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

#: WCAG 2.0 and 2.1, levels A and AA: the rules the desk is held to.
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")


@cache
def script() -> str:
    """Return axe-core's script as the pinned package ships it."""
    return files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def violations(page) -> list[str]:
    """Return one line per WCAG 2.1 AA rule the page fails: rule id, impact, and the elements with their summary."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=script())
    found = page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' '))
            }));
        }""",
        list(TAGS),
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']}; "
        + " | ".join(v["nodes"][:5])
        + (f" (+{len(v['nodes']) - 5} more)" if len(v["nodes"]) > 5 else "")
        for v in found
    ]
