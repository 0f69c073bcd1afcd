"""A group's payments corrected, deleted, restored, and its settling up recorded in one
step, on the pages and over the API.

The group is ``test_groups``' Friday (Ann, Bob, Cid, stake 0.01 EUR a point): its
games leave Ann −0.08, Bob −1.63, Cid +1.71, settled by Bob paying Cid 1.63 and Ann
paying Cid 0.08 (worked out by hand in that module's docstring).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.trust_server import Browser, at_once, hidden_fields, open_edit_link

AT_START = {"Ann": "-0.08", "Bob": "-1.63", "Cid": "1.71"}
SETTLE_AT_START = [
    {"from": "Bob", "to": "Cid", "amount": "1.63", "currency": "EUR"},
    {"from": "Ann", "to": "Cid", "amount": "0.08", "currency": "EUR"},
]


def group_json(client: FlaskClient, group_id: str) -> Any:
    return client.get(f"/api/v1/groups/{group_id}").get_json()


def hidden(html: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    assert found, name
    return found.group(1)


def pay(client: FlaskClient, group_id: str, payer: str, payee: str, amount: str) -> None:
    response = client.post(f"/groups/{group_id}/payments", data={
        "payment-payer": payer, "payment-payee": payee, "payment-amount": amount,
        "payment-paid_on": "2026-12-01"})
    assert response.status_code == 302, response.get_data(as_text=True)


def test_a_payment_corrected_deleted_and_restored_moves_balances_and_settle_up(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    """Bob pays Cid 1.63, then it is corrected to 1.00 on 2 December: Bob −1.63 + 1.00
    = −0.63, Cid 1.71 − 1.00 = +0.71, Ann −0.08 still; Bob pays Cid 0.63 and Ann pays
    Cid 0.08 to settle. Deleted, the balances are the games' alone again; restored,
    the corrected payment is back."""
    group = friday["group"]["id"]
    pay(client, group, "Bob", "Cid", "1.63")
    [payment] = group_json(client, group)["payments"]
    edit = f"/groups/{group}/payments/{payment['id']}/edit"
    form = client.get(edit).get_data(as_text=True)
    assert hidden(form, "payment-amount") == "1.63"
    version = hidden(form, "payment-version")
    corrected = client.post(edit, data={
        "payment-payer": "Bob", "payment-payee": "Cid", "payment-amount": "1.00",
        "payment-paid_on": "2026-12-02", "payment-version": version})
    assert corrected.status_code == 302, corrected.get_data(as_text=True)
    data = group_json(client, group)
    assert data["balances"] == {"Ann": "-0.08", "Bob": "-0.63", "Cid": "0.71"}
    assert data["settle_up"] == [
        {"from": "Bob", "to": "Cid", "amount": "0.63", "currency": "EUR"},
        {"from": "Ann", "to": "Cid", "amount": "0.08", "currency": "EUR"},
    ]
    assert data["payments"] == [{"id": payment["id"], "from": "Bob", "to": "Cid",
                                 "amount": "1.00", "currency": "EUR", "date": "2026-12-02"}]

    # A form drawn before the correction changes nothing, and says so; what was typed
    # stays, with the version it is now drawn from.
    stale = client.post(edit, data={
        "payment-payer": "Bob", "payment-payee": "Cid", "payment-amount": "5.00",
        "payment-paid_on": "2026-12-02", "payment-version": version})
    assert stale.status_code == 409
    assert "nothing was saved" in stale.get_data(as_text=True)
    assert hidden(stale.get_data(as_text=True), "payment-amount") == "5.00"
    assert hidden(stale.get_data(as_text=True), "payment-version") == str(int(version) + 1)
    assert group_json(client, group)["balances"]["Bob"] == "-0.63"
    # A bad amount is refused at its field, what was typed kept.
    bad = client.post(edit, data={
        "payment-payer": "Bob", "payment-payee": "Cid", "payment-amount": "1,234",
        "payment-paid_on": "2026-12-02", "payment-version": str(int(version) + 1)})
    assert bad.status_code == 422
    assert hidden(bad.get_data(as_text=True), "payment-amount") == "1,234"

    form = client.get(edit).get_data(as_text=True)
    deleted = client.post(f"/groups/{group}/payments/{payment['id']}/delete",
                          data={"delete-version": hidden(form, "delete-version")})
    assert deleted.status_code == 302
    data = group_json(client, group)
    assert data["balances"] == AT_START
    assert data["settle_up"] == SETTLE_AT_START
    assert data["payments"] == []

    history = client.get(f"/groups/{group}/history").get_data(as_text=True)
    entries = re.findall(r'<li id="change-(\d+)" data-action="(\w+)">(.*?)</form>|'
                         r'<li id="change-(\d+)" data-action="(\w+)">', history, re.S)
    actions = [e[1] or e[4] for e in entries]
    assert actions == ["delete", "edit", "record"]  # newest first
    text = re.sub(r"<[^>]+>", "", history)
    assert "Payment deleted" in text and "Bob paid Cid €1.00" in text
    assert "Payment corrected" in text and "2026-12-01: Bob paid Cid €1.63" in text
    [restore] = re.findall(r'action="(/groups/[^"]+/restore)"', history)

    restored = client.post(restore, data={"version": hidden(history, "version")})
    assert restored.status_code == 302
    data = group_json(client, group)
    assert data["balances"] == {"Ann": "-0.08", "Bob": "-0.63", "Cid": "0.71"}
    assert [(p["from"], p["to"], p["amount"], p["date"]) for p in data["payments"]] == [
        ("Bob", "Cid", "1.00", "2026-12-02")]
    assert [c["action"] for c in data["history"]] == ["record", "edit", "delete", "restore"]
    # Restored once only: the button is gone, and the same POST again changes nothing.
    assert "/restore" not in client.get(f"/groups/{group}/history").get_data(as_text=True)
    client.post(restore, data={"version": str(data["version"])})
    assert len(group_json(client, group)["payments"]) == 1


def test_settling_up_records_the_suggestion_once_and_squares_everybody(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    group = friday["group"]["id"]
    page = client.get(f"/groups/{group}").get_data(as_text=True)
    form = {"settle-version": hidden(page, "settle-version"),
            "settle-plan": hidden(page, "settle-plan")}
    first = client.post(f"/groups/{group}/settle", data=form)
    assert first.status_code == 302
    assert first.headers["Location"].endswith(f"/groups/{group}#money")
    again = client.post(f"/groups/{group}/settle", data=form)  # the second tap
    assert again.status_code == 302
    data = group_json(client, group)
    assert data["balances"] == {"Ann": "0.00", "Bob": "0.00", "Cid": "0.00"}
    assert data["settle_up"] == []
    today = date.today().isoformat()
    assert [{k: p[k] for k in ("from", "to", "amount", "currency", "date")}
            for p in data["payments"]] == [
        {"from": "Bob", "to": "Cid", "amount": "1.63", "currency": "EUR", "date": today},
        {"from": "Ann", "to": "Cid", "amount": "0.08", "currency": "EUR", "date": today},
    ]
    assert [c["action"] for c in data["history"]] == ["settle"]
    html = client.get(f"/groups/{group}").get_data(as_text=True)
    assert "Everybody is square." in html
    assert 'name="settle-plan"' not in html


def test_a_settle_up_drawn_before_a_payment_records_nothing(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    group = friday["group"]["id"]
    page = client.get(f"/groups/{group}").get_data(as_text=True)
    pay(client, group, "Ann", "Cid", "0.08")  # another phone, meanwhile
    client.post(f"/groups/{group}/settle", data={
        "settle-version": hidden(page, "settle-version"),
        "settle-plan": hidden(page, "settle-plan")})
    data = group_json(client, group)
    assert len(data["payments"]) == 1
    assert data["settle_up"] == [SETTLE_AT_START[0]]


def test_the_api_corrects_deletes_restores_and_settles_up(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    group, secret = friday["group"]["id"], friday["group"]["edit_secret"]
    url = f"/api/v1/groups/{group}"
    headers = {"X-Edit-Secret": secret}
    refused = client.post(f"{url}/payments", json={"from": "Bob", "to": "Cid", "amount": "1"})
    assert refused.status_code == 403
    made = client.post(f"{url}/payments", headers=headers,
                       json={"from": "Bob", "to": "Cid", "amount": "1.63", "date": "2026-12-01"})
    assert made.status_code == 201, made.get_json()
    payment = made.get_json()["payment"]
    assert made.get_json()["balances"] == {"Ann": "-0.08", "Bob": "0.00", "Cid": "0.08"}
    bad = client.patch(f"{url}/payments/{payment['id']}", headers=headers,
                       json={"amount": "0.001"})
    assert bad.status_code == 422
    patched = client.patch(f"{url}/payments/{payment['id']}", headers=headers,
                           json={"amount": "1.00", "date": "2026-12-02"})
    assert patched.status_code == 200, patched.get_json()
    assert patched.get_json()["balances"] == {"Ann": "-0.08", "Bob": "-0.63", "Cid": "0.71"}
    assert patched.get_json()["payment"]["date"] == "2026-12-02"
    old = patched.get_json()["version"] - 1
    stale = client.patch(f"{url}/payments/{payment['id']}", headers=headers,
                         json={"amount": "2.00", "version": old})
    assert stale.status_code == 409
    deleted = client.delete(f"{url}/payments/{payment['id']}", headers=headers)
    assert deleted.status_code == 200
    assert deleted.get_json()["balances"] == AT_START
    [change] = [c for c in deleted.get_json()["history"] if c["restorable"]]
    assert change["action"] == "delete"
    assert change["before"] == {"from": "Bob", "to": "Cid", "amount": "1.00",
                                "currency": "EUR", "date": "2026-12-02"}
    restored = client.post(f"{url}/changes/{change['id']}/restore", headers=headers)
    assert restored.status_code == 200, restored.get_json()
    assert restored.get_json()["balances"] == {"Ann": "-0.08", "Bob": "-0.63", "Cid": "0.71"}
    twice = client.post(f"{url}/changes/{change['id']}/restore", headers=headers)
    assert twice.status_code == 409

    version = restored.get_json()["version"]
    settled = client.post(f"{url}/settle-up", headers=headers, json={"version": version})
    assert settled.status_code == 201, settled.get_json()
    assert [(p["from"], p["to"], p["amount"]) for p in settled.get_json()["recorded"]] == [
        ("Bob", "Cid", "0.63"), ("Ann", "Cid", "0.08")]
    assert settled.get_json()["balances"] == {"Ann": "0.00", "Bob": "0.00", "Cid": "0.00"}
    again = client.post(f"{url}/settle-up", headers=headers, json={"version": version})
    assert again.status_code == 409
    assert len(group_json(client, group)["payments"]) == 3
    unversioned = client.post(f"{url}/settle-up", headers=headers, json={})
    assert unversioned.status_code == 422


def test_a_group_backup_carries_the_history_and_an_older_one_still_imports(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    """A deleted payment travels in the export's history and is restored after the
    import; a file without history or version (as exported before) imports with an
    empty history."""
    import io
    import json

    group, secret = friday["group"]["id"], friday["group"]["edit_secret"]
    headers = {"X-Edit-Secret": secret}
    made = client.post(f"/api/v1/groups/{group}/payments", headers=headers,
                       json={"from": "Bob", "to": "Cid", "amount": "1.63", "date": "2026-12-01"})
    client.delete(f"/api/v1/groups/{group}/payments/{made.get_json()['payment']['id']}",
                  headers=headers)
    document = json.loads(client.get(f"/groups/{group}/export.json").data)
    assert [c["action"] for c in document["groups"][0]["history"]] == ["record", "delete"]
    assert document["groups"][0]["version"] == 2

    def imported(doc: dict[str, Any]) -> Any:
        response = client.post("/import", data={
            "file": (io.BytesIO(json.dumps(doc).encode()), "group.json")},
            content_type="multipart/form-data")
        assert response.status_code == 302, response.get_data(as_text=True)
        return group_json(client, response.headers["Location"].rsplit("/", 1)[-1])

    copy = imported(document)
    assert (copy["version"], copy["payments"], copy["balances"]) == (2, [], AT_START)
    [deleted] = [c for c in copy["history"] if c["restorable"]]
    page = client.get(f"/groups/{copy['id']}/history").get_data(as_text=True)
    assert "2026-12-01: Bob paid Cid €1.63" in re.sub(r"<[^>]+>", "", page)
    back = client.post(f"/groups/{copy['id']}/changes/{deleted['id']}/restore",
                       data={"version": "2"})
    assert back.status_code == 302
    assert group_json(client, copy["id"])["balances"] == {"Ann": "-0.08", "Bob": "0.00",
                                                          "Cid": "0.08"}

    old = json.loads(json.dumps(document))
    del old["groups"][0]["history"], old["groups"][0]["version"]
    old["groups"][0]["payments"] = [{"from": "Ann", "to": "Cid", "amount": "0.08",
                                     "currency": "EUR", "date": "2026-12-01"}]
    older = imported(old)
    assert (older["version"], older["history"]) == (0, [])
    assert older["balances"] == {"Ann": "0.00", "Bob": "-1.63", "Cid": "1.63"}

    bad = json.loads(json.dumps(document))
    bad["groups"][0]["history"][1]["before"]["amount"] = "lots"
    refused = client.post("/import", data={
        "file": (io.BytesIO(json.dumps(bad).encode()), "group.json")},
        content_type="multipart/form-data")
    assert refused.status_code == 422
    assert "groups[0].history[1]" in refused.get_data(as_text=True)


def test_a_debt_is_written_with_the_minus_sign(client: FlaskClient) -> None:
    """Ann paid Bob 91 € with no game played: Ann is up 91,00 €, Bob down −91,00 € (U+2212
    MINUS SIGN, as every other negative number of the app), on the group's page and
    on the player's page, in Russian, English and Persian."""
    made = client.post("/api/v1/groups", json={
        "name": "Pair", "players": ["Ann", "Bob"], "stake": "0.01", "currency": "EUR"})
    group, secret = made.get_json()["id"], made.get_json()["edit_secret"]
    client.post(f"/api/v1/groups/{group}/payments", headers={"X-Edit-Secret": secret},
                json={"from": "Ann", "to": "Bob", "amount": "91"})
    expected = {"ru": ("+91,00\u00a0€", "\u221291,00\u00a0€"),
                "en": ("+€91.00", "\u2212€91.00"),
                "fa": ("+\u200e€\u00a091.00", "\u2212\u200e€\u00a091.00")}
    for language, (up, down) in expected.items():
        headers = {"Accept-Language": language}
        html = client.get(f"/groups/{group}", headers=headers).get_data(as_text=True)
        cells = dict(re.findall(
            r'<tr data-player="(\w+)"><th scope="row">.*?</th><td class="num balance">(.*?)</td>',
            html))
        assert cells == {"Ann": up, "Bob": down}, language
        player = client.get(f"/groups/{group}/players/Bob", headers=headers).get_data(
            as_text=True)
        assert f'<dd class="num balance">{down}</dd>' in player, language


