"""``python -m twofold``: the same as the ``twofold`` command."""

import sys

from twofold.ui.command.cli import main

sys.exit(main())
