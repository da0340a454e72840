"""Each answer's JSON is stated once (unbeatable.answers): its to_dict() and
the web's response model both follow from that statement."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

import pytest

from unbeatable import api
from unbeatable.answers import HIDDEN, answer, computed, field, flat, json_object, spec
from unbeatable.web import models


class Colour(StrEnum):
    red = "red"


@answer("A leaf.", json_name="TestLeaf")
class Leaf(NamedTuple):
    colour: Colour
    cells: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return json_object(self)


@answer(
    "A knot of every way a field is written.",
    json_name="TestKnot",
    where=flat(row=field(shape=int | None, omit=None), col=field(shape=int)),
    note=field("Left out when None.", omit=None),
    depth=field(when=lambda knot: knot.note is not None),
    raw=HIDDEN,
    size=field(write=lambda size: size * 2, shape=int),
    total=computed(lambda knot: len(knot.leaves), int),
    json_order=("total", "where", "leaves", "note", "depth", "size"),
)
class Knot(NamedTuple):
    where: dict[str, int]
    leaves: tuple[Leaf, ...]
    note: str | None
    depth: int
    raw: object
    size: int

    def to_dict(self) -> dict[str, Any]:
        return json_object(self)


def test_to_dict_writes_each_field_as_stated() -> None:
    leaf = Leaf(Colour.red, ((1, 2),))
    knot = Knot({"col": 3}, (leaf,), None, 4, object(), 5)
    data = knot.to_dict()
    assert data == {
        "total": 1,
        "col": 3,
        "leaves": [{"colour": "red", "cells": [[1, 2]]}],
        "size": 10,
    }
    assert list(data) == ["total", "col", "leaves", "size"]
    assert type(data["leaves"][0]["colour"]) is str  # a StrEnum is written as its text
    noted = knot._replace(where={"row": 0, "col": 1}, note="n").to_dict()
    assert list(noted) == ["total", "row", "col", "leaves", "note", "depth", "size"]


def test_the_model_documents_what_to_dict_writes() -> None:
    model = models.response_model(Knot)
    assert list(model.model_fields) == ["total", "row", "col", "leaves", "note", "depth", "size"]
    required = {name for name, f in model.model_fields.items() if f.is_required()}
    assert required == {"total", "col", "leaves", "size"}  # the rest may be left out
    assert model.model_fields["note"].description == "Left out when None."
    data = Knot({"col": 3}, (Leaf(Colour.red, ()),), "n", 4, None, 5).to_dict()
    assert model.model_validate(data).model_dump(exclude_unset=True) == data


def test_a_statement_must_name_real_fields() -> None:
    with pytest.raises(TypeError, match="no fields"):

        @answer(colour=field("no such field"))
        class Wrong(NamedTuple):
            shade: str

    with pytest.raises(TypeError, match="json_order"):

        @answer(json_order=("a",))
        class Unordered(NamedTuple):
            a: int
            b: int


def test_every_answer_of_the_api_is_stated() -> None:
    for kind in (
        api.Analysis,
        api.MoveValue,
        api.Solution,
        api.Turn,
        api.View,
        api.Status,
        api.Cell,
        api.GameInfo,
        api.Review,
        api.ReviewedMove,
        api.ReviewValue,
        api.TracedTree,
        api.TreeNode,
        api.TraceStep,
        api.Explanation,
        api.Group,
        api.Mark,
        api.Forbidden,
        api.Note,
    ):
        assert spec(kind) is not None, kind


def test_the_threat_and_the_words_are_fields_of_the_analysis() -> None:
    """in_words puts a threat's name and the game's words on the analysis;
    the deprecated annotate() of the JSON gives the same object."""
    game, position = "mnk:5,5,4", "x..../.xo../..o../...../....."
    analysis = api.analyze(game, position)
    words = api.in_words(game, position, analysis)
    assert any(m.threat == "continuous threes" for m in words.moves)
    assert words.explanation is not None and words.best is not None
    assert words.best.notes is not None and words.best.notes[0].does == "stops"
    plain = analysis.to_dict()
    assert "explanation" not in plain and all("threat" not in m for m in plain["moves"])
    explanation = api.explain(game, position, analysis)
    with pytest.warns(DeprecationWarning, match="in_words"):
        annotated = explanation.annotate(analysis.to_dict())
    for entry, move in zip(annotated["moves"], words.moves, strict=True):
        if move.threat is not None:
            entry["threat"] = move.threat  # annotate never wrote threats
    assert words.to_dict() == annotated


def test_a_result_is_a_strenum_written_as_its_text() -> None:
    """api.Result's members equal the strings results were, and every answer
    (a Result, or a Result or None) writes one as plain text."""
    analysis = api.analyze("tictactoe", "xox/oox/...")
    assert analysis.result is api.Result.win and analysis.result == "win"
    data = analysis.to_dict()
    assert {type(value["result"]) for value in (data, *data["moves"])} == {str}
    root = api.tree("tictactoe", "xox/oox/...", depth=1).to_dict()["root"]
    assert [node["result"] for node in (root, *root["children"])] == ["win", "loss", "draw", "win"]
    assert {type(node["result"]) for node in (root, *root["children"])} == {str}
