"""Bad input everywhere: every form and API endpoint gets malformed, oversized, wrongly
typed and hostile values. Never a 500, and a refused request changes nothing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper.db import get_session
from scorekeeper.models import Change, Game, Hand, Submission
from tests.helpers import new_game, quick, state

FUZZ = settings(max_examples=50, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

HOSTILE = [
    "", " ", "\x00", "\x00\x00abc", "-1", "0", "1", "-0", "1.5", "1e309", "NaN", "Infinity",
    "9" * 400, "-" + "9" * 30, "' OR 1=1 --", "'; DROP TABLE games; --", "\" OR \"\"=\"",
    "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "{{7*7}}", "${7*7}",
    "%s%s%s%n", "../../etc/passwd", "\u202eevil", "🂡🂱", "٣", "Ⅻ", "7H 7H", "10♥ J♥ Q♥",
    "AS AS AS AS AS AS AS AS AS AS AS", "7H,8H,9H;9H", "[[", "None", "null", "true",
    "x" * 5000, "ü" * 300, "\r\n\r\nX-Injected: 1", "//evil.example", "/\\evil.example",
]
CARDS = ["AS", "2S", "7H", "8H", "9H", "TH", "10D", "JD", "QC", "KC", "K♠", "7♥", "ZZ", "1H"]

form_value = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=30),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.lists(st.sampled_from(CARDS), max_size=14).map(" ".join),
)
json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([2**63, -(2**63) - 1, 10**300]),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(HOSTILE + CARDS),
    st.text(max_size=20),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=25,
)
cards_value = st.one_of(json_value, st.lists(st.sampled_from(CARDS), max_size=12),
                        st.lists(st.sampled_from(CARDS), max_size=12).map(" ".join))


def form(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Some of the fields (any may be missing), each with a hostile value."""
    return st.fixed_dictionaries({}, optional=fields)


