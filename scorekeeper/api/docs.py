"""``/api/docs``: the JSON API's reference, a page rendered on the server from the same
OpenAPI document ``GET /api/v1/openapi.json`` serves (``api/openapi.py``).

No script and no viewer from elsewhere: the document's operations and schemas are
turned into rows here and laid out by ``templates/api/docs.html``. The page is in
English, like the API's messages and explanations. It lives under ``/api/``, where
requests carry no cookie session, so it is a page of its own rather than one built
on ``base.html`` (whose language switch needs the session's form token).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, render_template
from markupsafe import Markup, escape

from .openapi import Schema, document

bp = Blueprint("api_docs", __name__)

METHODS = ("get", "post", "put", "patch", "delete")


@dataclass(frozen=True)
class Field:
    """One property of an object: its name, whether it is always there, its type (with
    links to the shared schemas), what it is, and the fields of an object inside it."""

    name: str
    required: bool
    type: Markup
    description: Markup
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Answer:
    """One status an operation answers with."""

    status: str
    description: Markup
    type: Markup


@dataclass(frozen=True)
class Operation:
    """One route and method, as the page shows it."""

    id: str
    tag: str
    method: str
    path: str
    summary: str
    description: Markup
    parameters: tuple[Field, ...]
    body: Field | None
    answers: tuple[Answer, ...]


@dataclass(frozen=True)
class Shape:
    """One shared schema (``components.schemas``)."""

    name: str
    description: Markup
    type: Markup
    fields: tuple[Field, ...]


@bp.get("/api/docs")
def page() -> str:
    """The JSON API's reference, from its OpenAPI document."""
    doc = document()
    base = doc["servers"][0]["url"]
    listed = operations(doc, base)
    sections = [(tag, [op for op in listed if op.tag == tag["name"]]) for tag in doc["tags"]]
    shapes = [shape(name, schema) for name, schema in doc["components"]["schemas"].items()]
    return render_template(
        "api/docs.html", info=doc["info"], overview=prose(doc["info"]["description"]),
        sections=sections, shapes=shapes, document_url=f"{base}/openapi.json",
    )


def operations(doc: dict[str, Any], base: str) -> list[Operation]:
    """Every operation of the document, in its order."""
    found = []
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            op = item[method]
            request = op.get("requestBody")
            found.append(
                Operation(
                    id=op["operationId"],
                    tag=op.get("tags", [""])[0],
                    method=method.upper(),
                    path=base + path,
                    summary=op["summary"],
                    description=inline(op.get("description", "")),
                    parameters=tuple(_parameter(p) for p in op.get("parameters", [])),
                    body=None if request is None else _body(request),
                    answers=tuple(
                        _answer(doc, status, answer) for status, answer in op["responses"].items()
                    ),
                )
            )
    return found


def shape(name: str, schema: Schema) -> Shape:
    """A shared schema as the page shows it."""
    return Shape(name, inline(schema.get("description", "")), type_of(schema), fields_of(schema))


def _parameter(parameter: dict[str, Any]) -> Field:
    where = "header" if parameter["in"] == "header" else f"in the {parameter['in']}"
    return Field(
        name=parameter["name"],
        required=bool(parameter.get("required")),
        type=Markup("{} ({})").format(type_of(parameter["schema"]), where),
        description=inline(parameter.get("description", "")),
        fields=(),
    )


def _body(request: dict[str, Any]) -> Field:
    schema = request["content"]["application/json"]["schema"]
    return Field("body", bool(request.get("required")), type_of(schema),
                 inline(request.get("description", "")), ())


def _answer(doc: dict[str, Any], status: str, answer: dict[str, Any]) -> Answer:
    if "$ref" in answer:  # a shared answer (components.responses)
        answer = doc["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
    schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
    return Answer(status, inline(answer.get("description", "")), type_of(schema))


def type_of(schema: Schema) -> Markup:
    """A short description of a schema's type, shared schemas linked by name."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return Markup('<a href="#schema-{}">{}</a>').format(name, name)
    for key, word in (("oneOf", " or "), ("anyOf", " or ")):
        if key in schema and "type" not in schema:  # else constraints the text explains
            return Markup(word).join(type_of(part) for part in schema[key])
    if "allOf" in schema:
        parts = [type_of(part) for part in schema["allOf"]]
        if schema.get("properties"):
            parts.append(Markup("the fields below"))
        return Markup(" with ").join(parts)
    return _plain_type(schema)


def _plain_type(schema: Schema) -> Markup:
    kind = schema.get("type")
    if "enum" in schema:
        return Markup("one of {}").format(
            Markup(", ").join(Markup("<code>{}</code>").format(v) for v in schema["enum"])
        )
    if kind == "array":
        limits = _limits(schema, "minItems", "maxItems", "items")
        return Markup("array of {}{}").format(type_of(schema.get("items", {})), limits)
    if kind == "integer":
        return Markup("integer{}").format(_limits(schema, "minimum", "maximum", ""))
    if kind == "string":
        fmt = f", {schema['format']}" if "format" in schema else ""
        return Markup("string{}{}").format(fmt, _limits(schema, "minLength", "maxLength",
                                                         "characters"))
    if kind == "boolean":
        return Markup("true or false")
    if kind == "null":
        return Markup("null")
    extra = schema.get("additionalProperties")
    if kind == "object" and isinstance(extra, dict):
        return Markup("object of {} by name").format(type_of(extra))
    return Markup("object") if kind == "object" else Markup("any JSON")


def _limits(schema: Schema, low: str, high: str, unit: str) -> str:
    least, most = schema.get(low), schema.get(high)
    unit = f" {unit}" if unit else ""
    if least is not None and most is not None:
        return f", {least}–{most}{unit}" if least != most else f", exactly {least}{unit}"
    if most is not None:
        return f", at most {most}{unit}"
    if least:
        return f", at least {least}{unit}"
    return ", 0 or more" if least == 0 and low == "minimum" else ""


def fields_of(schema: Schema) -> tuple[Field, ...]:
    """The properties of an object schema (with those of its inline ``allOf`` parts), or
    of the objects in an array; none for anything else."""
    if schema.get("type") == "array":
        return fields_of(schema.get("items", {}))
    properties: dict[str, Schema] = {}
    required: set[str] = set()
    for part in [schema, *schema.get("allOf", [])]:
        if "$ref" in part:
            continue
        properties.update(part.get("properties", {}))
        required.update(part.get("required", []))
    return tuple(
        Field(name, name in required, type_of(sub), inline(sub.get("description", "")),
              fields_of(sub) if "$ref" not in sub else ())
        for name, sub in properties.items()
    )


_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*([^*]+)\*\*")


def inline(source: str) -> Markup:
    """Text with ``code`` and **strong** spans, escaped."""
    html = str(escape(" ".join(source.split())))
    html = _CODE.sub(r"<code>\1</code>", html)
    return Markup(_STRONG.sub(r"<strong>\1</strong>", html))


def prose(source: str) -> list[Markup]:
    """Paragraphs (split at blank lines), each with its inline spans."""
    return [inline(part) for part in re.split(r"\n\s*\n", source) if part.strip()]
