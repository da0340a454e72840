"""Plug-in games through Python's entry points (issue 21, point 1).

Each test installs a real distribution into a temporary directory: a
``*.dist-info`` folder with ``entry_points.txt`` beside the plug-in's module,
put on ``sys.path`` (and ``PYTHONPATH`` for the command line), which is what
``pip install`` leaves behind. Unbeatable then finds the games through
``importlib.metadata`` as it would any installed plug-in: nothing here pokes
the registry's insides, only :func:`unbeatable.games.refresh` makes a running
process read the entry points again.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from unbeatable import api, games, solvers
from unbeatable.games import GameError, UnknownGameError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: The plug-in module: the examples' Nim (a named game, ``nim``) and a family
#: of Nim games on given heaps (``heaps:3,4,5``), plus an engine for the family.
MODULE = '''
from nim import Nim, NimPosition
from unbeatable.games.base import InvalidPositionError
from unbeatable.search.negamax import Negamax


class Heaps(Nim):
    def __init__(self, sizes):
        self.sizes = sizes
        self.name = "heaps:" + ",".join(map(str, sizes))

    def initial(self):
        return NimPosition(self.sizes, "a")

    def parse(self, text):
        return self.initial() if not text.strip() else super().parse(text)


def heaps(parameters):
    parts = parameters.split(",")
    if not all(part.isdigit() for part in parts) or sum(map(int, parts)) > 20:
        raise InvalidPositionError(f"heaps:{parameters}: write heaps:SIZE,SIZE,... (20 at most)")
    return Heaps(tuple(map(int, parts)))


class CountingEngine(Negamax):
    """The generic engine, counting the queries it answers."""

    policy = (True, None)
    solved = 0

    def solve(self, *args, **kwargs):
        type(self).solved += 1
        return super().solve(*args, **kwargs)

    def value(self, *args, **kwargs):
        type(self).solved += 1
        return super().value(*args, **kwargs)


def no_game():
    return "not a game"


def raises(*_):
    raise RuntimeError("the plug-in's own bug")
'''


def install(root: Path, entries: str, engines: str = "", name: str = "nim-plugin") -> Path:
    """A distribution ``name`` in ``root`` registering ``entries`` (lines of
    ``name = module:factory``) in ``unbeatable.games`` and ``engines`` in
    ``unbeatable.engines``; returns the directory to put on the path."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "nim_plugin.py").write_text(MODULE)
    (root / "nim.py").write_text((EXAMPLES / "nim.py").read_text())
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    text = "[unbeatable.games]\n" + textwrap.dedent(entries)
    if engines:
        text += "\n[unbeatable.engines]\n" + textwrap.dedent(engines)
    (info / "entry_points.txt").write_text(text)
    return root


