#!/usr/bin/env bash
# Set up and run GeoPlunge Trainer on this machine: a virtual environment in .venv, the
# database (SQLite in instance/ unless DATABASE_URL says otherwise) migrated to the latest
# schema, then the development server on http://127.0.0.1:5000 (PORT to change it).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/_setup.sh ""

.venv/bin/flask --app app check-data
.venv/bin/flask --app app db upgrade
exec .venv/bin/flask --app app run --host "${HOST:-127.0.0.1}" --port "${PORT:-5000}"
