"""Deprecated: the game's words moved to :mod:`unbeatable.api.explanations`
(and :func:`unbeatable.api.explain` answers them); the names here stay for
code that imported them."""

from __future__ import annotations

import warnings
from typing import Any

from unbeatable.api import explanations as _explanations


def __getattr__(name: str) -> Any:
    if name == "explain":  # the old signature: (game, position, analysis, chosen=None)
        value: Any = _explanations.explained
    elif hasattr(_explanations, name) and not name.startswith("__"):
        value = getattr(_explanations, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"unbeatable.explain.{name} moved: use unbeatable.api.explanations "
        "(or unbeatable.api.explain)",
        DeprecationWarning,
        stacklevel=2,
    )
    return value
