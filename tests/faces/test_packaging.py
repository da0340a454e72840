"""The package installs as people install it (issue 35): ``python -m build``
makes a wheel and an sdist from the sources; the wheel installs into a fresh
virtual environment and works there (the command, the library, the page's
files, the Connect Four book, a compiled engine); ``pip uninstall`` then
leaves nothing in the environment, the compiled kernels having gone to the
user's cache folder, which ``unbeatable cache clear`` empties.

Nothing is downloaded: the build runs without isolation (``build`` and
``setuptools`` come with the ``test`` extra), and the fresh environment sees
the dependencies of the project's own through a ``.pth`` file of links, so
that only the wheel is installed into it (``--no-deps``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import unbeatable

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

#: What the build needs of the sources (a copy: the build writes egg-info and build/).
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "src")
#: Files every distribution must carry for the package to work.
NEEDED = (
    "unbeatable/web/static/index.html",
    "unbeatable/web/static/app.js",
    "unbeatable/solvers/connect4/data/",
    "unbeatable/solvers/mnk/data/codes_freestyle.npy",
    "unbeatable/solvers/mnk/data/codes_standard.npy",
    "unbeatable/solvers/mnk/data/codes_renju.npy",
    "unbeatable/py.typed",
)


def run(*argv: str | Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, f"{argv}: {done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def build(tmp: Path) -> tuple[Path, Path]:
    """The sdist and the wheel, built from a clean copy of the sources."""
    source = tmp / "source"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.nbi", "*.nbc")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    out = tmp / "dist"
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, source)
    (sdist,) = out.glob("unbeatable-*.tar.gz")
    (wheel,) = out.glob("unbeatable-*.whl")
    return sdist, wheel


def fresh_environment(tmp: Path) -> Path:
    """A new virtual environment whose only own package will be the wheel;
    the dependencies are the project environment's, seen through links (not
    the project's own package, its plug-ins or their .pth files)."""
    venv = tmp / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip())
    deps = tmp / "deps"
    deps.mkdir()
    ours = Path(sysconfig.get_path("purelib"))
    for entry in ours.iterdir():
        name = entry.name.lower()
        if name.startswith(("unbeatable", "__editable__", "_unbeatable")) or name.endswith(".pth"):
            continue
        (deps / entry.name).symlink_to(entry)
    (site / "zz_project_dependencies.pth").write_text(f"{deps}\n")
    return venv


def test_the_wheel_and_sdist_build_install_work_and_uninstall_cleanly(tmp_path: Path) -> None:
    sdist, wheel = build(tmp_path)
    version = unbeatable.__version__
    assert sdist.name == f"unbeatable-{version}.tar.gz"
    assert wheel.name == f"unbeatable-{version}-py3-none-any.whl"
    with tarfile.open(sdist) as archive:
        in_sdist = archive.getnames()
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = archive.namelist()
    for needed in NEEDED:
        assert any(needed in name for name in in_sdist), needed
        assert any(name.startswith(needed) for name in in_wheel), needed
    assert any(name.endswith("README.md") for name in in_sdist)
    assert not [name for name in in_wheel if name.endswith((".nbi", ".nbc", ".pyc"))]
    metadata = zipfile.ZipFile(wheel).read(f"unbeatable-{version}.dist-info/METADATA").decode()
    assert f"Version: {version}" in metadata
    # Every extra names what its README example imports (pygame: pettingzoo.classic).
    assert "Provides-Extra: openspiel" in metadata
    assert any("pygame" in line and "pettingzoo" in line for line in metadata.splitlines())

    venv = fresh_environment(tmp_path)
    python, command = venv / "bin" / "python", venv / "bin" / "unbeatable"
    pip = (sys.executable, "-m", "pip", "--python", python)
    run(*pip, "install", "--no-deps", "--no-index", "--quiet", wheel)
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "UNBEATABLE_"))}
    env |= {"UNBEATABLE_CACHE_DIR": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}

    assert run(command, "--version", env=env).strip() == f"unbeatable {version}"
    where = run(python, "-c", "import unbeatable; print(unbeatable.__file__)", env=env)
    assert where.startswith(str(venv)), where
    # The shipped book answers the empty Connect Four board at once.
    said = run(command, "solve", "connect4", "", "--json", env=env)
    assert '"result": "win"' in said and '"plies": 41' in said
    # A compiled engine (numba), its cache in the user's cache folder.
    said = run(command, "solve", "mnk:4,4,3", "", "--json", env=env)
    assert '"result": "win"' in said
    assert list(cache.rglob("*.nbi")), "the compiled kernels are cached in the user's folder"
    # The page's files are served from the installed package.
    page = "from unbeatable.web import create_app; from fastapi.testclient import TestClient\n"
    page += "print(TestClient(create_app()).get('/').status_code)"
    assert run(python, "-c", page, env=env).strip() == "200"

    run(*pip, "uninstall", "--yes", "--quiet", "unbeatable")
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"))
    left = [p.name for p in Path(site.as_posix().strip()).iterdir() if "unbeatable" in p.name]
    assert left == [], left
    assert not (venv / "bin" / "unbeatable").exists()

    # The cache goes with 'unbeatable cache clear' (the project's command, same folder).
    said = run(ROOT / ".venv" / "bin" / "unbeatable", "cache", "clear", env=env)
    assert said.startswith("removed ") and not cache.exists()