@pytest.fixture
def plugged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Nim and the heaps family installed, with an engine for the family."""
    root = install(
        tmp_path / "site",
        """\
        nim = nim:Nim
        heaps:SIZE,SIZE,... = nim_plugin:heaps
        """,
        engines="heaps:SIZES = nim_plugin:CountingEngine\n",
    )
    yield from on_path(root, monkeypatch)


def on_path(root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(root))
    forget()
    yield root
    monkeypatch.undo()
    for module in ("nim", "nim_plugin"):
        sys.modules.pop(module, None)
    forget()


def forget() -> None:
    """Make this process read the entry points again."""
    games.refresh()  # new rules objects: the api makes their engines anew
    solvers.refresh()


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``unbeatable ARGS`` in a fresh process that sees the plug-in in ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [sys.executable, "-m", "unbeatable", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_an_installed_game_is_a_game_everywhere_in_the_library(plugged: Path) -> None:
    assert "nim" in games.game_names()
    assert "nim" in games.offered()
    assert "nim" in games.naming().split(", ")
    assert "heaps:SIZE,SIZE,..." in games.naming().split(", ")
    assert games.plugins().named["nim"].origin == "nim-plugin 1.0"
    # Nim's winner is whoever takes the last object: 3 ^ 4 ^ 5 != 0, so the first player wins.
    assert api.solve("nim", "3 4 5").result == "win"
    assert api.solve("nim", "1 2 3").result == "loss"
    counted = api.perft(api.get_game("nim"), api.get_game("nim").parse("1 1"))
    assert counted.games == 2


def test_a_family_member_is_made_from_its_parameters(plugged: Path) -> None:
    game = api.get_game("heaps:1,2")
    assert game.name == "heaps:1,2"
    assert game.format(game.initial()).replace(" ", "") == "12/a"
    with pytest.raises(GameError, match=r"heaps:x: write heaps:SIZE"):
        api.get_game("heaps:x")
    # A bad member is the user's mistake: the family keeps working.
    assert api.get_game("heaps:2,2").name == "heaps:2,2"


def test_a_plugin_engine_serves_its_games(plugged: Path) -> None:
    module = sys.modules.get("nim_plugin") or __import__("nim_plugin")
    before = module.CountingEngine.solved
    assert api.solve("heaps:1,2", "").result == "win"
    assert module.CountingEngine.solved > before
    assert type(api.engine("heaps:1,2")).__name__ == "CountingEngine"
    assert api.policy("heaps:1,2") == solvers.Policy(exact=True, time_limit=None)
    # Named games with no engine of their own keep the generic one.
    assert type(api.engine("nim")).__name__ == "Negamax"
    # Built-in games never read the plug-ins' engines.
    assert type(api.engine("tictactoe")).__name__ == "Negamax"


def test_the_command_line_plays_an_installed_game(plugged: Path) -> None:
    help_text = cli(plugged, "solve", "--help").stdout
    assert "nim" in help_text and "heaps:SIZE" in help_text
    solved = cli(plugged, "solve", "nim", "3 4 5", "--json")
    assert solved.returncode == 0, solved.stderr
    assert '"result": "win"' in solved.stdout
    analysed = cli(plugged, "analyze", "heaps:1,2", "")
    assert analysed.returncode == 0, analysed.stderr
    assert "win" in analysed.stdout
    counted = cli(plugged, "perft", "nim", "1 1", "--json")
    assert counted.returncode == 0, counted.stderr
    assert '"games": 2' in counted.stdout
    bad = cli(plugged, "solve", "heaps:x", "")
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr.strip().splitlines()[-1].endswith("write heaps:SIZE,SIZE,... (20 at most)")


def test_the_api_serves_an_installed_game(plugged: Path) -> None:
    from unbeatable.web import create_app

    with TestClient(create_app()) as client:
        # Nim draws no board (no describe()): it is not on the page, but the API plays it.
        listed = [game["name"] for game in client.get("/api/games").json()["games"]]
        assert "nim" not in listed and "tictactoe" in listed
        answer = client.post("/api/solve", json={"game": "nim", "position": "1 2 3"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["result"] == "loss"
        member = client.post("/api/analyze", json={"game": "heaps:2,3", "position": ""})
        assert member.status_code == 200, member.text
        schema = client.get("/openapi.json").json()
        text = str(schema)
        assert "'nim'" in text and "heaps" in text
        unknown = client.post("/api/solve", json={"game": "chess", "position": ""})
        assert unknown.status_code == 422
        assert "heaps:SIZE,SIZE,..." in unknown.text


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("broken = no_such_module:game", "no_such_module:game: ModuleNotFoundError"),
        ("broken = nim_plugin:no_such_factory", "cannot be loaded: nim_plugin:no_such_factory"),
        ("broken = nim_plugin:raises", "its factory raised RuntimeError: the plug-in's own bug"),
        ("broken = nim_plugin:no_game", "its factory answered no Game"),
        ("broken = nim:Nim", "its game is named 'nim', not 'broken'"),
    ],
)
def test_a_broken_plugin_is_reported_once_and_the_rest_works(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    entry: str,
    reason: str,
) -> None:
    root = install(tmp_path / "site", f"{entry}\nnim = nim:Nim\n")
    for _ in on_path(root, monkeypatch):
        with caplog.at_level(logging.WARNING, logger="unbeatable.games"):
            for _attempt in range(3):
                with pytest.raises(UnknownGameError, match="broken"):
                    api.get_game("broken")
            offered = games.offered(loadable=True)
        lines = [r.getMessage() for r in caplog.records if "broken" in r.getMessage()]
        assert len(lines) == 1, lines
        assert reason in lines[0] and "\n" not in lines[0]
        assert "(nim-plugin 1.0)" in lines[0]
        assert "broken" not in offered and "nim" not in offered  # nim draws no board
        assert api.solve("nim", "1 2").result == "win"
        assert api.solve("tictactoe", "").result == "draw"
        # The command line says it in one line and goes on with the other games.
        said = cli(root, "solve", "broken", "")
        assert said.returncode == 2
        assert [line for line in said.stderr.splitlines() if line.strip()] == [
            line for line in said.stderr.splitlines() if line.strip() and "broken" in line
        ]
        assert "Traceback" not in said.stderr
        assert cli(root, "solve", "tictactoe", "").returncode == 0


def test_a_broken_plugin_is_left_out_of_every_game_list_and_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A named game whose module is missing, one whose factory raises and a
    family whose module is missing: none is listed anywhere (the library's
    lists, the API's games and schema, the command line's help), and each
    reason is said once in a process however often the lists are made, in
    the words asking for the game by name gives."""
    root = install(
        tmp_path / "site",
        """\
        broken = no_such_module:game
        raising = nim_plugin:raises
        lost:SIZE = no_such_module:family
        nim = nim:Nim
        heaps:SIZE,SIZE,... = nim_plugin:heaps
        """,
    )
    bad = ("broken", "raising", "lost")
    for _ in on_path(root, monkeypatch):
        with caplog.at_level(logging.INFO, logger="unbeatable"):
            for _attempt in range(2):
                lists = {
                    "offered": games.offered(),
                    "loadable": games.offered(loadable=True),
                    "OFFERED": games.OFFERED,
                    "api.OFFERED": api.OFFERED,
                    "game_names": games.game_names(),
                    "GAME_NAMES": games.GAME_NAMES,
                    "naming": tuple(games.naming().split(", ")),
                    "NAMING": tuple(api.NAMING.split(", ")),
                    "families": tuple(games.plugins().families),
                }
                for where, names in lists.items():
                    assert not [n for n in names if n.partition(":")[0] in bad], where
                assert "nim" in lists["offered"] and "heaps:SIZE,SIZE,..." in lists["naming"]
            errors = {}
            for name in ("broken", "raising", "lost:3"):
                with pytest.raises(UnknownGameError) as raised:
                    api.get_game(name)
                errors[name] = str(raised.value)
            from unbeatable.web import create_app

            with TestClient(create_app()) as client:
                listed = [g["name"] for g in client.get("/api/games").json()["games"]]
                schema = str(client.get("/openapi.json").json())
        said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        # (Nim, with no board, is left off the page with a note, not a warning.)
        assert [r.levelno for r in caplog.records if "'nim'" in r.getMessage()] == [logging.INFO]
        # Each reason once, one line, as the error for the name says it word for word.
        assert sorted(said) == sorted(errors.values()), said
        assert all("\n" not in line for line in said)
        assert "ModuleNotFoundError" in errors["broken"] and "'lost:SIZE'" in errors["lost:3"]
        assert "its factory raised RuntimeError" in errors["raising"]
        assert "tictactoe" in listed and not set(bad) & set(listed)
        assert "lost" not in schema and "'broken'" not in schema and "heaps" in schema
        # The command line: not in the help, each reason one line, said once;
        # asking for a broken game by name says its reason once too.
        helped = cli(root, "solve", "--help")
        assert helped.returncode == 0, helped.stderr
        text = " ".join(helped.stdout.split())
        assert "nim" in text and not any(f"{n}," in text or f"{n}:" in text for n in bad)
        assert sorted(helped.stderr.splitlines()) == sorted(f"unbeatable: {e}" for e in said)
        for args in (("solve", "broken", ""), ("solve", "broken", "", "--json")):
            asked = cli(root, *args)
            assert (asked.returncode, asked.stdout) == (2, ""), asked.stderr
            lines = asked.stderr.splitlines()
            assert sum(errors["broken"] in line for line in lines) == 1, lines
            assert "Traceback" not in asked.stderr


