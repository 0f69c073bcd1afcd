"""Every problem of a refused form, each with the id of the field it is about.

A refused form starts with a summary of its errors (``error_summary`` in
``templates/_macros.html``), each a link to its field, as the GOV.UK error summary does.
This walks a WTForms form, its sub-forms (``FormField``) and lists of them
(``FieldList``), in the order of the page, and names the element each link goes to: the
field itself, or the first choice of a group of radio buttons (the ``radios`` macro
gives each choice the id ``<field id>-<index>``). A problem of the whole form, or of a
hidden field, has no field to go to.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from wtforms import Field, RadioField
from wtforms.fields import FieldList, FormField


class Problem(NamedTuple):
    """One error as the summary lists it: ``target`` is an element id, or ``None``;
    ``whose`` the sub-form's owner (a player's name, shown isolated), or blank."""

    target: str | None
    whose: str
    label: str
    message: str


def form_problems(form: Any) -> list[Problem]:
    """The problems of ``form`` in page order: its own (``form_errors``) first.

    A form's ``part_names``, when it has them, say whose its sub-forms are, in order (a
    Remi deal's players): the problems of the n-th one are ``part_names[n]``'s."""
    return list(_walk(form, getattr(form, "part_names", ()), "", top=True))


def _walk(form: Any, names: Sequence[str], whose: str, top: bool = False) -> Iterator[Problem]:
    # A sub-form says its own problems above its fields: the link goes there.
    where = None if top else _first_target(form)
    for message in getattr(form, "form_errors", None) or ():
        yield Problem(where, whose, "", str(message))
    parts = 0
    for field in form:
        if isinstance(field, FormField):
            yield from _walk(field.form, (), _named(names, parts, whose))
            parts += 1
        elif isinstance(field, FieldList):
            for entry in field:
                if isinstance(entry, FormField):
                    yield from _walk(entry.form, (), _named(names, parts, whose))
                else:
                    yield from _errors_of(entry, whose)
                parts += 1
        else:
            yield from _errors_of(field, whose)


def _named(names: Sequence[str], index: int, whose: str) -> str:
    return names[index] if index < len(names) else whose


def _target(field: Field) -> str | None:
    if getattr(field.widget, "input_type", None) == "hidden":
        return None
    return f"{field.id}-0" if isinstance(field, RadioField) else field.id


def _first_target(form: Any) -> str | None:
    return next((t for t in (_target(f) for f in form) if t is not None), None)


def _errors_of(field: Field, whose: str) -> Iterator[Problem]:
    target = _target(field)
    for message in field.errors:
        yield Problem(target, whose, str(field.label.text), str(message))