def body(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A JSON body: the endpoint's fields with hostile values, or anything at all."""
    return st.one_of(st.fixed_dictionaries({}, optional=fields), json_value)


def counts(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        db = get_session()
        return tuple(db.scalar(select(func.count()).select_from(m)) or 0
                     for m in (Game, Hand, Change, Submission))


def pin_hash(app: Flask, game_id: str) -> str | None:
    with app.app_context():
        game = get_session().get(Game, game_id)
        assert game is not None
        return game.pin_hash


def assert_no_500(response: Any) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)[:2000]


def post_json(client: FlaskClient, path: str, data: Any, **headers: str) -> Any:
    return client.post(path, data=json.dumps(data), content_type="application/json",
                       headers=headers)


@pytest.fixture
def game(client: FlaskClient) -> str:
    """A game with a PIN and two hands, which this client may edit."""
    game_id = new_game(client, pin="4321")
    for k, d in ((3, 20), (2, 9)):
        assert quick(client, game_id, "knock", 0, k, d).status_code == 302
    return game_id


def post_and_check(app: Flask, client: FlaskClient, path: str, data: dict[str, Any],
                   count: Any = None) -> Any:
    """POST ``data``: never a 500, and unless it redirects (saved), nothing stored."""
    count = count or counts
    before = count(app)
    response = client.post(path, data=data)
    assert_no_500(response)
    if response.status_code != 302:
        assert count(app) == before
    return response


def send_and_check(client: FlaskClient, game_id: str, method: str, path: str,
                   data: dict[str, Any], accepted: tuple[int, ...] = (302,)) -> Any:
    before = state(client, game_id)
    response = client.open(path, method=method, data=data)
    assert_no_500(response)
    if response.status_code not in accepted:
        assert state(client, game_id) == before
    return response


# -- forms -------------------------------------------------------------------------------

NEW_GAME_FIELDS = ("variant", "player1", "player2", "preset", "dealer", "pin", "target",
                   "knock_limit", "gin_bonus", "big_gin_bonus", "no_big_gin", "undercut_bonus",
                   "game_bonus", "box_bonus", "shutout", "shutout_bonus", "tie", "next_dealer",
                   "oklahoma_ace", "spade_doubles")


@FUZZ
@given(data=form(**dict.fromkeys(NEW_GAME_FIELDS, form_value)))
def test_new_game_form(app: Flask, client: FlaskClient, data: dict[str, Any]) -> None:
    post_and_check(app, client, "/games/new", data)


QUICK_FIELDS = dict(outcome=st.one_of(st.sampled_from(["knock", "gin", "big_gin", "dead"]),
                                      form_value),
                    knocker=st.one_of(st.sampled_from(["0", "1"]), form_value),
                    knocker_deadwood=form_value, defender_deadwood=form_value,
                    upcard=form_value, version=form_value, token=form_value)
CARD_FIELDS = dict(knocker=st.one_of(st.sampled_from(["0", "1"]), form_value),
                   knocker_cards=form_value, defender_cards=form_value,
                   knocker_melds=form_value, defender_melds=form_value, layoffs=form_value,
                   upcard=form_value, version=form_value, token=form_value)


@FUZZ
@given(data=form(**QUICK_FIELDS))
def test_quick_hand_form(client: FlaskClient, game: str, data: dict[str, Any]) -> None:
    send_and_check(client, game, "POST", f"/g/{game}/hands", data)


@FUZZ
@given(data=form(**CARD_FIELDS))
def test_card_hand_form(client: FlaskClient, game: str, data: dict[str, Any]) -> None:
    send_and_check(client, game, "POST", f"/g/{game}/hands/new", data)


EDIT_MODES = {"quick": ["", "?mode=quick"], "cards": ["?mode=cards"]}


@FUZZ
@given(kind=st.sampled_from(["quick", "cards"]), data=st.data(),
       # Hands 1 and 2 exist: most examples edit one of them; a few aim past the sheet.
       number=st.sampled_from([1, 2, 1, 2, 1, 2, 0, 3, 10**20]),
       current=st.booleans())
def test_edit_forms(client: FlaskClient, game: str, kind: str, data: st.DataObject,
                    number: int, current: bool) -> None:
    fields = data.draw(form(**(QUICK_FIELDS if kind == "quick" else CARD_FIELDS)))
    mode = data.draw(st.sampled_from([*EDIT_MODES[kind], "?mode=%00"]))
    if current:  # a form drawn from this sheet, so the hostile values reach validation
        fields["version"] = str(state(client, game)["version"])
    send_and_check(client, game, "POST", f"/g/{game}/hands/{number}/edit{mode}", fields)


@FUZZ
@given(version=st.one_of(form_value, st.none()), number=st.integers(min_value=0, max_value=5))
def test_delete_form(client: FlaskClient, version: str | None, number: int) -> None:
    game = new_game(client)
    assert quick(client, game, "knock", 0, 3, 20).status_code == 302
    before = state(client, game)
    data = {} if version is None else {"version": version}
    response = client.post(f"/g/{game}/hands/{number}/delete", data=data)
    assert_no_500(response)
    if version != str(before["version"]):  # only a form drawn from this sheet may delete
        assert state(client, game) == before


def test_delete_without_the_current_version_deletes_nothing(
    client: FlaskClient, game: str
) -> None:
    before = state(client, game)
    deleted = []
    for version in (None, "", "abc", "1.0", "-1", "99"):
        data = {} if version is None else {"version": version}
        assert_no_500(client.post(f"/g/{game}/hands/1/delete", data=data))
        if state(client, game) != before:
            deleted.append(version)
            before = state(client, game)
    assert deleted == []


@FUZZ
@given(pin=form_value)
def test_unlock_form(app: Flask, client: FlaskClient, game: str, pin: str) -> None:
    other = app.test_client()
    before = state(client, game)
    assert_no_500(other.post(f"/g/{game}/unlock", data={"pin": pin}))
    assert_no_500(other.get(f"/g/{game}/unlock"))
    assert state(client, game) == before


@FUZZ
@given(pin=form_value)
def test_set_pin_form(app: Flask, client: FlaskClient, game: str, pin: str) -> None:
    before, hashed = state(client, game), pin_hash(app, game)
    response = client.post(f"/g/{game}/pin", data={"pin": pin})
    assert_no_500(response)
    if not re.fullmatch(r"\d{4,6}", pin):
        assert pin_hash(app, game) == hashed
    assert state(client, game) == before


@FUZZ
@given(data=form(lang=st.one_of(st.sampled_from(["en", "fa", "ru"]), form_value),
                 next=form_value))
def test_language_form(client: FlaskClient, data: dict[str, Any]) -> None:
    response = client.post("/lang", data=data)
    assert_no_500(response)
    if response.status_code == 302:
        location = response.headers["Location"]
        assert location.startswith("/") and not location.startswith("//"), location
        assert "\\" not in location[:2], location  # browsers read "/\\x" as "//x"
        assert "\r" not in location and "\n" not in location


@pytest.mark.parametrize("target", ["//evil.example", "/\\evil.example", "/\t/evil.example",
                                    "https://evil.example/", "/\r\nSet-Cookie: x=1", "/ok?\n"])
def test_language_switch_never_leaves_the_site(client: FlaskClient, target: str) -> None:
    response = client.post("/lang", data={"lang": "ru", "next": target})
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location.startswith("/") and location[1:2] not in ("/", "\\"), location


@FUZZ
@given(data=form(preset=form_value, knock_limit=form_value, gin_bonus=form_value,
                 undercut_bonus=form_value, tie_is_undercut=form_value, **CARD_FIELDS))
def test_checker_form(app: Flask, client: FlaskClient, data: dict[str, Any]) -> None:
    before = counts(app)
    assert_no_500(client.post("/check", data=data))
    assert counts(app) == before


@FUZZ
@given(data=form(rules=form_value, went_out=form_value, final_discard=form_value,
                 **{f"players-{i}-{f}": form_value for i in range(4)
                    for f in ("player_name", "table", "hand")}))
def test_remi_checker_form(app: Flask, client: FlaskClient, data: dict[str, Any]) -> None:
    before = counts(app)
    assert_no_500(client.post("/remi/check", data=data))
    assert counts(app) == before


@FUZZ
@given(content=st.one_of(json_value.map(lambda v: json.dumps(v).encode()),
                         st.binary(max_size=200)))
def test_import_form(app: Flask, client: FlaskClient, content: bytes) -> None:
    import io

    before = counts(app)
    response = client.post("/import", data={"file": (io.BytesIO(content), "x.json")},
                           content_type="multipart/form-data")
    assert_no_500(response)
    if response.status_code != 302:
        assert counts(app) == before


# -- the JSON API ------------------------------------------------------------------------

@FUZZ
@given(data=body(variant=st.one_of(st.sampled_from(["gin", "oklahoma", "remi"]), json_value),
                 rules=st.one_of(st.sampled_from(["classic", "russian", "modern"]), json_value,
                                 st.fixed_dictionaries({}, optional={
                                     "preset": json_value, "target": json_leaf,
                                     "knock_limit": json_leaf, "shutout": json_leaf})),
                 players=st.one_of(st.lists(json_leaf, max_size=3), json_value),
                 dealer=json_leaf))
def test_api_create_game(app: Flask, client: FlaskClient, data: Any) -> None:
    create_and_check(app, client, "games", data, counts)


def create_and_check(app: Flask, client: FlaskClient, kind: str, data: Any, count: Any) -> None:
    """POST ``data`` to ``/api/v1/<kind>``: created and readable (201), or refused with
    its errors (422) and nothing stored; never a 500."""
    before = count(app)
    response = post_json(client, f"/api/v1/{kind}", data)
    assert_no_500(response)
    assert response.status_code in (201, 422)
    if response.status_code == 201:
        created = response.get_json()
        assert client.get(f"/api/v1/{kind}/{created['id']}").status_code == 200
    else:
        assert count(app) == before
        assert response.get_json()["errors"]


@FUZZ
@given(game_id=st.one_of(st.text(max_size=60), st.sampled_from(HOSTILE)))
def test_api_read_game(client: FlaskClient, game_id: str) -> None:
    from urllib.parse import quote

    response = client.get(f"/api/v1/games/{quote(game_id, safe='')}")
    assert_no_500(response)
    assert response.status_code in (404, 308, 200)


HAND_BODY = dict(
    outcome=st.one_of(st.sampled_from(["knock", "gin", "big_gin", "dead"]), json_value),
    knocker=st.one_of(st.sampled_from([0, 1]), json_value,
                      st.fixed_dictionaries({}, optional={"seat": json_leaf,
                                                          "cards": cards_value,
                                                          "melds": json_value})),
    knocker_deadwood=json_leaf, defender_deadwood=json_leaf, upcard=json_leaf,
    knocker_seat=json_leaf,
    defender=st.one_of(json_value, st.fixed_dictionaries({}, optional={
        "cards": cards_value, "melds": json_value,
        "layoffs": st.one_of(json_value, st.lists(st.fixed_dictionaries(
            {}, optional={"card": json_leaf, "meld": json_leaf}), max_size=3))})),
)
header_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=120)


