"""Where numba keeps the compiled kernels: the user's cache folder, never the package's.

numba's ``cache=True`` writes each compiled function beside its source by
default, that is inside the installed package, where ``pip uninstall``
leaves it behind (and where a read-only install cannot write at all). The
package therefore points numba at a folder of the user's cache instead, once,
here: :func:`use` sets ``NUMBA_CACHE_DIR`` before anything of the package
imports numba (``unbeatable/__init__.py`` calls it), unless the user has set
that variable. The folder is the platform's usual place (what platformdirs
calls the user cache directory), computed here without importing anything:

- Linux and other Unix: ``$XDG_CACHE_HOME/unbeatable``, else ``~/.cache/unbeatable``;
- macOS: ``~/Library/Caches/unbeatable``;
- Windows: ``%LOCALAPPDATA%\\unbeatable\\Cache``;

or ``$UNBEATABLE_CACHE_DIR`` when set. ``unbeatable cache clear``
(:func:`clear`) removes it; the next search compiles again (``unbeatable
warm`` does it ahead).
"""

from __future__ import annotations

import os
import sys

#: ``typing`` costs milliseconds to import: only type checkers read this.
TYPE_CHECKING = False
if TYPE_CHECKING:  # pathlib and shutil load late: ``import unbeatable`` calls use()
    from pathlib import Path

#: An environment variable naming the cache folder, instead of the platform's.
ENV = "UNBEATABLE_CACHE_DIR"
#: numba's own variable, which :func:`use` sets unless the user has.
NUMBA_ENV = "NUMBA_CACHE_DIR"
#: numba's cache files: an index and the compiled code of each function.
SUFFIXES = (".nbi", ".nbc")


def _folder() -> str:
    """:func:`cache_dir` as text, with os.path alone."""
    own = os.environ.get(ENV)
    if own:
        return os.path.expanduser(own)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, "unbeatable", "Cache")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/unbeatable")
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return os.path.join(xdg if os.path.isabs(xdg) else os.path.expanduser("~/.cache"), "unbeatable")


def cache_dir() -> Path:
    """The package's folder in the user's cache (see the module's docstring);
    it need not exist yet."""
    from pathlib import Path

    return Path(_folder())


def numba_dir() -> Path:
    """Where numba keeps the package's compiled kernels: ``numba`` in :func:`cache_dir`."""
    return cache_dir() / "numba"


def use() -> None:
    """Point numba's cache at :func:`numba_dir`, unless ``NUMBA_CACHE_DIR``
    is set already (the user's choice, or a parent process's: children
    inherit it). If numba was imported before this package, its
    configuration is set too (it reads the variable once, at import)."""
    if os.environ.get(NUMBA_ENV):
        return
    folder = os.path.join(_folder(), "numba")
    os.environ[NUMBA_ENV] = folder
    numba = sys.modules.get("numba")
    config = getattr(numba, "config", None)
    if config is not None:
        config.CACHE_DIR = folder


def _package_files() -> list[Path]:
    """numba cache files beside the package's own modules: what versions
    before 0.2 left there (``__pycache__`` folders of the package)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent
    return [
        path
        for folder in root.rglob("__pycache__")
        for path in folder.iterdir()
        if path.suffix in SUFFIXES
    ]


def size() -> tuple[int, int]:
    """(files, bytes) of compiled kernels: in :func:`numba_dir` and left
    beside the package."""
    files = [path for path in numba_dir().rglob("*") if path.is_file()]
    files += _package_files()
    return len(files), sum(path.stat().st_size for path in files)


def clear() -> tuple[int, int]:
    """Remove :func:`numba_dir` (and :func:`cache_dir` if that leaves it
    empty) and any numba cache file beside the package; (files, bytes)
    removed. Nothing else is touched, whatever ``$UNBEATABLE_CACHE_DIR``
    names. A search compiles its kernels again afterwards."""
    import contextlib
    import shutil

    files, total = size()
    folder = numba_dir()
    if folder.exists():
        shutil.rmtree(folder)
    with contextlib.suppress(OSError):
        cache_dir().rmdir()  # only if empty
    for path in _package_files():
        path.unlink(missing_ok=True)
    return files, total


__all__ = ["ENV", "NUMBA_ENV", "cache_dir", "clear", "numba_dir", "size", "use"]
