"""The repository's own packages a service needs, dependencies first: what its image installs.

A service depends on shared libraries and at times on another service's package (the evaluator probes
documents with the parser's code); none of them is on PyPI, so pip must be given each one's path, or it
looks for them there and the image does not build. Usage (from the repository root):

    python deploy/docker/local_packages.py evaluator
    ./libs/contracts ./libs/catalog ./libs/platform ./libs/llm ./services/parser ./services/evaluator
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"^[A-Za-z0-9_.-]+")


def packages(root: Path = ROOT) -> dict[str, Path]:
    """Every package of the repository by its distribution name ('skuflow-parser'), relative to ``root``."""
    found = {}
    for project in sorted([*root.glob("libs/*/pyproject.toml"), *root.glob("services/*/pyproject.toml")]):
        found[tomllib.loads(project.read_text(encoding="utf-8"))["project"]["name"]] = project.parent.relative_to(root)
    return found


def requires(path: Path, root: Path = ROOT) -> list[str]:
    """The distribution names a package's pyproject declares (versions and extras left out)."""
    declared = tomllib.loads((root / path / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [NAME.match(spec.strip()).group(0) for spec in declared.get("dependencies", [])]


def needed(service: str, root: Path = ROOT) -> list[Path]:
    """The service's package and every package of the repository it needs, each after its own needs."""
    known = packages(root)
    name = f"skuflow-{service}"
    if name not in known or not known[name].parts[0] == "services":
        raise SystemExit(f"no service {service!r}; the services are "
                         + ", ".join(sorted(n.removeprefix("skuflow-") for n, p in known.items()
                                            if p.parts[0] == "services")))
    ordered: list[Path] = []

    def visit(package: str) -> None:
        path = known[package]
        if path in ordered:
            return
        for dependency in requires(path, root):
            if dependency in known:
                visit(dependency)
        ordered.append(path)

    visit(name)
    return ordered


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: local_packages.py SERVICE")
    print(" ".join(f"./{path.as_posix()}" for path in needed(sys.argv[1])))
