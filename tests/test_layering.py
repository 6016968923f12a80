"""Layering: the sans-I/O core imports no I/O library, at any depth of its own imports.

Categories: each pure module's imports (AST), followed through the package's own modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "robotsclient"
PURE = [
    "_exceptions", "_clock", "_origin", "_parser", "_rules", "_matcher", "_lint", "_paths",
    "_outcome", "_policy", "_robots", "_events", "_storages/_base", "_storages/_packing",
]  # fmt: skip
IO_LIBRARIES = {"asyncio", "httpx", "aiofiles", "redis", "socket", "click", "scrapy"}


def imports_of(module: str) -> tuple[set[str], set[str]]:
    """Return (top-level names of outside imports, package modules imported) of one module."""
    path = PACKAGE / f"{module}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    outside: set[str] = set()
    inside: set[str] = set()
    base = module.split("/")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            outside.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                outside.add((node.module or "").split(".")[0])
                continue
            parts = base[: len(base) - (node.level - 1)] + (node.module or "").split(".")
            inside.add("/".join(part for part in parts if part))
    return outside, inside


@pytest.mark.parametrize("module", PURE)
def test_pure_module_imports_no_io(module: str) -> None:
    """STYLE: parser, rules, matcher, outcome, policy and packing stay free of I/O libraries."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        current = todo.pop()
        if current in seen or not (PACKAGE / f"{current}.py").exists():
            continue
        seen.add(current)
        outside, inside = imports_of(current)
        assert not outside & IO_LIBRARIES, (current, outside & IO_LIBRARIES)
        todo.extend(inside)
