#!/usr/bin/env bash
# Set up a virtual environment (.venv) if needed and start the game.
# Usage: tools/play.sh [game options, see --help]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet -r requirements.txt
exec .venv/bin/python main.py "$@"
