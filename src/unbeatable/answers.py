"""How an answer is written as JSON and documented: stated once, beside its fields.

Every answer of the library (an analysis, a move's value, a position's view,
a review, a traced tree, a game's description) is a ``NamedTuple`` whose
fields are its data. The :func:`answer` decorator on the class says, field by
field, how it is written as JSON and what it means (:class:`Json`): as it is
(the default), left out when it holds nothing (``omit``), in place in the
object that holds it (``flat``), not at all (:data:`HIDDEN`: Python's own, a
rules object's move), through a function (``write``, with the ``shape`` the
JSON then has), or computed from the others (:func:`computed`). From that one
statement come the class's ``to_dict()`` (the JSON the command line prints
and the server sends: its body says ``return json_object(self)``, and the
decorator puts the same writing, written out as code, in its place) and the
web's response models (:mod:`unbeatable.web.models`: the OpenAPI document),
so that the documented JSON is the JSON sent, with no copy to keep in step.

Written as it is means: text, numbers, booleans and None unchanged (a
``StrEnum`` is its text), another answer by its own ``to_dict()``, a tuple or
list as a list of its items so written, a mapping as an object.

This module imports nothing of the package, so every layer may use it (the
rules' :class:`~unbeatable.games.base.Description` does).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, TypeVar, get_origin

T = TypeVar("T")


class _Never:
    """The ``omit`` of a field that is always written."""

    def __repr__(self) -> str:
        return "NEVER"


#: ``omit=NEVER``: the field is written whatever it holds.
NEVER: Any = _Never()


class Json(NamedTuple):
    """How one field of an answer is written as JSON, and what it means."""

    #: What the field means, for the API's documentation.
    doc: str | None = None
    #: Examples of its value, for the documentation.
    examples: tuple[Any, ...] = ()
    #: Left out of the JSON when the field holds exactly this (``None``,
    #: ``False``); :data:`NEVER`: always written.
    omit: Any = NEVER
    #: Written only when this says so of the whole answer (a field that
    #: belongs with another: a tree node's ``plies`` beside its ``result``).
    when: Callable[[Any], bool] | None = None
    #: Not written at all: the Python side's own (a position object).
    hidden: bool = False
    #: Written through this function (``shape`` then says the JSON's type).
    write: Callable[[Any], Any] | None = None
    #: The JSON's type where it is not the field's annotation (written by
    #: ``write``, computed, or a mapping written in place).
    shape: Any = None
    #: Written in place, its items beside the answer's own fields: an
    #: answer's fields (True), or a mapping whose keys are documented here.
    flat: bool | tuple[tuple[str, Json], ...] = False
    #: A computed field's value (it is no field of the tuple).
    get: Callable[[Any], Any] | None = None


def field(
    doc: str | None = None,
    *,
    examples: Sequence[Any] = (),
    omit: Any = NEVER,
    when: Callable[[Any], bool] | None = None,
    write: Callable[[Any], Any] | None = None,
    shape: Any = None,
) -> Json:
    """A field written as it is (or through ``write``), with what it means."""
    return Json(doc, tuple(examples), omit, when, False, write, shape)


#: A field that is not written: the Python side's own.
HIDDEN = Json(hidden=True)


def flat(doc: str | None = None, **keys: Json) -> Json:
    """A field written in place: an answer's own fields (no ``keys``), or a
    mapping's items, each key documented (its ``shape`` its JSON type, its
    ``omit`` saying that some answers leave it out)."""
    return Json(doc, flat=tuple(keys.items()) if keys else True)


def computed(
    get: Callable[[Any], Any],
    shape: Any,
    doc: str | None = None,
    *,
    examples: Sequence[Any] = (),
) -> Json:
    """A JSON field that is no field of the tuple: ``get(answer)``, of the
    JSON type ``shape``."""
    return Json(doc, tuple(examples), shape=shape, get=get)


class Spec(NamedTuple):
    """An answer's JSON, as :func:`answer` stated it."""

    #: The answer's name in the API's documentation (the class's, unless said).
    name: str
    #: What the answer is, for the documentation (the class's docstring's
    #: first paragraph, unless said).
    doc: str
    #: Every written field in the JSON's order, with how it is written.
    fields: tuple[tuple[str, Json], ...]


