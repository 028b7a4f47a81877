"""The static site (python -m manila web) in headless Chromium, served by a plain static
file server and no manila server: boards entered by tapping give exactly the numbers of
manila.evaluate, and placement, pilot and boarding advice those of manila.advise; the page
keeps working offline once loaded (and says it will not where a browser cannot keep it: plain
HTTP from another machine); an impossible board or notation is refused as the
server refuses it, and a good notation after a bad one leaves no error behind. No request
reaches a /v1/ route: the engine in the page answers every one (engine.js call).

Needs Debian's chromium and chromium-driver, and manila.wasm in the installation
(built by `pip install .`: docs/web.md).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import manila
from helpers.page import (
    check_against_library,
    check_moments,
    chromium,
    click,
    console_errors,
    read_page,
    settled,
    waiting,
)
from helpers.serving import StaticSite, engine_answers
from helpers.states import random_state
from manila.server.names import page_data
from manila.server.site import write_site


@pytest.fixture(scope="module")
def browser():
    # manila.test: this machine under another name, as a laptop on the LAN is to a phone
    # (only localhost and 127.0.0.1 are secure contexts over plain HTTP).
    args = (
        "--window-size=1280,1600",
        "--disable-extensions",
        f"--host-resolver-rules=MAP {ELSEWHERE} 127.0.0.1",
    )
    with chromium(args) as driver:
        yield driver


STATES = 10
ELSEWHERE = "manila.test"


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    write_site(out, page_data())
    if not engine_answers(out, "validate", {"notation": "r1 ginseng@3 silk@2 nutmeg@4"}):
        pytest.skip("this manila.wasm does not answer the API's routes itself (engine.js call)")
    return out


@pytest.fixture
def site(site_dir) -> Iterator[StaticSite]:
    served = StaticSite(site_dir)
    yield served
    assert not [p for p in served.paths if "/v1/" in p], served.paths  # the engine answered all
    served.stop()


def open_static(driver, url: str, **query: str) -> None:
    driver.get("about:blank")
    driver.get(url + ("#" + urlencode(query) if query else ""))
    assert settled(driver) == "ready"
    assert driver.find_element(By.ID, "where").get_attribute("data-where") == "browser"


def taps(state: dict) -> list[str]:
    """The buttons to tap, in order, to set the board of ``state`` from a cleared board."""
    out = [
        "#clear-board",
        f'[data-players="{state.get("players", 5)}"]',
        f'[data-roll="{state["next_roll"]}"]',
    ]
    home = next(g for g in manila.GOODS if g not in state["boats"])
    out += [f'[data-home="{home}"]', f'[data-you="{state["player"]}"]']
    for good, boat in state["boats"].items():
        out.append(f'[data-pos="{good}:{boat["position"]}"]')
        for i, who in enumerate(boat["crew"]):
            out += [f'[data-pen="{who}"]', f'[data-seat="{good}:{i}"]']
    for spot, who in state["spots"].items():
        out += [f'[data-pen="{who}"]', f'[data-spot="{spot}"]']
    rules = state["rules"]
    out.append(f'[data-thirteen="{rules["thirteen_after_last_roll"]}"]')
    return out


def tap_board(driver, state: dict, native: bool) -> None:
    """Sets the board by tapping its buttons: WebDriver's own clicks, or (many boards, quickly)
    each button's click() in one script, which the page handles the same way."""
    if native:
        for selector in taps(state):
            click(driver, selector)
    else:
        missing = driver.execute_script(
            "const gone = [];"
            "for (const s of arguments[0]) { const b = document.querySelector(s);"
            "  if (!b || b.disabled || b.hidden) gone.push(s); else b.click(); }"
            "return gone;",
            taps(state),
        )
        assert not missing, missing  # every button a player would tap is there to tap
    if driver.find_element(By.ID, "opt-variant").is_selected() != state["rules"]["pirate_variant"]:
        click(driver, "#opt-variant")


def tappable_states(n: int) -> list[dict]:
    rng = random.Random(2323)
    out = []
    while len(out) < n:
        state = random_state(rng, busy=rng.choice((0.2, 0.5, 0.8)))
        names = [o for b in state["boats"].values() for o in b["crew"]] + list(state["spots"].values())
        state.setdefault("player", names[0] if names else "red")  # the page always has a "you"
        out.append(state)
    return out


def test_tapped_boards_match_the_library_exactly(browser, site):
    open_static(browser, site.url, strict="0", exact="1")
    click(browser, "#more summary")  # the rule options are in the fold
    states = tappable_states(STATES)
    for i, state in enumerate(states):
        tap_board(browser, state, native=i < 3)
        assert settled(browser) == "ready", state
        check_against_library(read_page(browser), state, exact=True, strict=False)
    assert not console_errors(browser)


