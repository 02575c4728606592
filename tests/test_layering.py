"""The layers hold (ARCHITECTURE.md, issue 20): the core (``trainer/`` outside ``trainer/web/``) is
pure Python and imports nothing of the web, and no web module reaches into another blueprint's
private helpers (names starting with ``_``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRAINER = ROOT / "trainer"
WEB = TRAINER / "web"
#: What the core may not import: the web framework, the database layer and their kin.
WEB_ONLY = (
    "flask",
    "flask_",
    "werkzeug",
    "wtforms",
    "sqlalchemy",
    "alembic",
    "jinja2",
    "trainer.web",
)


@dataclass(frozen=True)
class Import:
    module: str  # the module imported from, resolved to an absolute name
    names: tuple[str, ...]  # the names taken from it ("" for a plain ``import module``)
    line: int


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(path: Path) -> str:
    name = _module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


@cache
def imports(path: Path) -> tuple[Import, ...]:
    return tuple(_imports(path))


def _imports(path: Path) -> Iterator[Import]:
    """Every import in ``path``, relative ones resolved; ``import a.b as c`` counts as ``a.b``."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(alias.name, ("",), node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package(path).split(".")
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            yield Import(base, tuple(a.name for a in node.names), node.lineno)


def _sources(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


CORE = [p for p in _sources(TRAINER) if WEB not in p.parents]


def test_the_core_is_found() -> None:
    assert len(CORE) > 30 and all("web" not in p.relative_to(TRAINER).parts for p in CORE)


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_imports_no_web_module(path: Path) -> None:
    wrong = [
        f"line {i.line}: {i.module}"
        for i in imports(path)
        if i.module == "flask"
        or i.module.startswith(WEB_ONLY)
        or any(f"{i.module}.{name}".startswith("trainer.web") for name in i.names if name)
    ]
    assert wrong == [], f"{path.relative_to(ROOT)} is core code and imports the web layer"


def _blueprint(module: str) -> str | None:
    """``trainer.web.play.games`` -> ``play``; a module of ``trainer.web`` itself belongs to none."""
    parts = module.split(".")
    if parts[:2] != ["trainer", "web"] or len(parts) < 3:
        return None
    return parts[2] if (WEB / parts[2]).is_dir() else None


WEB_MODULES = _sources(WEB)


@pytest.mark.parametrize("path", WEB_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_blueprint_takes_another_ones_private_helpers(path: Path) -> None:
    own = _blueprint(_module_name(path))
    taken_modules: dict[str, str] = {}  # local name -> module of another blueprint
    wrong = []
    tree = ast.parse(path.read_text(), str(path))
    for found in imports(path):
        other = _blueprint(found.module)
        if other is None or other == own:
            continue
        for name in found.names:
            if name.startswith("_"):
                wrong.append(f"line {found.line}: {found.module}.{name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                resolved = [i for i in imports(path) if i.line == node.lineno]
                module = f"{resolved[0].module}.{alias.name}" if resolved else alias.name
                other = _blueprint(module)
                if other is not None and other != own and (WEB / other).is_dir():
                    taken_modules[alias.asname or alias.name] = module
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in taken_modules
            and node.attr.startswith("_")
        ):
            wrong.append(f"line {node.lineno}: {taken_modules[node.value.id]}.{node.attr}")
    assert wrong == [], f"{path.relative_to(ROOT)} uses another blueprint's private helpers"


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    """The check itself can fail: a module of ``study`` taking ``play``'s private helper."""
    fake = WEB / "study" / "_layering_probe.py"
    fake.write_text("from ..play.common import _private\n")
    try:
        with pytest.raises(AssertionError, match="private helpers"):
            test_no_blueprint_takes_another_ones_private_helpers(fake)
    finally:
        fake.unlink()
