"""The installed package is the whole app: every module, template, static file, deck file and
migration ships in the wheel (issue 20), so `pip install .` serves the app from any directory."""

from __future__ import annotations

import fcntl
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Held while a wheel is built: pip builds in the checkout itself, so two pytest-xdist workers
#: building at once would share (and break) its build/ folder.
BUILD_LOCK = ROOT / "build" / ".wheel-test.lock"
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
def build(tmp_path_factory: pytest.TempPathFactory) -> tuple[zipfile.ZipFile, str]:
    """The wheel, and what building it printed (verbose: pip shows the build backend's output)."""
    out = tmp_path_factory.mktemp("wheel")
    BUILD_LOCK.parent.mkdir(exist_ok=True)
    with BUILD_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps"]
            + ["--wheel-dir", str(out), str(ROOT)],
            check=True,
            capture_output=True,
            text=True,
        )
    (built,) = out.glob("*.whl")
    return zipfile.ZipFile(built), done.stdout + done.stderr


@pytest.fixture(scope="module")
def wheel(build: tuple[zipfile.ZipFile, str]) -> zipfile.ZipFile:
    return build[0]


def test_the_build_is_quiet(build: tuple[zipfile.ZipFile, str]) -> None:
    """No setuptools warning: templates/ and static/ are data of trainer.web, named in
    [tool.setuptools.package-data], not packages missing from the list."""
    output = build[1]
    assert "Package would be ignored" not in output
    assert "is absent from the `packages` configuration" not in output


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