@pytest.mark.slow  # a real server (waitress, several threads), CSRF on
def test_two_phones_recording_the_settling_up_at_once_record_it_once(
    base: str,
) -> None:
    """Ann paid Bob 10 with no game played: Ann is up 10.00, Bob down 10.00, settled by
    Bob paying Ann 10.00. Both phones send that form at the same moment; it is
    recorded once."""
    made = Browser(base).post_json("/api/v1/groups", {
        "name": "Pair", "players": ["Ann", "Bob"], "stake": "0.01", "currency": "EUR"})
    group = made.json()
    Browser(base).post_json(f"/api/v1/groups/{group['id']}/payments",
                            {"from": "Ann", "to": "Bob", "amount": "10"},
                            {"X-Edit-Secret": group["edit_secret"]})
    phones = [Browser(base), Browser(base)]
    forms = []
    for phone in phones:
        open_edit_link(phone, group["edit_url"])
        fields = hidden_fields(phone.get(f"/groups/{group['id']}").text)
        forms.append({key: fields[key] for key in ("csrf_token", "settle-version",
                                                   "settle-plan")})
    replies = at_once([lambda: phones[0].post_form(f"/groups/{group['id']}/settle", forms[0]),
                       lambda: phones[1].post_form(f"/groups/{group['id']}/settle", forms[1])])
    assert [r.status for r in replies] == [302, 302], [r.text[:300] for r in replies]
    data = Browser(base).get(f"/api/v1/groups/{group['id']}").json()
    assert [(p["from"], p["to"], p["amount"]) for p in data["payments"]] == [
        ("Ann", "Bob", "10"), ("Bob", "Ann", "10.00")]
    assert data["balances"] == {"Ann": "0.00", "Bob": "0.00"}