@FUZZ
@given(data=body(**HAND_BODY), key=st.one_of(st.none(), header_text))
def test_api_add_hand(app: Flask, client: FlaskClient, data: Any, key: str | None) -> None:
    created = post_json(client, "/api/v1/games", {"players": ["Ann", "Bob"]}).get_json()
    game_id, secret = created["id"], created["edit_secret"]
    before, rows = state(client, game_id), counts(app)
    headers = {"X-Edit-Secret": secret, **({"Idempotency-Key": key} if key is not None else {})}
    response = post_json(client, f"/api/v1/games/{game_id}/hands", data, **headers)
    assert_no_500(response)
    assert response.status_code in (200, 201, 409, 422), response.get_data(as_text=True)
    if response.status_code != 201:
        assert state(client, game_id) == before and counts(app) == rows
        assert response.get_json()["errors"] or response.status_code == 200


@FUZZ
@given(data=body(cards=cards_value, rules=json_value))
def test_api_gin_arrange(client: FlaskClient, data: Any) -> None:
    response = post_json(client, "/api/v1/gin/arrange", data)
    assert_no_500(response)
    assert response.status_code in (200, 422)


@FUZZ
@given(data=body(rules=json_value, upcard=json_leaf,
                 knocker=st.one_of(json_value, st.fixed_dictionaries(
                     {}, optional={"cards": cards_value, "melds": json_value})),
                 defender=HAND_BODY["defender"]))
