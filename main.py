#!/usr/bin/env python3
"""Start Briscola. ``python main.py --help`` lists the options."""

import sys

from briscola.gui.cli import main

if __name__ == "__main__":
    sys.exit(main())
