#!/usr/bin/env bash
# Set up a virtual environment (.venv) if needed and run every check: ruff, mypy, pytest.
# Usage: tools/run_tests.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  "$PYTHON" -m venv .venv
fi
# Install again only when the requirements change.
stamp=.venv/.requirements-dev-installed
wanted=$(cat requirements.txt requirements-server.txt requirements-dev.txt | sha256sum | cut -d' ' -f1)
if [[ ! -f $stamp || $(cat "$stamp") != "$wanted" ]]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements-dev.txt
  echo "$wanted" >"$stamp"
fi
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy --strict"
.venv/bin/mypy
echo "== import-linter (the layers of the package)"
.venv/bin/lint-imports --no-cache
echo "== pytest"
export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
.venv/bin/python -m pytest "$@"
