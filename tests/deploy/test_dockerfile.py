"""Static checks of the image recipe (deploy/docker/Dockerfile). No Docker engine needed.

The repository's packages are not on PyPI, so an image builds only if pip is given the path of every
one its service needs: the evaluator needs the parser's package and the LLM adapter, four services the
adapter. ``local_packages.py`` lists them from the pyprojects; these tests check that the list is closed
(every package's own repository dependencies are in it, before it) and that the code imports nothing
from the repository outside it, which would fail at the service's start, not at the build.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO_ROOT / "deploy" / "docker" / "Dockerfile"
SERVICES = ("gateway", "evaluator", "parser", "classifier", "extractor", "binder", "collab", "output")


def _local_packages():
    spec = importlib.util.spec_from_file_location("local_packages",
                                                  REPO_ROOT / "deploy" / "docker" / "local_packages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


local_packages = _local_packages()
KNOWN = local_packages.packages(REPO_ROOT)
BY_PATH = {path: name for name, path in KNOWN.items()}


def _module_level_imports(package: Path) -> set[str]:
    """The repository's modules a package imports at module level (an import inside a function is
    asked for only where its caller has the package: collab's few-shot examples for the LLM adapter)."""
    found = set()
    for source in (REPO_ROOT / package / "src").rglob("*.py"):
        for node in ast.parse(source.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return {module for module in found if module.startswith("skuflow_")}


@pytest.mark.parametrize("service", SERVICES)
def test_an_image_installs_every_repository_package_its_service_needs_dependencies_first(service):
    needed = local_packages.needed(service, REPO_ROOT)
    assert needed[-1] == Path("services") / service
    for position, path in enumerate(needed):
        for dependency in local_packages.requires(path, REPO_ROOT):
            if dependency in KNOWN:
                assert KNOWN[dependency] in needed[:position], f"{path} needs {dependency} installed before it"


@pytest.mark.parametrize("service", SERVICES)
def test_a_service_imports_nothing_of_the_repository_its_image_does_not_install(service):
    needed = local_packages.needed(service, REPO_ROOT)
    installed = {BY_PATH[path].replace("-", "_") for path in needed}
    for path in needed:
        missing = _module_level_imports(path) - installed
        assert not missing, f"{path} imports {sorted(missing)}, which the {service} image does not install"


def test_the_evaluator_image_gets_the_parsers_package_and_the_llm_adapter():
    """The case that did not build: both were missing from the image, and neither is on PyPI."""
    needed = local_packages.needed("evaluator", REPO_ROOT)
    assert {Path("services/parser"), Path("libs/llm")} <= set(needed)


def test_an_unknown_service_is_refused_with_the_services_named():
    with pytest.raises(SystemExit, match="no service 'nope'; the services are binder, classifier"):
        local_packages.needed("nope", REPO_ROOT)


def test_the_image_installs_its_service_from_the_list_at_the_pinned_versions():
    recipe = DOCKERFILE.read_text(encoding="utf-8")
    assert 'pip install -c constraints.txt $(python deploy/docker/local_packages.py "$SERVICE")' in recipe
    assert "COPY constraints.txt ./" in recipe and "COPY services/ services/" in recipe
    assert "COPY deploy/docker/local_packages.py deploy/docker/" in recipe


def test_the_image_has_the_openmp_runtime_lightgbm_loads():
    """lightgbm's library links libgomp.so.1, which python:3.11-slim lacks: the classifier and extractor
    would stop at import."""
    recipe = DOCKERFILE.read_text(encoding="utf-8")
    assert "apt-get install" in recipe and " libgomp1 " in recipe
    assert recipe.index(" libgomp1 ") < recipe.index("ARG SERVICE")  # in the layer every image shares


def test_the_collab_image_builds_its_own_workbench_not_the_checkouts():
    """A workbench built by `make setup` in the checkout must not reach the image (the recipe's own build
    would then land inside it, and the image serve the checkout's)."""
    ignored = (REPO_ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert "services/collab/src/skuflow_collab/static" in ignored and "**/node_modules" in ignored
