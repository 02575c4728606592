# Shared by run.sh and test.sh: a virtual environment in .venv with the project installed.
# Usage: . scripts/_setup.sh [extras], from the repository's root.
# The install is skipped when nothing it depends on changed since the last one (pyproject.toml,
# the extras asked for, the Python): the project is installed editable, so a change to its code
# needs no install, and a second start takes a second instead of a minute (issue 25).
# GEOPLUNGE_REINSTALL=1 installs again anyway.
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
_setup_stamp=".venv/.geoplunge-setup${1:+-$1}"
_setup_want="$(.venv/bin/python --version 2>&1) $(cksum < pyproject.toml)"
if [ "${GEOPLUNGE_REINSTALL:-0}" = "1" ] || [ ! -f "$_setup_stamp" ] \
  || [ "$(cat "$_setup_stamp")" != "$_setup_want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".${1:+[$1]}"
  printf '%s' "$_setup_want" > "$_setup_stamp"
fi
unset _setup_stamp _setup_want
