"""``python -m core``: the command line of DESIGN.md; all of it lives in core/cli.py."""

import sys

from core.cli import main

sys.exit(main())
