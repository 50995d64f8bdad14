#!/bin/sh
# The Flatpak's command: the game from its source tree, with the runtime's Python.
exec python3 /app/share/briscola/main.py "$@"
