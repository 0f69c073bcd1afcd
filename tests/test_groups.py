"""A small hand-made group: four games of three kinds, standings worked out by hand.

Friday (Ann, Bob, Cid), stake 0.01 EUR per point.

- G1 gin, russian, Ann v Bob (RULES §8's game with a gin, an undercut and a dead hand):
  Ann knocks 15; Bob knocks 47; dead; Ann knocks 55; Ann knocks 7 v 4: Bob undercuts 28;
  Ann gins v 8: 33. Ann 103 (3 boxes), Bob 75 (2): finals 278 – 125. Bob pays Ann 1.53.
- G2 gin, classic to 50, Bob v Cid: Cid knocks 3 v 10 (7); Bob gins v 30 (50).
  Finals 50 – 7. Cid pays Bob 0.43.
- G3 three-hand to 60, Ann box, Bob captain, Cid out: Bob knocks 4 v Ann 20 (+16); Bob
  (now box) gins v Cid 30 (+55). Finals Ann 0, Bob 71, Cid 0. Ann and Cid pay Bob 0.71.
- G4 Remi, one deal: Ann +20 −15 = 5, Bob −30, Cid goes out +30 with a 10 (+100) = 130.
  Bob pays Ann 0.35, Ann pays Cid 1.25, Bob pays Cid 1.60.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import version_of


def api(client: FlaskClient, path: str, body: dict[str, Any], secret: str | None = None) -> Any:
    headers = {"X-Edit-Secret": secret} if secret else {}
    response = client.post(f"/api/v1{path}", json=body, headers=headers)
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def knock(seat: int, k: int, d: int, outcome: str = "knock") -> dict[str, Any]:
    return {"outcome": outcome, "knocker": seat, "knocker_deadwood": k, "defender_deadwood": d}


DEAD = {"outcome": "dead"}


def play(client: FlaskClient, game: dict[str, Any], hands: list[dict[str, Any]]) -> None:
    for hand in hands:
        api(client, f"/games/{game['id']}/hands", hand, game["edit_secret"])


@pytest.fixture
def friday(client: FlaskClient) -> dict[str, Any]:
    """The group with its four games; this client may edit the group and every game."""
    group = api(
        client,
        "/groups",
        {"name": "Friday", "players": ["Ann", "Bob", "Cid"], "stake": "0.01", "currency": "EUR"},
    )
    secret = group["edit_secret"]
    games = {}
    specs = {
        "g1": {"variant": "gin", "rules": "russian", "players": ["Ann", "Bob"]},
        "g2": {
            "variant": "gin",
            "rules": {"preset": "classic", "target": 50},
            "players": ["Bob", "Cid"],
        },
        "g3": {
            "variant": "three_hand",
            "rules": {"preset": "three_hand", "target": 60},
            "players": ["Ann", "Bob", "Cid"],
            "dealer": 0,
            "captain": 1,
        },
        "g4": {
            "variant": "remi",
            "rules": {"preset": "remi", "deals": 1},
            "players": ["Ann", "Bob", "Cid"],
        },
    }
    for key, spec in specs.items():
        games[key] = api(client, "/games", {**spec, "group": group["id"]}, secret)
    play(
        client,
        games["g1"],
        [
            knock(0, 1, 16),
            knock(1, 2, 49),
            DEAD,
            knock(0, 5, 60),
            knock(0, 7, 4),
            knock(0, 0, 8, "gin"),
        ],
    )
    play(client, games["g2"], [knock(1, 3, 10), knock(0, 0, 30, "gin")])
    play(client, games["g3"], [knock(1, 4, 20), knock(0, 0, 30, "gin")])
    remi = {
        "went_out": 2,
        "discard_value": 10,
        "players": [{"plus": 20, "minus": 15}, {"plus": 0, "minus": 30}, {"plus": 30, "minus": 0}],
    }
    play(client, games["g4"], [remi])
    for game in [group, *games.values()]:
        client.get(game["edit_url"])  # this browser may now edit them all
    return {"group": group, **games}


def standings(client: FlaskClient, group: dict[str, Any]) -> dict[str, dict[str, Any]]:
    data = client.get(f"/api/v1/groups/{group['id']}").get_json()
    return {row["name"]: row for row in data["standings"]}


FIELDS = (
    "games",
    "wins",
    "finals",
    "margins",
    "hands",
    "hands_won",
    "gins",
    "undercuts",
    "undercuts_suffered",
    "knocks",
    "dead_hands",
    "boxes",
    "longest_streak",
    "biggest_hand",
    "balance",
)


def table(rows: dict[str, dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    return {name: tuple(row[f] for f in FIELDS) for name, row in rows.items()}


def test_standings_of_the_hand_made_group(client: FlaskClient, friday: dict[str, Any]) -> None:
    assert table(standings(client, friday["group"])) == {
        # games wins finals margins hands won gins uc ucs knocks dead boxes streak big bal
        "Ann": (3, 1, 283, -43, 8, 3, 1, 0, 1, 3, 1, 3, 1, 55, "-0.08"),
        "Bob": (4, 2, 216, -199, 11, 5, 2, 1, 0, 2, 1, 5, 2, 55, "-1.63"),
        "Cid": (3, 1, 137, 11, 4, 2, 0, 0, 0, 1, 0, 1, 1, 130, "1.71"),
    }


def test_head_to_head_settle_up_and_game_payments(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    data = client.get(f"/api/v1/groups/{friday['group']['id']}").get_json()
    assert [(h["players"], h["games"], h["wins"], h["net"]) for h in data["head_to_head"]] == [
        (["Ann", "Bob"], 3, [2, 1], 117),
        (["Ann", "Cid"], 2, [0, 1], -125),
        (["Bob", "Cid"], 3, [2, 1], -46),
    ]
    assert data["settle_up"] == [
        {"from": "Bob", "to": "Cid", "amount": "1.63", "currency": "EUR"},
        {"from": "Ann", "to": "Cid", "amount": "0.08", "currency": "EUR"},
    ]
    g3 = client.get(f"/api/v1/games/{friday['g3']['id']}").get_json()
    assert g3["payments"] == [
        {"from": "Ann", "to": "Bob", "amount": "0.71", "currency": "EUR"},
        {"from": "Cid", "to": "Bob", "amount": "0.71", "currency": "EUR"},
    ]


def stored_summary(app: Any, game_id: str) -> tuple[int, str, dict[str, Any]]:
    """The version, stamp and figures stored for a game's summary."""
    from scorekeeper.db import get_session
    from scorekeeper.models import GameSummary

    with app.app_context():
        row = get_session().get(GameSummary, game_id)
        assert row is not None
        return row.version, row.stamp, row.data


