#!/usr/bin/env python3
"""Start Briscola. ``python main.py --help`` lists the options."""

import multiprocessing
import sys

from briscola.gui.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # computer players think in a worker process
    sys.exit(main())
