"""The HTTP API's documentation page, written from the OpenAPI document.

Every offline documentation UI measured (README, "The HTTP API's
documentation") left axe-core violations a reader meets: Swagger UI's
contrast and buttons nested in buttons, ReDoc's contrast and unlabelled
regions, Scalar's unnamed buttons and ARIA misuse (and both of the last two
fetch from the network). This page is plain HTML made from the same
document (:meth:`FastAPI.openapi`): each endpoint's fields, its request and
answer as the library gives them, its errors, a curl line and a form to try
it (``/static/docs.js``, under the page's Content-Security-Policy), in the
page's own colours, light or dark. Swagger UI stays at ``/docs/swagger``.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any

#: The order endpoints are listed in: reading first, then playing, then learning.
_TAGS = ("server", "games", "learn")


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type(schema: dict[str, Any]) -> str:
    """A schema's type in words: ``string``, ``list of MoveValue``, ``integer or null``."""
    if "$ref" in schema:
        return _ref_name(schema["$ref"])
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    if "const" in schema:
        return json.dumps(schema["const"])
    for union in ("anyOf", "oneOf"):
        if union in schema:
            kinds = list(dict.fromkeys(_type(part) for part in schema[union]))
            return " or ".join(kinds)
    kind = schema.get("type")
    if kind == "array":
        return f"list of {_type(schema.get('items', {}))}"
    if isinstance(kind, list):
        return " or ".join(kind)
    if "pattern" in schema:
        return f"string matching {schema['pattern']}"
    return str(kind or "any")


def _text(words: str) -> str:
    """Prose from the document as HTML: escaped, `code` spans kept."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(words))


def _paragraphs(words: str) -> str:
    parts = [" ".join(part.split()) for part in words.split("\n\n")]
    return "".join(f"<p>{_text(part)}</p>" for part in parts if part)


def _named(field: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    """A field whose type is a set of names (an enum, which the document
    keeps apart and refers to) with the names in place: a reader of the
    table sees ``"minimax" | "alphabeta"``, not the set's name."""
    target = schemas.get(_ref_name(field["$ref"]), {}) if "$ref" in field else {}
    if "enum" not in target:
        return field
    return {**target, **{key: value for key, value in field.items() if key != "$ref"}}