def test_a_name_clashing_with_a_built_in_game_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = install(tmp_path / "site", "tictactoe = nim:Nim\nmnk:A,B = nim_plugin:heaps\n")
    for _ in on_path(root, monkeypatch):
        with caplog.at_level(logging.WARNING, logger="unbeatable.games"):
            assert "tictactoe" not in games.plugins().named
            assert "mnk" not in games.plugins().families
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 2
        assert all("clashes with a built-in game" in line for line in lines)
        assert api.get_game("tictactoe").describe().title == "Tic-tac-toe"


def test_two_plugins_with_one_name_keep_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = install(tmp_path / "site", "nim = nim:Nim\n")
    info = root / "other_nim-2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: other-nim\nVersion: 2.0\n")
    (info / "entry_points.txt").write_text("[unbeatable.games]\nnim = nim:Nim\n")
    for _ in on_path(root, monkeypatch):
        with caplog.at_level(logging.WARNING, logger="unbeatable.games"):
            games.plugins()
        assert len(caplog.records) == 1
        assert "clashes with the one from" in caplog.records[0].getMessage()
        assert api.solve("nim", "1").result == "win"


def test_a_broken_engine_leaves_the_generic_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = install(tmp_path / "site", "nim = nim:Nim\n", engines="nim = nim_plugin:raises\n")
    for _ in on_path(root, monkeypatch):
        with caplog.at_level(logging.WARNING, logger="unbeatable.games"):
            assert api.solve("nim", "1 2").result == "win"
            assert api.solve("nim", "2 2").result == "loss"
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 1 and "plug-in engine" in lines[0] and "RuntimeError" in lines[0]
        assert type(api.engine("nim")).__name__ == "Negamax"


def test_built_in_games_read_no_entry_points() -> None:
    """A built-in game's name is answered without importlib.metadata (which
    costs more than the rest of ``import unbeatable``)."""
    code = (
        "import sys, unbeatable; unbeatable.solve('tictactoe', 'x../.../...');"
        "print('importlib.metadata' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
