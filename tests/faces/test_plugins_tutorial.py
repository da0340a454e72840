"""docs/PLUGINS.md's tutorial, built from the text: its code blocks are
written into a package in a temporary folder (the Python blocks, one after
another, are the module; the TOML block names the distribution, the module
and the entry point), installed as ``pip install`` leaves a distribution
(a ``*.dist-info`` folder beside the module, on ``sys.path``), then the game
is found by name, solved, checked against a brute force and against what
the page claims, and played to its end through the library. If the text's
code stops working, this fails."""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from test_plugins import forget
from unbeatable import api, games
from unbeatable.games import IllegalMoveError, InvalidPositionError

DOC = Path(__file__).resolve().parents[2] / "docs" / "PLUGINS.md"
SECTION = "## A game from scratch: Toads and Frogs"


class Tutorial(NamedTuple):
    module: str  #: the Python blocks, in order
    project: dict[str, Any]  #: the pyproject.toml block
    shell: str  #: the commands that try it, with what they print as comments


def tutorial() -> Tutorial:
    text = DOC.read_text()
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    blocks = re.findall(r"^```(\w+)\n(.*?)^```$", text[start:end], re.DOTALL | re.MULTILINE)
    languages = [language for language, _ in blocks]
    assert languages.count("toml") == 1 and languages.count("sh") == 1, languages
    python = "".join(body for language, body in blocks if language == "python")
    (toml,) = [body for language, body in blocks if language == "toml"]
    (shell,) = [body for language, body in blocks if language == "sh"]
    return Tutorial(python, tomllib.loads(toml), shell)


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Tutorial]:
    """The tutorial's distribution, installed into a folder on the path."""
    told = tutorial()
    project = told.project["project"]
    (module,) = told.project["tool"]["setuptools"]["py-modules"]
    (tmp_path / f"{module}.py").write_text(told.module)
    info = tmp_path / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    info.joinpath("METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    entries = "".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in names.items())
        for group, names in project["entry-points"].items()
    )
    info.joinpath("entry_points.txt").write_text(entries)
    monkeypatch.syspath_prepend(str(tmp_path))
    forget()
    yield told
    monkeypatch.undo()
    sys.modules.pop(module, None)
    forget()


def brute_force(game: Any, position: Any) -> tuple[str, int]:
    """(result, plies) for the side to move by plain minimax over the whole
    tree: the fastest win, else a draw, else the slowest loss."""
    if game.is_terminal(position):
        return ("draw" if game.winner(position) is None else "loss"), 0
    seen = [brute_force(game, game.play(position, move)) for move in game.moves(position)]
    wins = [plies + 1 for result, plies in seen if result == "loss"]
    if wins:
        return "win", min(wins)
    draws = [plies + 1 for result, plies in seen if result == "draw"]
    if draws:
        return "draw", min(draws)
    return "loss", max(plies + 1 for _, plies in seen)


def test_the_tutorial_game_builds_from_the_text_and_plays(installed: Tutorial) -> None:
    # Registered: the entry point's name is a game, listed where games are.
    (name,) = installed.project["project"]["entry-points"]["unbeatable.games"]
    game = api.get_game(name)
    assert name in games.game_names() and name in games.offered(loadable=True)
    start = game.initial()
    assert game.parse("") == start and game.parse(game.format(start)) == start
    # Solved, as a brute force over the whole tree finds it, from every reachable position.
    frontier, seen = [start], {start}
    while frontier:
        position = frontier.pop()
        solved = api.solve(game, position)
        assert (solved.result, solved.plies) == brute_force(game, position), position
        for move in game.moves(position):
            after = game.play(position, move)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    assert len(seen) > 10  # the whole game, every position checked
    # What the page says `unbeatable solve` prints, it prints.
    claimed = re.search(
        r"solve \w+ \"\"\s+# '([^']*)': (\w+) to move, (.+)$", installed.shell, re.M
    )
    assert claimed is not None, installed.shell
    solved = api.solve(game, "")
    assert claimed.groups() == (
        game.format(start),
        game.to_move(start),
        api.value_words(solved.result, solved.plies),
    )
    # A whole game between two perfect players: the winner is the one solve named.
    position, plies = start, 0
    while not api.status(game, position).over:
        best = api.best_move(game, position)
        assert best is not None
        position = api.play_move(game, position, best.move)
        plies += 1
    winner = game.players[0] if solved.result == "win" else game.players[1]
    assert api.status(game, position).winner == winner and plies == solved.plies
    # The board every face draws: one row, moves from cell to cell.
    view = api.view(game, "")
    assert view.moves and all(cell.origin is not None for cell in view.moves)
    description = game.describe()
    assert [len(row) for row in game.grid(start).split("/")] == [description.columns]
    # Bad input says why.
    with pytest.raises(InvalidPositionError, match="then who moves"):
        api.solve(game, "ttt")
    with pytest.raises(IllegalMoveError, match="is not a move here"):
        api.play_move(game, "", "a1b1")
