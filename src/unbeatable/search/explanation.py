"""What an analysis in the game's words holds: the answer types.

:func:`unbeatable.api.explain` fills them (k in a row, k of 4 or more: what
each move does, the position in one sentence, the moves in lines of equal
value, the threats on the board); an analysis' moves carry their
notes (:class:`Note`) and the analysis its :class:`Explanation` when a face
asks for the words (:func:`unbeatable.api.in_words`). The types live
here, beside the analysis they annotate, so that a move's value can name
them; the words themselves are the api's.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, NamedTuple

from unbeatable.answers import HIDDEN, answer, field, json_object
from unbeatable.search.engine import Result


class MarkKind(StrEnum):
    """The shapes marked on a board, named as in Gomoku."""

    four = "four"
    open_four = "open four"
    open_three = "open three"


class Does(StrEnum):
    """What a move does to a shape: ``wins`` (a five), ``makes`` (a threat),
    ``blocks`` (the other side's four), ``stops`` (its open three), ``takes``
    (the point of its double four or four-three)."""

    wins = "wins"
    makes = "makes"
    blocks = "blocks"
    stops = "stops"
    takes = "takes"


@answer(
    "A threat on the board: a four, an open four or an open three.",
    kind=field("Named as in Gomoku."),
    shape=field("In this game's words ('three' where four in a row wins)."),
    stones=field("The side's stones that make it."),
    points=field("Where it becomes a five (a four) or an open four (an open three)."),
    words=field(examples=["x's four (g8\N{EN DASH}j11)"]),
)
class Mark(NamedTuple):
    """A threat on the board, to mark when hints are on."""

    side: str
    kind: MarkKind
    shape: str
    stones: tuple[str, ...]
    points: tuple[str, ...]
    #: ``x's four (g8-j11)``.
    words: str

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


@answer(
    "A point black may not play in renju, and why.",
    reason=field(
        "As the rules say it: double three, double four, overline.", examples=["double three"]
    ),
    words=field(examples=["forbidden for black: double three"]),
)
class Forbidden(NamedTuple):
    """A point black may not play (renju), and why."""

    move: str
    row: int
    col: int
    reason: str
    words: str

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


@answer(
    "One thing a move does in the game's terms (k in a row, k >= 4).",
    does=field(
        "wins (a five), makes (a threat), blocks (the other side's four), stops "
        "(its open three), takes (the point of its double four or four-three)."
    ),
    kind=field(
        "What it makes or stops, named as in Gomoku: five, open four, double four, "
        "four-three, four, double three, open three.",
        examples=["four"],
    ),
    side=field("Whose shape it is: the mover's, or the other side's."),
    stones=field("The shape's stones (the move's own included)."),
    words=field(examples=["blocks x's four (g8\N{EN DASH}j11)"]),
)
class Note(NamedTuple):
    """One thing a move does in the game's terms."""

    does: Does
    kind: str
    side: str
    stones: tuple[str, ...]
    words: str

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


@answer(
    "Moves of equal value whose best play goes the same way, in one line.",
    moves=field("The moves, the one to read first first."),
    words=field(
        examples=[
            "f8, g7, f9, k8 and 193 others (loss in 2): x answers k12 and wins: "
            "five in a row (g8\N{EN DASH}k12)."
        ]
    ),
)
class Group(NamedTuple):
    """Moves of equal value whose best play goes the same way, in one line."""

    #: The analysis' best, or the move played, stands alone.
    moves: tuple[str, ...]
    result: Result
    plies: int | None
    words: str

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


@answer(
    "The analysis in the game's words (k in a row, k >= 4: Gomoku).",
    summary=field(
        "The position in one sentence: the only move, every move losing, equally good "
        "moves; null when nothing is proven to say.",
        examples=["k12 is the only move: every other loses to x's four (g8\N{EN DASH}j11)."],
    ),
    groups=field("Every move, in lines of equal value, best first."),
    more=field(
        "The moves past the lines said, counted by value ('40 more moves: 30 win in 9, "
        "10 loss in 2'); null when every move is said."
    ),
    threats=field("Fours and open threes of both sides."),
    forbidden=field("Black's forbidden points (renju; empty otherwise), whoever is to move."),
    notes=HIDDEN,  # written on the analysis' moves
)
class Explanation(NamedTuple):
    """An analysis in the game's words (:func:`unbeatable.api.explain`)."""

    summary: str | None
    groups: tuple[Group, ...]
    more: str | None
    threats: tuple[Mark, ...]
    forbidden: tuple[Forbidden, ...]
    #: What each move does, by move.
    notes: dict[str, tuple[Note, ...]]

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)

    def does(self, move: str) -> str | None:
        """What ``move`` does, in one phrase: ``blocks x's four (g8-j11)
        and makes an open three (h9-j9)``; None when nothing is said."""
        notes = self.notes.get(move, ())
        return joined([note.words for note in notes]) if notes else None

    def annotate(self, data: dict[str, Any]) -> dict[str, Any]:
        """Deprecated (use :func:`unbeatable.api.in_words`, which puts the
        explanation and each move's notes on the analysis itself): an
        analysis' JSON (``data``) with the explanation written in, ``notes``
        on each move and the rest as ``explanation``."""
        warnings.warn(
            "Explanation.annotate is deprecated: api.in_words(game, position, analysis)"
            ".to_dict() is the analysis' JSON with its explanation",
            DeprecationWarning,
            stacklevel=2,
        )
        if not self.notes:
            return data
        for entry in data["moves"]:
            entry["notes"] = [note.to_dict() for note in self.notes.get(entry["move"], ())]
        data["explanation"] = self.to_dict()
        return data


def joined(phrases: Sequence[str]) -> str:
    """``blocks x's four (g8-j11) and makes an open three (h9-j9)``."""
    if len(phrases) <= 1:
        return "".join(phrases)
    return f"{', '.join(phrases[:-1])} and {phrases[-1]}"


__all__ = ["Does", "Explanation", "Forbidden", "Group", "Mark", "MarkKind", "Note", "joined"]
