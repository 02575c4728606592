"""The installed package is the whole app: every module, template, static file, deck file and
migration ships in the wheel (issue 20), so `pip install .` serves the app from any directory."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _source_packages() -> set[str]:
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "trainer").rglob("__init__.py")
    }
    return found | set(SETUPTOOLS["package-dir"])


def test_every_package_is_listed() -> None:
    listed = set(SETUPTOOLS["packages"])
    assert _source_packages() - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - _source_packages() == set(), "these packages in pyproject.toml do not exist"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
        + ["--wheel-dir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("*.whl")
    return zipfile.ZipFile(built)


def _tracked(folder: str) -> list[Path]:
    return [
        path
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]


@pytest.mark.parametrize(
    ("source", "installed"),
    [
        ("trainer", "trainer"),
        ("data", "trainer/data"),
        ("migrations", "trainer/migrations"),
    ],
)
def test_the_wheel_holds_every_file(wheel: zipfile.ZipFile, source: str, installed: str) -> None:
    names = set(wheel.namelist())
    missing = [
        str(path.relative_to(ROOT))
        for path in _tracked(source)
        if f"{installed}/{path.relative_to(ROOT / source).as_posix()}" not in names
        and path.suffix != ".pyc"
    ]
    assert missing == []


def test_the_wheel_holds_no_tests_or_instance(wheel: zipfile.ZipFile) -> None:
    assert not [n for n in wheel.namelist() if n.startswith(("tests/", "instance/", "bench/"))]
