"""Nim on the Game protocol: how to plug your own game into Unbeatable.

Rules (normal play): heaps of objects; a move takes one or more objects from
one heap; whoever takes the last object wins. Positions are written as heap
sizes separated by spaces, optionally followed by ``/`` and the player to move
(``a`` moves first): ``"3 4 5"`` or ``"3 4 5 /b"``. A move ``2:3`` takes 3
objects from heap 2 (heaps counted from 1).

Nothing here knows about search: the engines only call the protocol's methods.
Run it::

    python examples/nim.py "3 4 5"

Theory says the side to move loses exactly when the XOR of the heaps is 0;
``tests/unit/test_nim_example.py`` checks the engine against that.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from unbeatable.games.base import Game, IllegalMoveError, InvalidPositionError


@dataclass(frozen=True, slots=True)
class NimPosition:
    heaps: tuple[int, ...]
    to_move: str


Move = tuple[int, int]  # (heap index, objects taken)


class Nim(Game[NimPosition, Move]):
    """Normal-play Nim for players ``a`` and ``b``."""

    name = "nim"
    players = ("a", "b")
    #: Must exceed the longest game: at most one move per object, and we cap objects.
    win_score = 100
    MAX_OBJECTS = 60

    def initial(self) -> NimPosition:
        return NimPosition((3, 4, 5), "a")

    def parse(self, text: str) -> NimPosition:
        body, _, side = text.partition("/")
        side = side.strip() or "a"
        if side not in self.players:
            raise InvalidPositionError(f"unknown player {side!r} (use a or b)")
        try:
            heaps = tuple(int(h) for h in body.split())
        except ValueError:
            raise InvalidPositionError(f"heaps must be whole numbers: {body!r}") from None
        if not heaps or any(h < 0 for h in heaps):
            raise InvalidPositionError("give one or more heap sizes, none negative")
        if sum(heaps) > self.MAX_OBJECTS:
            raise InvalidPositionError(f"at most {self.MAX_OBJECTS} objects in all")
        return NimPosition(heaps, side)

    def format(self, position: NimPosition) -> str:
        return " ".join(map(str, position.heaps)) + f" /{position.to_move}"

    def to_move(self, position: NimPosition) -> str:
        return position.to_move

    def moves(self, position: NimPosition) -> list[Move]:
        return [(i, n) for i, h in enumerate(position.heaps) for n in range(1, h + 1)]

    def play(self, position: NimPosition, move: Move) -> NimPosition:
        heap, taken = move
        heaps = list(position.heaps)
        heaps[heap] -= taken
        nxt = "b" if position.to_move == "a" else "a"
        return NimPosition(tuple(heaps), nxt)

    def winner(self, position: NimPosition) -> str | None:
        # The player who took the last object is the one *not* to move now.
        if any(position.heaps):
            return None
        return "b" if position.to_move == "a" else "a"

    def is_terminal(self, position: NimPosition) -> bool:
        return not any(position.heaps)

    def key(self, position: NimPosition) -> tuple[int, ...]:
        # Nim is impartial: whose turn it is does not change the value for the
        # side to move, so positions that differ only in that share an entry.
        return position.heaps

    def parse_move(self, position: NimPosition, text: str) -> Move:
        heap_text, _, taken_text = text.partition(":")
        try:
            heap, taken = int(heap_text) - 1, int(taken_text)
        except ValueError:
            raise IllegalMoveError(f"bad move {text!r}: write HEAP:COUNT, e.g. 2:3") from None
        if not 0 <= heap < len(position.heaps) or not 1 <= taken <= position.heaps[heap]:
            raise IllegalMoveError(f"cannot take {taken_text} from heap {heap_text}")
        return (heap, taken)

    def format_move(self, move: Move) -> str:
        return f"{move[0] + 1}:{move[1]}"

    def move_fields(self, move: Move) -> dict[str, int]:
        return {"heap": move[0] + 1, "take": move[1]}


def main(argv: list[str]) -> None:
    import unbeatable

    game = Nim()
    position = game.parse(argv[0] if argv else "3 4 5")
    analysis = unbeatable.analyze(game, position)
    print(f"{game.format(position)}: {analysis.result}", end="")
    print(f", best move {analysis.best.move}" if analysis.best else "")


if __name__ == "__main__":
    main(sys.argv[1:])