def test_api_gin_settle(client: FlaskClient, data: Any) -> None:
    response = post_json(client, "/api/v1/gin/settle", data)
    assert_no_500(response)
    assert response.status_code in (200, 422)


@FUZZ
@given(data=body(rules=json_value, players=st.one_of(json_value, st.lists(
    st.fixed_dictionaries({}, optional={"name": json_leaf, "table": json_value,
                                        "hand": cards_value, "went_out": json_leaf,
                                        "final_discard": json_leaf}), max_size=5))))
def test_api_remi_settle(client: FlaskClient, data: Any) -> None:
    response = post_json(client, "/api/v1/remi/settle", data)
    assert_no_500(response)
    assert response.status_code in (200, 422)


RAW = [b"", b"{", b"NaN", b'{"a": NaN}', b'{"rules": Infinity}', b"[" * 50_000 + b"]" * 50_000,
       b'{"a":' * 20_000 + b"1" + b"}" * 20_000, b"\xff\xfe\x00", b'"just a string"', b"1" * 5000,
       b'{"players": ["Ann", "Bob"], "players": 5}']


def test_api_raw_bodies(app: Flask, client: FlaskClient) -> None:
    created = post_json(client, "/api/v1/games", {"players": ["Ann", "Bob"]}).get_json()
    rows = counts(app)
    paths = ("/api/v1/games", f"/api/v1/games/{created['id']}/hands", "/api/v1/gin/arrange",
             "/api/v1/gin/settle", "/api/v1/remi/settle")
    for raw in RAW:
        for content_type in ("application/json", "text/plain", None):
            for path in paths:
                response = client.post(path, data=raw, content_type=content_type,
                                       headers={"X-Edit-Secret": created["edit_secret"]})
                assert_no_500(response)
                assert response.status_code == 422, (path, raw[:20], content_type)
                assert response.get_json()["errors"]
    assert counts(app) == rows


