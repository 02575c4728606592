#!/usr/bin/env bash
# Set up and run the whole test suite: a virtual environment in .venv with the test extras,
# Debian's Chromium for the browser tests (installed with apt-get when missing), then pytest.
# PostgreSQL tests run too when TEST_DATABASE_URL is set, e.g.
#   TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test scripts/test.sh
# Extra arguments go to pytest (scripts/test.sh tests/cards -q). The suite runs on every core
# (pytest-xdist); PYTEST_WORKERS=0 runs it in one process, PYTEST_WORKERS=4 on four workers.
# Work stealing: a worker that runs out of tests takes some of another's, so one long test (the
# fuzz test, a whole tournament in the browser) near the end of a worker's share does not leave
# the other core idle.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/_setup.sh test

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Installing Debian's Chromium for the browser tests..."
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

workers="${PYTEST_WORKERS:-auto}"
if [ "$workers" = "0" ]; then
  exec .venv/bin/python -m pytest -n 0 "$@"
fi
exec .venv/bin/python -m pytest -n "$workers" --dist worksteal "$@"