def test_a_correction_a_deletion_and_an_undo_change_the_standings(
    client: FlaskClient, friday: dict[str, Any], app: Any
) -> None:
    group, g1, g2, g3 = friday["group"], friday["g1"]["id"], friday["g2"]["id"], friday["g3"]["id"]
    standings(client, group)  # every game's summary is stored now; every change must show
    assert stored_summary(app, g2)[0] == 2
    assert stored_summary(app, g2)[2]["finals"] == {"Bob": 50, "Cid": 7}
    response = client.post(
        f"/g/{g2}/hands/1/edit",
        data={
            "outcome": "knock",
            "knocker": "1",
            "knocker_deadwood": "3",
            "defender_deadwood": "20",
            "version": version_of(client, g2),
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    rows = standings(client, group)
    assert (rows["Cid"]["finals"], rows["Cid"]["margins"], rows["Cid"]["balance"]) == (
        147,
        21,
        "1.81",
    )
    assert (rows["Bob"]["margins"], rows["Bob"]["balance"]) == (-209, "-1.73")
    # The correction is version 3 of G2: Cid knocks 3 v Bob's 20 (17), then Bob's gin (50).
    version, _stamp, data = stored_summary(app, g2)
    assert (version, data["finals"]) == (3, {"Bob": 50, "Cid": 17})

    client.post(f"/g/{g1}/hands/3/delete", data={"version": version_of(client, g1)})
    rows = standings(client, group)
    assert [(rows[n]["hands"], rows[n]["dead_hands"]) for n in ("Ann", "Bob")] == [(7, 0), (10, 0)]
    version, _stamp, data = stored_summary(app, g1)  # G1 without its dead hand
    assert (version, data["figures"]["Ann"]["hands"], data["finals"]) == (
        7,
        5,
        {"Ann": 278, "Bob": 125},
    )

    client.post(f"/g/{g3}/undo", data={"version": version_of(client, g3)})
    rows = standings(client, group)
    version, _stamp, data = stored_summary(app, g3)  # G3 back to Bob's first knock
    assert (version, data["finished"], data["finals"]) == (3, False, {})
    assert {n: (r["games"], r["wins"], r["balance"]) for n, r in rows.items()} == {
        "Ann": (2, 1, "0.63"),
        "Bob": (3, 1, "-3.15"),
        "Cid": (2, 1, "2.52"),
    }


def test_the_group_page_shows_standings_balances_and_settle_up(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    import re

    html = client.get(f"/groups/{friday['group']['id']}").get_data(as_text=True)

    def cell(table_class: str, player: str, cls: str) -> str:
        block = re.search(rf'<table class="sheet {table_class}">(.*?)</table>', html, re.S)
        assert block, table_class
        row = re.search(rf'<tr data-player="{player}">(.*?)</tr>', block.group(1), re.S)
        assert row, player
        found = re.search(rf'<td class="num {cls}">(.*?)</td>', row.group(1), re.S)
        assert found, cls
        return found.group(1).strip()

    assert cell("standings", "Bob", "wins") == "2"
    assert cell("standings", "Ann", "margins") == "\u221243"  # the minus sign
    assert cell("standings-hands", "Bob", "gins") == "2"
    assert cell("balances", "Cid", "balance") == "+€1.71"
    assert cell("balances", "Ann", "balance") == "\u2212€0.08"  # the minus sign, not "-"
    settle = re.search(r'<div class="settle-up">(.*?)</div>', html, re.S)
    assert settle
    assert re.findall(r"<li>(.*?)</li>", settle.group(1)) == [
        "<bdi>Bob</bdi> pays <bdi>Cid</bdi> €1.63",
        "<bdi>Ann</bdi> pays <bdi>Cid</bdi> €0.08",
    ]


def test_a_recorded_payment_moves_the_balances(client: FlaskClient, friday: dict[str, Any]) -> None:
    group = friday["group"]["id"]
    response = client.post(
        f"/groups/{group}/payments",
        data={
            "payment-payer": "Bob",
            "payment-payee": "Cid",
            "payment-amount": "1.63",
            "payment-paid_on": "2026-12-01",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    data = client.get(f"/api/v1/groups/{group}").get_json()
    assert data["balances"] == {"Ann": "-0.08", "Bob": "0.00", "Cid": "0.08"}
    assert data["settle_up"] == [{"from": "Ann", "to": "Cid", "amount": "0.08", "currency": "EUR"}]
    assert data["payments"] == [{"id": data["payments"][0]["id"], "from": "Bob", "to": "Cid",
                                 "amount": "1.63", "currency": "EUR", "date": "2026-12-01"}]
    bad = client.post(
        f"/groups/{group}/payments",
        data={
            "payment-payer": "Bob",
            "payment-payee": "Cid",
            "payment-amount": "1.234",
            "payment-paid_on": "2026-12-01",
        },
    )
    assert bad.status_code == 422
    assert 'value="1.234"' in bad.get_data(as_text=True)


def test_the_filters_count_one_kind_only(client: FlaskClient, friday: dict[str, Any]) -> None:
    html = client.get(f"/groups/{friday['group']['id']}/players/Bob?kind=gin").get_data(
        as_text=True
    )
    import re

    games = re.search(r'<dd class="num games">(\d+)</dd>', html)
    assert games and games.group(1) == "2"


def test_a_group_round_trip_keeps_standings_and_every_cent(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    import io
    import json

    group = friday["group"]["id"]
    client.post(
        f"/groups/{group}/payments",
        data={
            "payment-payer": "Bob",
            "payment-payee": "Cid",
            "payment-amount": "0.07",
            "payment-paid_on": "2026-11-30",
        },
    )
    before = client.get(f"/api/v1/groups/{group}").get_json()
    exported = client.get(f"/groups/{group}/export.json")
    assert exported.status_code == 200
    response = client.post(
        "/import",
        data={"file": (io.BytesIO(exported.data), "group.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert new_id != group
    after = client.get(f"/api/v1/groups/{new_id}").get_json()
    for key in (
        "name",
        "players",
        "stake",
        "currency",
        "standings",
        "head_to_head",
        "balances",
        "settle_up",
        "version",
    ):
        assert after[key] == before[key], key
    # Payments and their history come along (with new ids).
    assert [{k: v for k, v in p.items() if k != "id"} for p in after["payments"]] == [
        {k: v for k, v in p.items() if k != "id"} for p in before["payments"]]
    assert [(c["action"], c["after"]) for c in after["history"]] == [
        ("record", {"from": "Bob", "to": "Cid", "amount": "0.07", "currency": "EUR",
                    "date": "2026-11-30"})]
    assert after["balances"] == {"Ann": "-0.08", "Bob": "-1.56", "Cid": "1.64"}
    assert [g["finals"] for g in after["games"]] == [g["finals"] for g in before["games"]]
    assert {g["id"] for g in after["games"]}.isdisjoint(g["id"] for g in before["games"])
    assert json.loads(exported.data)["groups"][0]["payments"][0]["amount"] == "0.07"


def new_group(client: FlaskClient, **extra: str) -> str:
    data = {"name": "Couple", "players": "Ann\nBob", "stake": "0.02", "currency": "usd", **extra}
    response = client.post("/groups/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[-1]


def test_a_group_made_on_its_page_starts_games_that_count_for_it(
    client: FlaskClient, app: Any
) -> None:
    group = new_group(client)
    page = client.get(f"/games/new?group={group}&variant=three_hand&p=Bob&p=Ann")
    html = page.get_data(as_text=True)
    import re

    def value(name: str) -> str:
        found = re.search(rf'<input[^>]* name="{name}"[^>]* value="([^"]*)"', html)
        assert found, name
        return found.group(1)

    assert [value(n) for n in ("player1", "player2", "player3", "stake", "group")] == [
        "Bob",
        "Ann",
        "",
        "0.02",
        group,
    ]
    response = client.post(
        "/games/new",
        data={
            "variant": "gin",
            "player1": "Ann",
            "player2": "Zoe",
            "preset": "classic",
            "dealer": "0",
            "group": group,
            "stake": "0.02",
            "currency": "USD",
        },
    )
    assert response.status_code == 302
    game = response.headers["Location"].rsplit("/", 1)[-1]
    data = client.get(f"/api/v1/groups/{group}").get_json()
    assert data["players"] == ["Ann", "Bob", "Zoe"]  # Zoe joined the roster
    assert (data["stake"], data["currency"]) == ("0.02", "USD")
    assert [g["id"] for g in data["games"]] == [game]
    for _ in range(2):  # classic to 100: two gins of 50 (30 + 20)
        r = client.post(
            f"/g/{game}/hands",
            data={
                "outcome": "gin",
                "knocker": "0",
                "defender_deadwood": "30",
                "version": version_of(client, game),
            },
        )
        assert r.status_code == 302
    rematch = client.post(f"/g/{game}/rematch")
    new = rematch.headers["Location"].rsplit("/", 1)[-1]
    data = client.get(f"/api/v1/groups/{group}").get_json()
    assert sorted(g["id"] for g in data["games"]) == sorted([game, new])
    assert client.get(f"/api/v1/games/{new}").get_json()["stake"] == "0.02"


def test_a_bad_stake_on_the_new_game_page_is_shown_at_the_field(client: FlaskClient) -> None:
    response = client.post(
        "/games/new",
        data={
            "variant": "gin",
            "player1": "Ann",
            "player2": "Bob",
            "preset": "classic",
            "dealer": "0",
            "stake": "1,2,3",
        },
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert 'value="1,2,3"' in html
    assert "A stake is a number more than 0 with at most 6 decimals, like 0.01." in html


def test_watchers_cannot_change_a_group_until_they_enter_its_pin(app: Any) -> None:
    owner, watcher = app.test_client(), app.test_client()
    group = new_group(owner, pin="4321")
    assert watcher.get(f"/groups/{group}").status_code == 200
    assert watcher.post(f"/groups/{group}/payments", data={}).status_code == 403
    assert watcher.post(f"/groups/{group}/settings", data={}).status_code == 403
    assert watcher.get(f"/games/new?group={group}").status_code == 403
    assert watcher.post(f"/groups/{group}/unlock", data={"pin": "1111"}).status_code == 422
    assert watcher.post(f"/groups/{group}/unlock", data={"pin": "4321"}).status_code == 302
    response = watcher.post(
        f"/groups/{group}/payments",
        data={
            "payment-payer": "Ann",
            "payment-payee": "Bob",
            "payment-amount": "1",
            "payment-paid_on": "2026-12-01",
        },
    )
    assert response.status_code == 302


def test_a_game_goes_into_a_group_and_out_only_with_both_edit_rights(
    client: FlaskClient, app: Any
) -> None:
    from tests.helpers import new_game as start

    game = start(client)
    group = new_group(client)
    assert client.post(f"/groups/{group}/games", data={"add-game": game}).status_code == 302
    data = client.get(f"/api/v1/groups/{group}").get_json()
    assert [g["id"] for g in data["games"]] == [game]
    assert client.get(f"/api/v1/games/{game}").get_json()["stake"] == "0.02"
    other = app.test_client()
    other.get(f"/groups/{group}?key={_secret(app, group)}")  # edits the group, not the game
    assert other.post(f"/groups/{group}/games/{game}/remove").status_code == 403
    assert client.post(f"/groups/{group}/games/{game}/remove").status_code == 302
    assert client.get(f"/api/v1/groups/{group}").get_json()["games"] == []


def _secret(app: Any, group_id: str) -> str:
    from scorekeeper.models import Group

    with app.app_context():
        from scorekeeper.db import get_session

        found = get_session().get(Group, group_id)
        assert found is not None
        return found.edit_secret


def test_summaries_are_stored_and_replaced_when_the_engine_changes(
    client: FlaskClient, friday: dict[str, Any], app: Any
) -> None:
    from sqlalchemy import select

    from scorekeeper.db import get_session
    from scorekeeper.models import GameSummary
    from scorekeeper.services.scoring_stamp import SCORING_STAMP

    before = standings(client, friday["group"])
    with app.app_context():
        rows = get_session().scalars(select(GameSummary)).all()
        assert len(rows) == 4
        assert {row.stamp for row in rows} == {SCORING_STAMP}
        g1 = next(r for r in rows if r.game_id == friday["g1"]["id"])
        g1.data = {**g1.data, "finals": {"Ann": 0, "Bob": 999}}  # what an old engine said
        g1.stamp = "an older engine"
        get_session().commit()
    assert standings(client, friday["group"]) == before  # replayed, not read back
    version, stamp, data = stored_summary(app, friday["g1"]["id"])
    assert (version, stamp, data["finals"]) == (6, SCORING_STAMP, {"Ann": 278, "Bob": 125})


def test_a_stored_summary_is_what_the_page_reads(
    client: FlaskClient, friday: dict[str, Any], app: Any
) -> None:
    """A summary of the game's version and stamp is read back, not replayed: one stored
    with other finals shows them (nothing is remembered in the process besides)."""
    from scorekeeper.db import get_session
    from scorekeeper.models import GameSummary

    assert standings(client, friday["group"])["Cid"]["finals"] == 7 + 0 + 130
    with app.app_context():
        row = get_session().get(GameSummary, friday["g2"]["id"])
        assert row is not None
        row.data = {**row.data, "finals": {"Bob": 50, "Cid": 40}}
        get_session().commit()
    assert standings(client, friday["group"])["Cid"]["finals"] == 40 + 0 + 130


def test_a_bad_group_form_keeps_what_was_typed_and_says_where(client: FlaskClient) -> None:
    import re

    response = client.post(
        "/groups/new",
        data={"name": "Club", "players": "Ann\nBob", "stake": "0.01", "currency": "EURO"},
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    errors = re.findall(r'<div class="field has-error">\s*<label for="(\w+)"', html)
    assert errors == ["currency"]
    assert 'value="EURO"' in html


def test_the_head_to_head_picture_has_one_bar_per_pair_longest_lead_first(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    import re
    import xml.etree.ElementTree as ET

    html = client.get(f"/groups/{friday['group']['id']}").get_data(as_text=True)
    found = re.search(r'<figure class="chart h2h">(.*?)</figure>', html, re.S)
    assert found
    svg = ET.fromstring(found.group(1))
    ns = "{http://www.w3.org/2000/svg}"
    widths = [rect.get("width") for rect in svg.iter(f"{ns}rect")]
    labels = ["".join(t.itertext()).strip("\u2068\u2069") for t in svg.iter(f"{ns}text")]
    assert widths == ["114", "106.7", "42"]  # 114 × 125/125, × 117/125, × 46/125
    assert [label.replace("\u2068", "").replace("\u2069", "") for label in labels] == [
        "Ann v Cid",
        "Cid +125",
        "Ann v Bob",
        "Ann +117",
        "Bob v Cid",
        "Cid +46",
    ]
    assert svg.find(f"{ns}desc") is not None


def test_balances_add_up_one_currency_when_the_group_has_none(client: FlaskClient) -> None:
    """A group without a stake of its own, three games with stakes of their own, each won
    50 – 0 (classic to 50, no bonuses: one knock of 52 − 2): Ann wins for 0.10 EUR a point
    (Bob pays €5.00), Bob wins for 10 IRR (Ann pays IRR 500), Bob wins for 0.02 EUR (Ann
    pays €1.00). The balances are in the first staked game's currency, EUR: Ann +4.00,
    Bob −4.00; the IRR game keeps its own payment but is left out of them (adding 500
    rials to euros made Ann −496 "something" before)."""
    group = api(client, "/groups", {"name": "Couch", "players": ["Ann", "Bob"]})
    secret = group["edit_secret"]
    for stake, currency, winner in (("0.10", "EUR", 0), ("10", "IRR", 1), ("0.02", "EUR", 1)):
        game = api(client, "/games", {"rules": {"preset": "classic", "target": 50},
                                      "players": ["Ann", "Bob"], "group": group["id"],
                                      "stake": stake, "currency": currency}, secret)
        play(client, game, [knock(winner, 2, 52)])
    data = client.get(f"/api/v1/groups/{group['id']}").get_json()
    assert (data["currency"], data["balance_currency"]) == (None, "EUR")
    assert data["balances"] == {"Ann": "4.00", "Bob": "-4.00"}
    assert data["settle_up"] == [{"from": "Bob", "to": "Ann", "amount": "4.00", "currency": "EUR"}]
    rials = next(game for game in data["games"] if game["currency"] == "IRR")
    assert rials["payments"] == [{"from": "Ann", "to": "Bob", "amount": "500", "currency": "IRR"}]

    page = " ".join(client.get(f"/groups/{group['id']}").get_data(as_text=True).split())
    assert '<td class="num balance">+€4.00</td>' in page
    assert '<td class="num balance">\u2212€4.00</td>' in page
    assert "<bdi>Bob</bdi> pays <bdi>Ann</bdi> €4.00" in page
    assert "Games played for IRR are not in these balances: they add up EUR only." in page

    client.get(group["edit_url"])  # this browser may now edit the group
    form = " ".join(client.get(f"/groups/{group['id']}").get_data(as_text=True).split())
    # The payment form starts as the first payment "settle up" suggests.
    assert '<option selected value="Bob">Bob</option>' in form.split('name="payment-payer"')[1]
    assert '<option selected value="Ann">Ann</option>' in form.split('name="payment-payee"')[1]
    assert re.search(r"<input[^>]*name=\"payment-amount\"[^>]*value=\"4.00\"", form)
    paid = client.post(f"/groups/{group['id']}/payments", data={
        "payment-payer": "Bob", "payment-payee": "Ann", "payment-amount": "4",
        "payment-paid_on": "2026-12-01"})
    assert paid.status_code == 302
    data = client.get(f"/api/v1/groups/{group['id']}").get_json()
    assert data["payments"][0]["currency"] == "EUR"
    assert (data["balances"], data["settle_up"]) == ({"Ann": "0.00", "Bob": "0.00"}, [])


def test_russian_head_to_head_names_the_pair_with_a_dash(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    """«Ann против Bob» reads wrong in Russian: after «против» a name takes the genitive
    («против Боба»), which a name typed at the table cannot; a dash reads right."""
    html = client.get(f"/groups/{friday['group']['id']}",
                      headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert '<th scope="row"><bdi>Ann</bdi> — <bdi>Bob</bdi></th>' in html
    assert "против" not in html


def test_a_russian_page_starts_the_payment_with_a_decimal_comma(
    client: FlaskClient, friday: dict[str, Any]
) -> None:
    """Settle up's first payment is Bob → Cid 1.63 € (see the module's docstring); a
    Russian page offers it as «1,63», as a Russian player types it, and takes it back."""
    group = friday["group"]["id"]
    html = client.get(f"/groups/{group}", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert re.search(r'<input[^>]*name="payment-amount"[^>]*value="1,63"', html)
    paid = client.post(f"/groups/{group}/payments", headers={"Accept-Language": "ru"}, data={
        "payment-payer": "Bob", "payment-payee": "Cid", "payment-amount": "1,63",
        "payment-paid_on": "2026-12-01"})
    assert paid.status_code == 302
    balances = client.get(f"/api/v1/groups/{group}").get_json()["balances"]
    assert balances == {"Ann": "-0.08", "Bob": "0.00", "Cid": "0.08"}


def test_head_to_head_keeps_each_players_own_result_whatever_the_seat_order(
    client: FlaskClient,
) -> None:
    """Zoe sits first at both tables, so a pair's names and finals must turn round
    together to read alphabetically. G1 gin, classic to 50: Zoe knocks 2 v 52, 50 – 0.
    G2 Remi, one deal, Zoe, Max, Ann: Zoe goes out +30 with a 10 (+100) = 130, Max +20 −15
    = 5, Ann −30. Ann v Zoe: two games, Zoe both, net (0 − 50) + (−30 − 130) = −210;
    Ann v Max: −30 against 5, −35; Max v Zoe: 5 against 130, −125."""
    group = api(client, "/groups", {"name": "Late", "players": ["Zoe", "Max", "Ann"]})
    secret = group["edit_secret"]
    gin = api(client, "/games", {"rules": {"preset": "classic", "target": 50},
                                 "players": ["Zoe", "Ann"], "group": group["id"]}, secret)
    play(client, gin, [knock(0, 2, 52)])
    remi = api(client, "/games", {"variant": "remi", "rules": {"preset": "remi", "deals": 1},
                                  "players": ["Zoe", "Max", "Ann"], "group": group["id"]}, secret)
    play(client, remi, [{
        "went_out": 0,
        "discard_value": 10,
        "players": [{"plus": 30, "minus": 0}, {"plus": 20, "minus": 15}, {"plus": 0, "minus": 30}],
    }])
    data = client.get(f"/api/v1/groups/{group['id']}").get_json()
    assert [(h["players"], h["games"], h["wins"], h["net"]) for h in data["head_to_head"]] == [
        (["Ann", "Max"], 1, [0, 1], -35),
        (["Ann", "Zoe"], 2, [0, 2], -210),
        (["Max", "Zoe"], 1, [0, 1], -125),
    ]

    page = client.get(f"/groups/{group['id']}").get_data(as_text=True)
    rows = re.findall(r'<tr data-pair="([^"]+)">\s*<th scope="row">.*?</th>\s*'
                      r'<td class="num">(\d+)</td>\s*<td class="num record">([^<]*)</td>\s*'
                      r'<td class="num net">([^<]*)</td>', page)
    assert rows == [("Ann|Max", "1", "0–1", "\u221235"), ("Ann|Zoe", "2", "0–2", "\u2212210"),
                    ("Max|Zoe", "1", "0–1", "\u2212125")]

    def against(player: str) -> list[tuple[str, ...]]:
        html = client.get(f"/groups/{group['id']}/players/{player}").get_data(as_text=True)
        table = html.split('<table class="sheet head-to-head">', 1)[1].split("</table>", 1)[0]
        return re.findall(r'<th scope="row"><bdi>([^<]*)</bdi></th>\s*<td class="num">(\d+)</td>\s*'
                          r'<td class="num">([^<]*)</td>\s*<td class="num">([^<]*)</td>', table)

    assert against("Zoe") == [("Ann", "2", "2–0", "+210"), ("Max", "1", "1–0", "+125")]
    assert against("Ann") == [("Max", "1", "0–1", "\u221235"), ("Zoe", "2", "0–2", "\u2212210")]


@pytest.mark.parametrize(("lang", "said"), [("en", "1 game imported."),
                                             ("ru", "Импортирована 1 партия.")])
def test_importing_a_group_of_one_game_says_one_game(
    client: FlaskClient, lang: str, said: str
) -> None:
    import io

    group = client.post("/api/v1/groups", json={"name": "Friday",
                                                "players": ["Ann", "Bob"]}).get_json()
    made = client.post("/api/v1/games", json={"players": ["Ann", "Bob"], "group": group["id"]},
                       headers={"X-Edit-Secret": group["edit_secret"]})
    assert made.status_code == 201, made.get_data(as_text=True)
    exported = client.get(f"/groups/{group['id']}/export.json")
    assert exported.status_code == 200
    response = client.post("/import", data={"file": (io.BytesIO(exported.data), "group.json")},
                           content_type="multipart/form-data", follow_redirects=True,
                           headers={"Accept-Language": lang})
    assert response.status_code == 200
    assert said in response.get_data(as_text=True)
