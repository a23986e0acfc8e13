"""``python -m viz.cli`` runs the ``kgraph`` command."""

import sys

from viz.cli import main

sys.exit(main())
