#!/usr/bin/env bash
# Set up a virtual environment (.venv) if needed and start the game. The requirements are
# installed the first time and again only when requirements.txt changes.
# Usage: tools/play.sh [game options, see --help]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.requirements-installed
wanted=$(sha256sum requirements.txt | cut -d' ' -f1)
if [[ ! -f $stamp || $(cat "$stamp") != "$wanted" ]]; then
  .venv/bin/python -m pip install --quiet -r requirements.txt
  echo "$wanted" >"$stamp"
fi
exec .venv/bin/python main.py "$@"
