"""One version (issue 35): the distribution's metadata, ``unbeatable
--version`` and the HTTP API's OpenAPI document all say ``__version__``, and
the CHANGELOG has an entry for it."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

from fastapi.testclient import TestClient

import unbeatable
from conftest import CliRun
from unbeatable.web import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_every_face_says_the_same_semantic_version(run_cli: CliRun) -> None:
    version = unbeatable.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert importlib.metadata.version("unbeatable") == version
    code, out, _ = run_cli("--version")
    assert code == 0 and out.strip() == f"unbeatable {version}"
    assert TestClient(create_app()).get("/openapi.json").json()["info"]["version"] == version
    assert f"## {version}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