#: Types written exactly as they are.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """A value written as it is (see the module's docstring)."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, str):  # a StrEnum: its text
        return str(value)
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    return value


def answer(
    doc: str | None = None,
    /,
    *,
    json_name: str | None = None,
    json_order: Sequence[str] | None = None,
    **fields: Json,
) -> Callable[[type[T]], type[T]]:
    """Class decorator of an answer (a ``NamedTuple``): how each field is
    written (``fields``, by name; a field not named is written as it is,
    undocumented) and, as computed fields, what the JSON adds. The JSON's
    fields come in the class's order, the computed ones after them, unless
    ``json_order`` lists them all. ``doc`` and ``json_name`` are the
    answer's in the API's documentation (by default its docstring's first
    paragraph and its class name). Gives the class its ``to_dict()`` and its
    :class:`Spec` (``__json__``)."""

    def decorate(cls: type[T]) -> type[T]:
        own: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
        unknown = [key for key, spec in fields.items() if key not in own and spec.get is None]
        if unknown:
            raise TypeError(f"{cls.__name__} has no fields {unknown}")
        extra = [key for key, spec in fields.items() if spec.get is not None]
        shown = [key for key in (*own, *extra) if not fields.get(key, Json()).hidden]
        listed = shown if json_order is None else list(json_order)
        if sorted(listed) != sorted(shown):
            raise TypeError(f"{cls.__name__}: json_order must list every written field once")
        written = tuple((key, fields.get(key, Json())) for key in listed)
        summary = doc or (cls.__doc__ or "").strip().split("\n\n")[0]
        stated = Spec(json_name or cls.__name__, " ".join(summary.split()), written)
        known = _ANSWERS.get(stated.name)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise TypeError(f"two answers are named {stated.name}")
        _ANSWERS[stated.name] = cls
        cls.__json__ = stated  # type: ignore[attr-defined]

        def to_dict(self: Any) -> dict[str, Any]:
            # Written out as code at the first call, not at import (a
            # command line that prints one answer pays for its classes only),
            # then put in the place of the method the class's body defines
            # (``return json_object(self)``, for readers and type checkers).
            write = _writer(cls, written)
            cls.to_dict = write  # type: ignore[attr-defined]
            result: dict[str, Any] = write(self)
            return result

        cls.to_dict = to_dict  # type: ignore[attr-defined]
        return cls

    return decorate


#: Every answer type by its name in the documentation.
_ANSWERS: dict[str, type[Any]] = {}


def answers() -> dict[str, type[Any]]:
    """Every answer type stated so far, by its name in the documentation
    (what the web resolves the fields' annotations with)."""
    return dict(_ANSWERS)


#: Annotations whose values JSON holds as they are.
_SCALAR_NAMES = frozenset({"str", "int", "float", "bool", "None"})
#: Annotations whose values are written as a list of those values.
_LISTS = frozenset({"tuple[str, ...]", "tuple[int, ...]", "list[str]", "list[int]"})


