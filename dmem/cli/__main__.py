"""``python -m dmem.cli``: the ``dmem`` command."""

import sys

from dmem.cli import main

sys.exit(main())
