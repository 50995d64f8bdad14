"""``python -m briscola.arena``."""

from briscola.arena.cli import main

raise SystemExit(main())