@pytest.mark.parametrize("path", ["/api/v1/games/a%00b", "/g/a%00b", "/g/a%00b/history",
                                  "/g/a%00b/export.json", "/g/a%00b/unlock"])
def test_a_nul_byte_in_a_game_id_is_not_found(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert_no_500(response)
    assert response.status_code == 404


def test_a_nul_byte_in_a_name_is_refused_or_kept(app: Flask, client: FlaskClient) -> None:
    before = counts(app)
    response = post_json(client, "/api/v1/games", {"players": ["A\x00nn", "Bob"]})
    assert_no_500(response)
    if response.status_code != 201:
        assert counts(app) == before
    page = client.post("/games/new", data={"variant": "gin", "player1": "A\x00nn",
                                           "player2": "Bob", "preset": "classic", "dealer": "0"})
    assert_no_500(page)


HUGE = "9" * 400  # beyond a float: WTForms' NumberRange turned it into one and crashed


@pytest.mark.parametrize(
    ("method", "path", "data", "message"),
    [
        ("POST", "/games/new", {"variant": "gin", "player1": "Ann", "player2": "Bob",
                                "dealer": "0", "target": HUGE}, "between 1 and 10000"),
        ("POST", "/check", {"gin_bonus": HUGE, "knocker": "0"}, "between 0 and 10000"),
        ("POST", "/g/{game}/hands", {"outcome": "knock", "knocker": "0", "knocker_deadwood": "3",
                                     "defender_deadwood": HUGE}, "between 0 and 200"),
        ("GET", "/pads/pad.pdf", {"rows": HUGE}, "Rows must be a whole number from 5 to 200."),
    ],
)
def test_a_number_too_long_for_a_float_is_refused_at_its_field(
    client: FlaskClient, game: str, method: str, path: str, data: dict[str, str], message: str
) -> None:
    """Found by a longer fuzz run (400 examples, not derandomized): these were 500s."""
    url = path.format(game=game)
    if method == "GET":
        response = client.get(url, query_string=data)
    else:
        response = client.post(url, data={**data, "version": str(state(client, game)["version"])})
    assert response.status_code in (200, 400, 422)  # the form again, nothing saved
    assert HUGE in response.get_data(as_text=True)  # what was typed is kept
    assert message in response.get_data(as_text=True)


# -- groups, pads, sheet options and the other kinds of game's forms ----------------------


def group_counts(app: Flask) -> tuple[int, ...]:
    from scorekeeper.models import Group, Payment

    with app.app_context():
        db = get_session()
        return tuple(db.scalar(select(func.count()).select_from(m)) or 0
                     for m in (Group, Payment, Game))


@pytest.fixture
def group(client: FlaskClient) -> str:
    """A group with a stake and one finished game, which this client may edit."""
    created = post_json(client, "/api/v1/groups",
                        {"name": "Friday", "players": ["Ann", "Bob"], "stake": "0.01",
                         "currency": "EUR"}).get_json()
    game = post_json(client, "/api/v1/games", {"players": ["Ann", "Bob"], "group": created["id"],
                                                "rules": {"preset": "classic", "target": 50}},
                     **{"X-Edit-Secret": created["edit_secret"]}).get_json()
    post_json(client, f"/api/v1/games/{game['id']}/hands",
              {"outcome": "knock", "knocker": 0, "knocker_deadwood": 2, "defender_deadwood": 60},
              **{"X-Edit-Secret": game["edit_secret"]})
    client.get(created["edit_url"])
    group_id: str = created["id"]
    return group_id


@FUZZ
@given(data=form(name=form_value, players=form_value, stake=form_value, currency=form_value,
                 pin=form_value))
def test_new_group_form(app: Flask, client: FlaskClient, data: dict[str, Any]) -> None:
    post_and_check(app, client, "/groups/new", data, group_counts)


@FUZZ
@given(data=form(**{f"settings-{f}": form_value
                    for f in ("name", "players", "stake", "currency", "pin")}))
def test_group_settings_form(client: FlaskClient, group: str, data: dict[str, Any]) -> None:
    assert_no_500(client.post(f"/groups/{group}/settings", data=data))
    assert_no_500(client.get(f"/groups/{group}"))


@FUZZ
@given(data=form(**{f"payment-{f}": st.one_of(st.sampled_from(["Ann", "Bob", "1.50"]), form_value)
                    for f in ("payer", "payee", "amount", "paid_on")}))
def test_group_payment_form(app: Flask, client: FlaskClient, group: str,
                            data: dict[str, Any]) -> None:
    post_and_check(app, client, f"/groups/{group}/payments", data, group_counts)
    assert_no_500(client.get(f"/api/v1/groups/{group}"))


@FUZZ
@given(variant=st.one_of(st.sampled_from(["gin", "oklahoma", "hollywood", "three_hand",
                                          "partnership", "remi", "pad"]), form_value),
       data=form(rows=form_value, preset=form_value, size=form_value, player1=form_value,
                 player2=form_value, player3=form_value, player4=form_value))
def test_pad_options(client: FlaskClient, variant: str, data: dict[str, Any]) -> None:
    response = client.get(f"/pads/{variant}.pdf", query_string=data)
    assert_no_500(response)


@FUZZ
@given(data=form(size=form_value, appendix=form_value))
def test_sheet_pdf_options(client: FlaskClient, game: str, data: dict[str, Any]) -> None:
    assert_no_500(client.get(f"/g/{game}/sheet.pdf", query_string=data))


def other_game(client: FlaskClient, variant: str, players: list[str]) -> str:
    created = post_json(client, "/api/v1/games", {"variant": variant, "players": players})
    assert created.status_code == 201
    game_id: str = created.get_json()["id"]
    client.get(created.get_json()["edit_url"])
    return game_id


TABLE = ("outcome", "knocker", "knocker_deadwood", "defender_deadwood")


@FUZZ
@given(data=form(version=form_value, token=form_value,
                 **{f"{t}-{f}": form_value for t in ("a", "b") for f in TABLE}))
def test_partnership_deal_form(client: FlaskClient, data: dict[str, Any]) -> None:
    game_id = other_game(client, "partnership", ["Ann", "Bob", "Cid", "Dan"])
    send_and_check(client, game_id, "POST", f"/g/{game_id}/hands", data)


@FUZZ
@given(data=form(version=form_value, token=form_value, went_out=form_value,
                 discard_value=form_value,
                 **{f"players-{i}-{f}": form_value for i in range(4) for f in ("plus", "minus")}))
def test_remi_deal_form(client: FlaskClient, data: dict[str, Any]) -> None:
    game_id = other_game(client, "remi", ["Ann", "Bob", "Cid"])
    send_and_check(client, game_id, "POST", f"/g/{game_id}/hands", data)


@FUZZ
@given(data=form(version=form_value, token=form_value, outcome=form_value, knocker=form_value,
                 knocker_deadwood=form_value, defender_deadwood=form_value, upcard=form_value))
@pytest.mark.parametrize(("variant", "players"), [("oklahoma", ["Ann", "Bob"]),
                                                  ("hollywood", ["Ann", "Bob"]),
                                                  ("three_hand", ["Ann", "Bob", "Cid"])])
def test_other_kinds_quick_forms(client: FlaskClient, variant: str, players: list[str],
                                 data: dict[str, Any]) -> None:
    game_id = other_game(client, variant, players)
    send_and_check(client, game_id, "POST", f"/g/{game_id}/hands", data)


@FUZZ
@given(data=body(name=json_leaf, players=st.one_of(st.lists(json_leaf, max_size=4), json_value),
                 stake=json_leaf, currency=json_leaf, pin=json_leaf))
def test_api_create_group(app: Flask, client: FlaskClient, data: Any) -> None:
    create_and_check(app, client, "groups", data, group_counts)
