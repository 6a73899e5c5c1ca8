"""dipsat serve's HTTP API (docs/serve.md) through Starlette's TestClient: the same JSON as
`dipsat adjudicate --format json`, pictures as SVG, the views of --all/--compare, and every bad
request a 4xx JSON error naming what was wrong (never a 500, never a traceback)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import warnings

import pytest


from .conftest import CASES, run

pytest.importorskip("starlette", reason="the web extra (pip install '.[web]') is in the test extra")
with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 to httpx; both drive the same TestClient
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from dipsat.web.app import Limits, create_app  # noqa: E402

F24_ORDERS = """England:
F Edinburgh - North Sea
F London Supports F Edinburgh - North Sea
F Irish Sea - English Channel
F Mid-Atlantic Ocean Supports F Irish Sea - English Channel

France:
A Brest - London
F English Channel Convoys A Brest - London
F Belgium Supports F English Channel

Russia:
A Norway - Belgium
F North Sea Convoys A Norway - Belgium
"""


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Limits(timeout=20, max_bytes=200_000))) as c:
        yield c


def cli_json(*args: str) -> dict:
    out = run("adjudicate", *args, "--format", "json")
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def without_extras(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("pictures", "input")}


def test_adjudicate_answers_what_the_command_line_writes(client, tmp_path):
    case_text = (CASES / "rulebook" / "figures.txt").read_text(encoding="utf-8")
    orders = "France: A mar - bur\nFrance: A gas S A mar - bur\nGermany: A bur H\n"
    (tmp_path / "orders.txt").write_text(orders)
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"variant": "standard", "phase": "S1901M", "units": [{"power": "France", "kind": "A", "location": "mar"},
                                              {"power": "France", "kind": "A", "location": "gas"},
                                              {"power": "Germany", "kind": "A", "location": "bur"}]}))
    answer = client.post("/api/adjudicate", json={"position": position.read_text(), "orders": orders,
                                                  "rules": "2000", "pictures": False})
    assert answer.status_code == 200
    expected = cli_json(str(position), str(tmp_path / "orders.txt"), "--rules", "2000")
    assert without_extras(answer.json()) == expected
    assert [o["result"] for o in answer.json()["orders"]] == ["succeeds", "succeeds", "dislodged"]
    assert case_text  # the bundled cases are there for /api/case below


def test_a_datc_test_pasted_as_the_datc_writes_it_gives_the_datc_result(client):
    """6.F.24's orders under its power names, no position: the units are the ones the orders
    name; under the DATC's preferred rules the paradox is settled by Szykman (the Channel
    fleet survives, Edinburgh dislodges the North Sea fleet)."""
    answer = client.post("/api/adjudicate", json={"position": "", "orders": F24_ORDERS, "rules": "datc",
                                                  "explain": True, "all": True})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    results = {o["order"]: o["result"] for o in data["orders"]}
    assert results["England: F edi - nth"] == "succeeds"
    assert results["France: A bre - lon"] == "paradox"
    assert results["Russia: F nth C A nwy - bel"] == "paradox"
    assert [d["location"] for d in data["dislodged"]] == ["nth"]
    assert data["alternatives"]["count"] == 0 and data["alternatives"]["backup_rules"]
    assert "France: F eng C A bre - lon" in data["alternatives"]["paradox_core"]
    assert data["input"]["note"].startswith("the units the orders name")
    explained = {e["order"]: e["facts"] for e in data["explanations"] if e["order"]}
    assert any("4.A.2" in fact for fact in explained["France: A bre - lon"])
    svg = data["pictures"]["board"]
    assert svg.startswith("<svg") and 'id="order-move-bre-lon"' in svg and "paradox" in svg


def test_the_same_paste_under_a_case_file_agrees_with_the_case(client):
    case = client.get("/api/case", params={"id": "6.f.24"})
    assert case.status_code == 200
    assert case.json()["id"] == "6.F.24" and "PRESTATE" in case.json()["text"]
    from_case = client.post("/api/adjudicate", json={"position": case.json()["text"], "pictures": False}).json()
    pasted = client.post("/api/adjudicate", json={"orders": F24_ORDERS, "position": "", "rules": "datc",
                                                  "pictures": False}).json()
    assert from_case["rules"] == "datc"  # the case's RULES line when the request names none
    assert [(o["order"], o["result"]) for o in from_case["orders"]] == \
        [(o["order"], o["result"]) for o in pasted["orders"]]


def test_rules_overrides_and_compare(client):
    case = client.get("/api/case", params={"id": "6.F.24"}).json()["text"]
    data = client.post("/api/adjudicate", json={"position": case, "rules": "2000 4.A.2=szykman",
                                                "compare": "1971,datc", "pictures": True}).json()
    assert data["rules"] == "2000 4.A.2=f"  # the option by its DATC v3.0 key
    assert data["comparison"]["profiles"] == ["1971", "datc"]
    assert set(data["pictures"]["compare"]) == {"1971", "datc"}
    assert all(svg.startswith("<svg") for svg in data["pictures"]["compare"].values())
    same = client.post("/api/adjudicate", json={"position": case, "rules": "2000",
                                                "compare": "2000,2000", "pictures": False}).json()
    assert same["comparison"]["all_agree"] is True


def test_step_to_the_retreat_phase_with_the_next_position(client):
    position = {"variant": "standard", "phase": "F1901M", "units": [{"power": "Germany", "kind": "A", "location": "mun"},
                          {"power": "Germany", "kind": "A", "location": "ruh"},
                          {"power": "France", "kind": "A", "location": "bur"}]}
    first = client.post("/api/adjudicate", json={"position": position, "pictures": False,
                                                 "orders": "Germany: A mun - bur\nGermany: A ruh S A mun - bur"}).json()
    nxt = first["input"]["next"]
    assert nxt["phase"]["kind"] == "Retreat" and nxt["dislodged"][0]["location"] == "bur"
    second = client.post("/api/adjudicate", json={"position": json.dumps(nxt), "orders": "France: A bur R pic",
                                                  "pictures": False}).json()
    assert [(o["order"], o["result"]) for o in second["orders"]] == [("France: A bur R pic", "succeeds")]
    assert "CASE" in first["input"]["case"] and "POSTSTATE" in first["input"]["case"]


def test_rejected_lines_are_listed_not_guessed(client):
    data = client.post("/api/adjudicate", json={"orders": "France: A par - bur\nFrance: A mar - bugr",
                                                "pictures": False}).json()
    assert [o["order"] for o in data["orders"]] == ["France: A par - bur"]
    assert data["rejected"][0]["line"] == 2 and "bugr" in data["rejected"][0]["text"]


def test_draw_gives_the_position_as_json_and_picture(client):
    data = client.post("/api/draw", json={"position": "standard"}).json()
    assert len(data["state"]["units"]) == 22 and data["pictures"]["board"].startswith("<svg")
    assert data["coasts"]["stp"] == ["nc", "sc"] and "England" in data["powers"]


@pytest.mark.parametrize("body, field", [
    ({"position": 7}, "position"),
    ({"orders": ["A par - bur"]}, "orders"),
    ({"rules": "1999"}, "rules"),
    ({"rules": "2000 4.A.2=nonsense"}, "rules"),
    ({"compare": "2000,1899"}, "compare"),
    ({"position": "{\"variant\": \"standard\", \"phase\": \"S1901M\", \"units\": [{\"power\": \"Narnia\", \"kind\": \"A\", \"location\": \"par\"}]}"}, "Narnia"),
    ({"position": "CASE x\nPRESTATE\n  France: A xyz\n"}, "position"),
    ({"position": "/etc/passwd"}, "position"),
    ({"position": "../../cases/datc/6a_basic.txt"}, "position"),
    ({"position": "standard", "case": 3}, "case"),
    ({"explain": "yes"}, "explain"),
    ({"area": "xyz,qqq"}, "area"),
    ({"bogus": 1}, "bogus"),
    ([1, 2], "object"),
])
def test_bad_requests_are_4xx_json_naming_the_field(client, body, field):
    answer = client.post("/api/adjudicate", json=body)
    assert 400 <= answer.status_code < 500, answer.text
    error = answer.json()
    assert set(error) == {"error", "problems"} and error["problems"]
    assert field in " ".join(error["problems"])
    assert "Traceback" not in answer.text


def test_malformed_oversized_and_unknown_requests(client):
    assert client.post("/api/adjudicate", content=b"{not json").status_code == 400
    assert client.post("/api/adjudicate", content=b"\xff\xfe").status_code == 400
    big = client.post("/api/adjudicate", content=b'{"orders": "' + b"x" * 300_000 + b'"}')
    assert big.status_code == 413 and "bytes" in big.json()["error"]
    many = client.post("/api/adjudicate", json={"orders": "France: A par H\n" * 600})
    assert many.status_code == 413
    assert client.get("/api/adjudicate").status_code == 405
    assert client.get("/api/case", params={"id": "9.Z.99"}).status_code == 404
    assert client.get("/api/case").status_code == 400
    assert client.get("/static/../app.py").status_code == 404
    missing = client.get("/nowhere")
    assert missing.status_code == 404 and missing.json()["error"]


def test_the_page_and_its_files_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="adjudicate"' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    for text in (page.text, client.get("/static/app.js").text, client.get("/static/style.css").text):
        assert "://" not in text.replace("http://www.w3.org", "")  # nothing fetched from elsewhere


def test_rules_and_cases_catalogues(client):
    rules = client.get("/api/rules").json()
    assert {"2000", "datc", "1971"} <= {p["name"] for p in rules["profiles"]}
    cases = client.get("/api/cases").json()["cases"]
    assert any(c["id"] == "6.F.24" for c in cases)


def test_a_slow_adjudication_is_cut_off_and_does_not_block_the_others(monkeypatch):
    """--timeout: a request past it is a 503 JSON error; meanwhile other requests are served."""
    import dipsat.web.app as app_module

    release = threading.Event()

    def slow(request):
        release.wait(5)
        return {"slow": True}

    monkeypatch.setattr(app_module, "draw_request", slow)
    with TestClient(create_app(Limits(timeout=0.5))) as c:
        started = time.monotonic()
        result: dict = {}
        worker = threading.Thread(target=lambda: result.update(r=c.post("/api/draw", json={})))
        worker.start()
        time.sleep(0.1)
        quick = c.post("/api/adjudicate", json={"orders": "France: A par - bur", "pictures": False})
        assert quick.status_code == 200 and time.monotonic() - started < 3
        worker.join(5)
        assert result["r"].status_code == 503 and "--timeout" in result["r"].json()["error"]
        release.set()


def test_a_late_adjudication_keeps_its_slot_until_it_is_done(monkeypatch):
    """At most Limits.workers adjudications run at once, also counting those whose answer came
    too late: a request that finds no free slot within the time limit is a 503."""
    import dipsat.web.app as app_module

    release = threading.Event()
    monkeypatch.setattr(app_module, "draw_request", lambda request: (release.wait(10), {"slow": True})[1])
    with TestClient(create_app(Limits(timeout=0.5, workers=1))) as c:
        assert c.post("/api/draw", json={}).status_code == 503  # too late; its thread still works
        busy = c.post("/api/adjudicate", json={"orders": "France: A par - bur", "pictures": False})
        assert busy.status_code == 503 and "busy" in busy.json()["error"]
        release.set()
        deadline = time.monotonic() + 5
        while (free := c.post("/api/adjudicate", json={"pictures": False})).status_code != 200:
            assert time.monotonic() < deadline, free.text
        assert free.json()["orders"] == []


def test_the_command_line_does_not_import_the_web_layer():
    code = ("import sys; from dipsat.cli import main\n"
            "try:\n    main(['rules'], prog_name='dipsat')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn') or "
            "m.startswith('dipsat.web')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]"


def test_serve_says_when_it_is_not_on_loopback(monkeypatch):
    import dipsat.web.app as app_module

    calls = []
    monkeypatch.setattr(app_module, "serve", lambda host, port, limits, ready: calls.append((host, port, limits)))
    out = run("serve", "--host", "0.0.0.0", "--port", "9999", "--timeout", "3")
    assert out.exit_code == 0, out.output
    assert "not loopback" in out.stderr
    assert calls[0][0] == "0.0.0.0" and calls[0][1] == 9999 and calls[0][2].timeout == 3
    quiet = run("serve")
    assert "not loopback" not in quiet.stderr and calls[1][0] == "127.0.0.1" and calls[1][1] == 8765


def test_serve_starts_answers_and_stops_cleanly_on_ctrl_c():
    """The command as people run it: it says where it is, answers, and Ctrl-C (SIGINT) stops it
    with exit status 0 and no traceback."""
    import signal
    import socket
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "dipsat.cli", "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        assert f"http://127.0.0.1:{port}/" in line, line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rules", timeout=10) as answer:
            assert json.load(answer)["default"]
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "Traceback" not in err and "stopped" in err


def test_a_recorded_game_is_read_phase_by_phase(client):
    """A whole game (a dipsat game file, a godip history): its phases listed, each adjudicated
    with its recorded orders; the first when none is named."""
    from dipsat.formats.godip import write_godip_game
    from dipsat.game import new_game
    from dipsat.notation import parse_orders
    from dipsat.runners.recorded import game_record

    game = new_game("standard")
    for text in ("France: A par - bur\nGermany: A mun - ruh", "France: A bur - mun\nGermany: A ruh - bel"):
        orders, errors = parse_orders(text, game.state.variant, game.state.phase.kind)
        assert not errors
        game.play(orders)
    for text in (game.dumps(), write_godip_game(game_record(game))):
        first = client.post("/api/adjudicate", json={"position": text, "pictures": False}).json()
        assert first["input"]["phases"][:2] == ["S1901M", "F1901M"] and first["input"]["phase"] == "S1901M"
        assert ("France: A par - bur", "succeeds") in [(o["order"], o["result"]) for o in first["orders"]]
        fall = client.post("/api/adjudicate", json={"position": text, "phase": "F1901M", "pictures": False}).json()
        assert ("France: A bur - mun", "succeeds") in [(o["order"], o["result"]) for o in fall["orders"]]
        missing = client.post("/api/adjudicate", json={"position": text, "phase": "S1950M"})
        assert missing.status_code == 400 and "S1950M" in missing.json()["error"]
        assert "game.txt" not in missing.text and "/tmp" not in missing.text  # the server's own file is not named
    wrong = client.post("/api/adjudicate", json={"position": "standard", "phase": "S1901M"})
    assert wrong.status_code == 400 and "recorded game" in wrong.json()["error"]


def test_a_player_set_up_ignores_the_neutral_powers_orders_as_cases_do(client, tmp_path):
    body = {"position": "standard", "players": 5, "pictures": False,
            "orders": "Germany: A mun - bur\nFrance: A par - bur\nItaly: A ven - pie"}
    data = client.post("/api/adjudicate", json=body).json()
    got = {o["order"]: (o["result"], o.get("detail", "")) for o in data["orders"]}
    assert got["France: A par - bur"][0] == "succeeds"
    assert got["Germany: A mun - bur"] == ("illegal", "Germany is neutral in the 5-player game: its orders are ignored")
    assert data["input"]["players"] == 5 and data["input"]["neutral"] == ["Germany", "Italy"]
    case = tmp_path / "five.txt"  # the case it exports says PLAYERS 5, and `dipsat cases` reruns it
    case.write_text(data["input"]["case"], encoding="utf-8")
    assert "\nPLAYERS 5\n" in data["input"]["case"]
    assert run("cases", str(case)).exit_code == 0
    as_case = client.post("/api/adjudicate", json={"position": data["input"]["case"], "pictures": False}).json()
    assert {o["order"]: o["result"] for o in as_case["orders"]} == {k: v[0] for k, v in got.items()}
    over = client.post("/api/adjudicate", json={"position": data["input"]["case"], "players": 7, "pictures": False}).json()
    assert {o["order"]: o["result"] for o in over["orders"]}["Germany: A mun - bur"] == "bounced"  # the request's set-up
    two = client.post("/api/adjudicate", json={"position": "standard", "players": 2, "pictures": False,
                                               "orders": "Austria: A vie - tyr\nAustria: A tri - ven"}).json()
    assert {o["order"]: o["result"] for o in two["orders"]}["Austria: A tri - ven"] == "illegal"  # Italy is closed
    draw = client.post("/api/draw", json={"position": "standard", "pictures": False}).json()
    assert [s["players"] for s in draw["setups"]] == [2, 3, 4, 5, 6, 7] and draw["pictures"] == {}
    assert draw["setups"][0] == {"players": 2, "controls": ["England/France/Russia", "Austria/Germany/Turkey"],
                                 "neutral": ["Italy"]}


@pytest.mark.parametrize("body, problem", [
    ({"position": "standard", "players": 9}, "players: the standard variant has no set-up for 9 players"),
    ({"position": "modern", "players": 2}, "players: the modern variant has no set-up for 2 players"),
    ({"position": "standard", "players": "five"}, "players: expected int"),
    ({"position": '{"phases": [{"name": "S1901M", "state": {}}]}', "players": 3}, "players: a recorded game"),
])
def test_a_set_up_the_variant_does_not_offer_is_a_400(client, body, problem):
    answer = client.post("/api/adjudicate", json=body)
    assert answer.status_code == 400 and answer.json()["problems"][0].startswith(problem), answer.text


def test_unread_lines_say_where_they_are_for_the_page(client):
    orders = "France: A par - bur\n  England: F lon - Nrth Sea\n\nGermany: A mun - xyz"
    data = client.post("/api/adjudicate", json={"orders": orders, "pictures": False}).json()
    assert data["input"]["unread"] == [
        {"line": 2, "column": 20, "length": 4,
         "message": "expected a province name or abbreviation, found 'Nrth'; did you mean North Sea (nth)?"},
        {"line": 4, "column": 18, "length": 3, "message": "expected a province name or abbreviation, found 'xyz'"}]
    lines = orders.splitlines()
    assert [lines[u["line"] - 1][u["column"] - 1:][:u["length"]] for u in data["input"]["unread"]] == ["Nrth", "xyz"]
    assert [r["line"] for r in data["rejected"]] == [2, 4]  # as the command line lists them


def test_lone_surrogates_and_bad_lengths_are_400(client):
    for content in (b'{"orders": "France: A par - bur\\ud800"}', b'{"position": "\\udfff"}'):
        answer = client.post("/api/adjudicate", content=content)
        assert answer.status_code == 400 and "surrogate" in answer.json()["error"]
    answer = client.post("/api/adjudicate", content=b"{}", headers={"content-length": "abc"})
    assert answer.status_code == 400