def _fields(schema: dict[str, Any], schemas: dict[str, Any], caption: str) -> str:
    """A model's fields as a table: name, type, whether required, what it is."""
    if "$ref" in schema:
        schema = schemas.get(_ref_name(schema["$ref"]), {})
    properties = schema.get("properties", {})
    if not properties:
        return ""
    required = set(schema.get("required", ()))
    rows = []
    for name, field in properties.items():
        about = field.get("description", "")
        if "default" in field and name not in required:
            about = f"{about} Default: {json.dumps(field['default'])}.".strip()
        need = "required" if name in required else "optional"
        rows.append(
            f"<tr><th scope=\"row\"><code>{escape(name)}</code></th>"
            f"<td>{escape(_type(_named(field, schemas)))}</td><td>{need}</td>"
            f"<td>{_text(about)}</td></tr>"
        )
    head = (
        '<tr><th scope="col">Field</th><th scope="col">Type</th>'
        '<th scope="col">Needed</th><th scope="col">What it is</th></tr>'
    )
    return (
        f'<div class="table" tabindex="0"><table><caption>{escape(caption)}</caption>'
        f"<thead>{head}</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _json_block(value: Any) -> str:
    text = escape(json.dumps(value, indent=2, ensure_ascii=False))
    return f'<pre tabindex="0"><code>{text}</code></pre>'


def _anchor(method: str, path: str) -> str:
    return f"{method}-{re.sub(r'[^a-z0-9]+', '-', path.lower()).strip('-')}"


def _endpoint(method: str, path: str, operation: dict[str, Any], schemas: dict[str, Any]) -> str:
    anchor = _anchor(method, path)
    title = operation.get("summary", path)
    parts = [
        f'<section class="endpoint" id="{anchor}" aria-labelledby="{anchor}-title">',
        f'<h2 id="{anchor}-title"><span class="method">{method.upper()}</span> '
        f"<code>{escape(path)}</code>: {escape(title)}</h2>",
        _paragraphs(operation.get("description", "")),
    ]
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    example = body.get("example")
    if body:
        parts.append(f"<h3>Request</h3>{_fields(body.get('schema', {}), schemas, 'Request body')}")
    curl = f"curl -s http://127.0.0.1:8000{path.replace('{name}', 'connect4')}"
    if example is not None:
        curl += f" -H 'Content-Type: application/json' -d '{json.dumps(example)}'"
    # Scrolling blocks take the keyboard's focus: they scroll with its keys.
    parts.append(f'<h3>With curl</h3><pre tabindex="0"><code>{escape(curl)}</code></pre>')
    parts.append(_try_form(method, path, anchor, example))
    ok = operation.get("responses", {}).get("200", {})
    answer = ok.get("content", {}).get("application/json", {})
    parts.append("<h3>Answer</h3>")
    parts.append(_fields(answer.get("schema", {}), schemas, "Answer (200)"))
    if "example" in answer:
        what = "this request" if example is not None else "it"
        parts.append(
            f"<details><summary>The answer to {what}, as the server gives it</summary>"
            f"{_json_block(answer['example'])}</details>"
        )
    errors = [
        (status, response)
        for status, response in operation.get("responses", {}).items()
        if status != "200"
    ]
    if errors:
        items = []
        for status, response in sorted(errors):
            said = response.get("content", {}).get("application/json", {}).get("example")
            sample = "" if said is None else f" <code>{escape(json.dumps(said))}</code>"
            about = _text(response.get("description", ""))
            items.append(f"<dt>{escape(status)}</dt><dd>{about}{sample}</dd>")
        parts.append(f"<h3>Errors</h3><dl class=\"errors\">{''.join(items)}</dl>")
    parts.append("</section>")
    return "".join(parts)


def _try_form(method: str, path: str, anchor: str, example: Any) -> str:
    """A form that sends the request from the page and shows the answer."""
    fields = []
    if "{name}" in path:
        fields.append(
            f'<label for="{anchor}-name">Game name</label>'
            f'<input id="{anchor}-name" name="name" type="text" value="connect4" '
            'spellcheck="false" autocomplete="off">'
        )
    if example is not None:
        text = escape(json.dumps(example, indent=2))
        fields.append(
            f'<label for="{anchor}-body">Body (JSON)</label>'
            f'<textarea id="{anchor}-body" name="body" rows="5" spellcheck="false">'
            f"{text}</textarea>"
        )
    verb = method.upper()
    return (
        f'<h3>Try it</h3><form class="try" data-method="{verb}" data-path="{escape(path)}" '
        f'aria-label="Try {verb} {escape(path)}">{"".join(fields)}'
        f'<button type="submit">Send</button>'
        f'<output for="{anchor}-body" aria-live="polite">'
        '<pre tabindex="0" hidden></pre></output></form>'
    )


def page(spec: dict[str, Any]) -> str:
    """The whole page for the OpenAPI document ``spec``."""
    info = spec.get("info", {})
    schemas = spec.get("components", {}).get("schemas", {})
    listed = []
    for path, methods in spec.get("paths", {}).items():
        for method, operation in methods.items():
            tag = (operation.get("tags") or ["games"])[0]
            order = _TAGS.index(tag) if tag in _TAGS else len(_TAGS)
            listed.append((order, path, method, operation))
    listed.sort(key=lambda entry: entry[0])
    nav = "".join(
        f'<li><a href="#{_anchor(method, path)}"><span class="method">{method.upper()}</span> '
        f"<code>{escape(path)}</code></a> {escape(operation.get('summary', ''))}</li>"
        for _, path, method, operation in listed
    )
    sections = "".join(
        _endpoint(method, path, operation, schemas) for _, path, method, operation in listed
    )
    title = f"{info.get('title', 'API')}: HTTP API"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/docs.css">
<script type="module" src="/static/docs.js"></script>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p class="version">Version {escape(str(info.get("version", "")))} · <a href="/">the game page</a> ·
<a href="/openapi.json">the OpenAPI document</a> · <a href="/docs/swagger">Swagger UI</a></p>
</header>
<main>
{_paragraphs(info.get("description", ""))}
<nav aria-labelledby="endpoints-title"><h2 id="endpoints-title">Endpoints</h2><ul>{nav}</ul></nav>
{sections}
</main>
</body>
</html>
"""
