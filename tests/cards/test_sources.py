"""The shipped data agrees with the independent sources embedded in scripts/crosscheck_data.py."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "crosscheck_data.py"


def test_crosscheck_against_embedded_sources_passes():
    result = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert ", 0 unexpected" in result.stdout