def _how(annotation: Any, names: Mapping[str, Any], own: str) -> str:
    """How a value of this annotation is written, as code on ``v``: as it
    is (text, numbers, a ``Literal`` of them), as its text (a ``StrEnum``),
    as a list of such, by its ``to_dict()`` (an answer, or a tuple of
    answers, whose class is known here: defined before this one, or this
    one), or else by :func:`plain`. Worked out once per class, so that
    writing an answer asks nothing of a value whose annotation already says
    what it is."""
    if isinstance(annotation, type):
        if annotation.__name__ in _SCALAR_NAMES:
            return "v"
        return "str(v)" if issubclass(annotation, str) else "plain(v)"
    text = getattr(annotation, "__forward_arg__", annotation)  # a NamedTuple's ForwardRef
    if not isinstance(text, str):
        return "plain(v)"
    if text in _LISTS:
        return "list(v)"
    parts = [part.strip() for part in text.split("|")]
    if all(part in _SCALAR_NAMES or get_origin(names.get(part)) is Literal for part in parts):
        return "v"

    def answer_named(name: str) -> bool:
        return name == own or spec(names.get(name)) is not None

    if text.startswith("tuple[") and text.endswith(", ...]") and answer_named(text[6:-6]):
        return "[item.to_dict() for item in v]"
    if answer_named(text):
        return "v.to_dict()"
    if len(parts) == 2 and parts[1] == "None" and answer_named(parts[0]):
        return "None if v is None else v.to_dict()"

    def text_named(name: str) -> bool:  # a StrEnum: written as plain() would, its text
        kind = names.get(name)
        return isinstance(kind, type) and issubclass(kind, str)

    if len(parts) == 1 and text_named(text):
        return "str(v)"
    if len(parts) == 2 and parts[1] == "None" and text_named(parts[0]):
        return "None if v is None else str(v)"
    return "plain(v)"


def _writer(cls: type[Any], written: tuple[tuple[str, Json], ...]) -> Callable[[Any], Any]:
    """The ``to_dict`` of ``cls`` as its statement says, written out as
    code (as :mod:`dataclasses` writes ``__init__``): an answer is written
    for every request, so each field costs what its dict entry costs."""
    own: tuple[str, ...] = cls._fields
    module = sys.modules.get(cls.__module__)
    names: Mapping[str, Any] = vars(module) if module is not None else {}
    env: dict[str, Any] = {"plain": plain}
    code = ["def to_dict(self):", "    data = {}"]
    for n, (key, spec) in enumerate(written):
        at = "    "
        if spec.when is not None:
            env[f"when{n}"] = spec.when
            code.append(f"{at}if when{n}(self):")
            at += "    "
        if spec.get is not None:
            env[f"get{n}"] = spec.get
            code.append(f"{at}v = get{n}(self)")
        else:
            code.append(f"{at}v = self[{own.index(key)}]")
        if spec.omit is not NEVER:
            env[f"omit{n}"] = spec.omit
            code.append(f"{at}if v is not omit{n}:")
            at += "    "
        if spec.write is not None:
            env[f"write{n}"] = spec.write
            code.append(f"{at}data[{key!r}] = write{n}(v)")
        elif spec.flat is True:  # an answer's fields, in place
            code.append(f"{at}data.update(v.to_dict())")
        elif spec.flat:  # a mapping's items (text and numbers), in place
            code.append(f"{at}data.update(v)")
        else:
            shape = spec.shape if spec.get is not None else cls.__annotations__[key]
            how = _how(shape, names, cls.__name__)
            code.append(f"{at}data[{key!r}] = {how}")
    code.append("    return data")
    exec("\n".join(code), env)  # the class's own statement, nothing from outside
    to_dict: Callable[[Any], Any] = env["to_dict"]
    return to_dict


def json_object(value: Any) -> dict[str, Any]:
    """An answer's JSON object, as :func:`answer` stated it: what each
    answer's ``to_dict()`` returns (its body says ``return json_object(self)``,
    so that the method is there for readers and type checkers; the decorator
    puts the writing itself in its place)."""
    kind = type(value)
    if spec(kind) is None or kind.__dict__.get("to_dict") is None:
        raise TypeError(f"{kind.__name__} is no answer: decorate it with @answer")
    result: dict[str, Any] = kind.to_dict(value)
    return result


def spec(kind: Any) -> Spec | None:
    """The :class:`Spec` of an answer type, or None for another type."""
    found = getattr(kind, "__json__", None)
    return found if isinstance(found, Spec) else None


__all__ = [
    "HIDDEN",
    "NEVER",
    "Json",
    "Spec",
    "answer",
    "answers",
    "computed",
    "field",
    "flat",
    "json_object",
    "plain",
    "spec",
]
