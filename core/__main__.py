"""``python -m core``: the command line of DESIGN.md."""

import sys

from core.cli import main

sys.exit(main())
