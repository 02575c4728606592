#!/usr/bin/env bash
# Set up and run GeoPlunge Trainer on this machine: a virtual environment in .venv, the
# database (SQLite in instance/ unless DATABASE_URL says otherwise) migrated to the latest
# schema, then the development server on http://127.0.0.1:5000 (PORT to change it).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .

.venv/bin/flask --app app check-data
.venv/bin/flask --app app db upgrade
exec .venv/bin/flask --app app run --host "${HOST:-127.0.0.1}" --port "${PORT:-5000}"
