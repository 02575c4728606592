# Shared by run.sh and test.sh: a virtual environment in .venv with the project installed.
# Usage: . scripts/_setup.sh [extras], from the repository's root.
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".${1:+[$1]}"