def test_advice_in_the_browser_matches_the_library(browser, site):
    board = "r1 ginseng@3 silk@3 jade@3 player=red"
    open_static(browser, site.url, n=board, exact="1")
    click(browser, "#advice-toggle")  # everyone at the table, red to move
    for to_move in ("red", "blue", "green"):
        click(browser, f'[data-turn="{to_move}"]')
        waiting(browser, 60).until(
            lambda d: d.find_element(By.ID, "advice").get_attribute("data-state") == "ready"
        )
        shown = browser.execute_script(
            "const b = document.querySelector('#advice-best');"
            "return {best: b.dataset.best, net: b.dataset.net,"
            " line: [...document.querySelectorAll('#advice-line li')].map(li => [li.dataset.who, li.dataset.option])}"
        )
        state = manila.parse(board).to_dict()
        order = ["red", "blue", "green", "yellow"]
        want = manila.advise(
            {**state, "moment": {"kind": "placement", "order": order, "to_move": to_move}}, exact=True
        ).to_dict()
        assert shown["best"] == want["best"]
        assert shown["net"] == (
            want["options"][want["best"]]["expected_net"] if want["best"] != "decline" else "0/1"
        )
        assert shown["line"] == want["line"]


def offline_note(driver) -> tuple[str, str]:
    """Whether the page says it works offline here ("yes" or "no"), and its words."""
    waiting(driver, 10).until(lambda d: d.find_element(By.ID, "where").get_attribute("data-offline"))
    where = driver.find_element(By.ID, "where")
    return where.get_attribute("data-offline"), where.text


def test_offline_once_loaded(browser, site):
    open_static(browser, site.url)
    assert offline_note(browser) == (
        "yes",
        "Computed in your browser: no server needed, and it works offline once loaded.",
    )
    # The service worker is active once it has kept every file of the site.
    browser.set_script_timeout(30)
    assert browser.execute_async_script(
        "const done = arguments[0];"
        "navigator.serviceWorker.ready.then(() => caches.keys()).then(k => done(k.length > 0));"
    )
    site.stop()  # no server at all from here on: the first visit was enough
    browser.get("about:blank")
    board = "r2 ginseng@8:red,blue silk@5:green jade@9 pirate_1=blue player=red"
    browser.get(site.url + "#" + urlencode({"n": board, "exact": "1"}))
    assert settled(browser) == "ready"
    assert browser.find_element(By.ID, "where").get_attribute("data-where") == "browser"
    check_against_library(read_page(browser), manila.parse(board).to_dict(), exact=True)
    # And a board changed by tapping, still with no server.
    click(browser, '[data-pos="jade:10"]')
    assert settled(browser) == "ready"
    state = manila.parse(board).to_dict()
    state["boats"]["jade"]["position"] = 10
    check_against_library(read_page(browser), state, exact=True)


def test_plain_http_from_another_machine_says_it_will_not_work_offline(browser, site):
    board = "r2 ginseng@8:red,blue silk@5:green jade@9 pirate_1=blue player=red"
    open_static(browser, site.url.replace("127.0.0.1", ELSEWHERE), n=board, exact="1")
    assert not browser.execute_script("return window.isSecureContext")
    offline, words = offline_note(browser)
    assert offline == "no"
    assert words.startswith("Computed in your browser: no server needed, but it will not work offline here")
    assert "only when it comes over HTTPS" in words  # why not here,
    assert "serve it over HTTPS" in words and "localhost" in words  # and how to make it work
    # It still computes in the browser, exactly.
    check_against_library(read_page(browser), manila.parse(board).to_dict(), exact=True)


def test_an_impossible_board_gets_the_pages_message(browser, site):
    open_static(browser, site.url)
    for good in ("ginseng", "nutmeg", "silk"):
        click(browser, f'[data-pos="{good}:13"]')  # before roll 1: no start reaches 13
    assert settled(browser) == "error"
    errors = browser.find_element(By.ID, "errors")
    assert "a boat cannot be on 13 before roll 1" in errors.text  # the server's words
    assert '"strict"' not in errors.text and "?strict" not in errors.text  # the page's words, not the API's
    assert browser.find_element(By.ID, "best").text == "Fix the board to see values"
    # The message leads to the option, in the fold it opens.
    click(browser, "#show-loose")
    assert browser.execute_script("return document.querySelector('#more details').open")
    assert browser.switch_to.active_element.get_attribute("id") == "opt-loose"
    click(browser, "#opt-loose")
    assert settled(browser) == "ready"
    # And bad input the engine refuses comes back in its own words (here via a notation).
    box = browser.find_element(By.ID, "notation-input")
    box.clear()
    box.send_keys("r1 ginseng@3:red,red,red,red nutmeg@3 silk@3 player=red", Keys.ENTER)
    # The notation is read after a try at a server (the static host has none): wait for it.
    notation_errors = browser.find_element(By.ID, "notation-errors")
    waiting(browser, 10).until(lambda d: notation_errors.is_displayed())
    assert "a ginseng boat has 3 seats, but 4 are taken" in notation_errors.text
    # A good notation after it: no error is left behind.
    box.clear()
    box.send_keys("r1 ginseng@3:red nutmeg@3 silk@3 player=red", Keys.ENTER)
    waiting(browser, 10).until(lambda d: "ginseng@3:red " in read_page(d)["notation"])
    assert settled(browser) == "ready"
    assert not notation_errors.is_displayed() and not errors.is_displayed()


def test_what_a_newcomer_tripped_over(browser, site):
    open_static(browser, site.url, n="r1 ginseng@3 nutmeg@3 silk@3 insurance=blue player=red")
    # Four players: no purple to offer, and no 4th accomplice.
    click(browser, '[data-players="4"]')
    assert not browser.find_element(By.CSS_SELECTOR, '[data-pen="purple"]').is_displayed()
    assert not browser.find_element(By.CSS_SELECTOR, '[data-you="purple"]').is_displayed()
    click(browser, '[data-players="5"]')
    assert browser.find_element(By.CSS_SELECTOR, '[data-pen="purple"]').is_displayed()
    click(browser, '[data-players="4"]')
    for spot in ("port_a", "port_b", "port_c", "shipyard_a"):
        click(browser, f'[data-spot="{spot}"]')
    assert settled(browser) == "ready"
    assert "shipyard_a" not in read_page(browser)["notation"]
    assert "no accomplice left" in browser.find_element(By.ID, "limit-note").text
    # Insurance, as the terminal says it.
    click(browser, '[data-pen="blue"]')
    click(browser, '[data-spot="insurance"]')  # freed: red may take it
    assert settled(browser) == "ready"
    click(browser, '[data-pen="red"]')
    click(browser, '[data-spot="port_c"]')  # freed: red has one in hand again
    assert settled(browser) == "ready"
    insurance = browser.find_element(By.CSS_SELECTOR, '#spot-table tr[data-spot="insurance"] td.cost')
    assert insurance.text == "receive 10" and insurance.get_attribute("data-cost") == "-10"
    # The fold has its arrow.
    arrow = browser.execute_script(
        "return getComputedStyle(document.querySelector('#more summary'), '::before').content"
    )
    assert arrow == '"▸"'
    # The link edited in the open tab.
    board = "r3 ginseng@12:red nutmeg@10 silk@11:blue player=red"
    browser.execute_script("location.hash = arguments[0]", urlencode({"n": board}))
    waiting(browser, 10).until(lambda d: read_page(d)["notation"] == board)
    assert settled(browser) == "ready"
    # The game engine's names: p0, p1, ... shown in colour.
    box = browser.find_element(By.ID, "notation-input")
    box.clear()
    box.send_keys("r2 ginseng@8:p0,p1 silk@5:p2 jade@9 pirate_1=p1 player=p0", Keys.ENTER)
    want = "r2 ginseng@8:red,blue silk@5:green jade@9 pirate_1=blue player=red"
    waiting(browser, 10).until(lambda d: read_page(d)["notation"] == want)
    assert settled(browser) == "ready"
    assert "p0 is red" in browser.find_element(By.ID, "names-note").text
    check_against_library(read_page(browser), manila.parse(want).to_dict(), exact=False)


def test_pilot_and_boarding_advice_in_the_browser(browser, site):
    check_moments(browser, site.url)
    assert browser.find_element(By.ID, "where").get_attribute("data-where") == "browser"


def test_the_calculator_links_to_play_and_back(browser, site):
    open_static(browser, site.url)
    click(browser, "#to-play")
    waiting(browser, 10).until(lambda d: d.find_elements(By.ID, "start"))
    click(browser, "#to-calculator")
    assert settled(browser) == "ready"


def test_no_server_is_not_the_boards_fault(browser, site):
    # Asked to use the server on a static host, which has none: the page says so, and keeps the board.
    browser.get("about:blank")
    browser.get(site.url + "#" + urlencode({"engine": "server"}))
    assert settled(browser) == "error"
    assert browser.find_element(By.ID, "where").get_attribute("data-where") == "server"
    assert "no server answers" in browser.find_element(By.ID, "best").text
    assert not browser.find_element(By.ID, "errors").is_displayed()  # no "this board is not valid"
    site.paths.clear()  # asked for on purpose: the one test that reaches for the server
