"""The players' page in headless Chromium: set a board by clicking, read the values off the page,
and check them against manila.evaluate on the same state.

Needs Debian's chromium and chromium-driver (`apt-get install chromium chromium-driver`) and
selenium. Screenshots are saved in the test's tmp_path, and copied to $MANILA_ARTIFACTS when
that is set.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import manila
from helpers.page import (
    advice_shown,
    check_against_library,
    check_moments,
    chromium,
    click,
    console_errors,
    open_page,
    read_page,
    screenshot,
    settled,
    waiting,
)
from helpers.serving import serving
from manila.common.vocab import PRICES
from manila.server.names import REPLY_AWARE


@pytest.fixture(scope="module")
def server():
    with serving() as srv:
        yield srv


@pytest.fixture(scope="module")
def base_url(server):
    return f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.fixture(scope="module")
def browser():
    with chromium(("--window-size=1280,1600", "--disable-extensions")) as driver:
        yield driver


def save(driver, tmp_path: Path, name: str) -> Path:
    path = screenshot(driver, tmp_path, name)
    assert path.stat().st_size > 10_000
    return path


def test_board_set_by_clicking_matches_the_library(browser, base_url, tmp_path):
    browser.get(base_url)
    assert settled(browser) == "ready"
    # Roll 2; nutmeg stays home; ginseng on 8, silk on 5, jade on 9 (reachable: starts 2 + 2 + 5).
    for selector in (
        '[data-roll="2"]',
        '[data-home="nutmeg"]',
        '[data-pos="ginseng:8"]',
        '[data-pos="silk:5"]',
        '[data-pos="jade:9"]',
        '[data-you="red"]',
        '[data-seat="ginseng:0"]',
        '[data-pen="blue"]',
        '[data-seat="ginseng:2"]',  # fills the next free seat: 1
        '[data-spot="pirate_1"]',
        '[data-pen="green"]',
        '[data-seat="silk:0"]',
        '[data-spot="port_c"]',
        '[data-spot="insurance"]',
        '[data-pen="yellow"]',
        '[data-seat="jade:3"]',
        '[data-spot="shipyard_a"]',
        '[data-spot="shipyard_a"]',  # tapped again: freed
        '[data-spot="port_a"]',
        '[data-pen="red"]',
        '[data-spot="pilot_large"]',
    ):
        click(browser, selector)
    state = {
        "next_roll": 2,
        "player": "red",
        "boats": {
            "ginseng": {"position": 8, "crew": ["red", "blue"]},
            "silk": {"position": 5, "crew": ["green"]},
            "jade": {"position": 9, "crew": ["yellow"]},
        },
        "spots": {
            "pirate_1": "blue",
            "port_c": "green",
            "insurance": "green",
            "port_a": "yellow",
            "pilot_large": "red",
        },
    }
    assert settled(browser) == "ready"
    page = read_page(browser)
    assert page["notation"] == str(manila.VoyageState.from_dict(state))
    assert page["errors"] == []
    assert page["spots"], "red still has an accomplice: some spot must be open"
    check_against_library(page, state, exact=False)

    click(browser, "details summary")
    click(browser, "#opt-exact")
    assert settled(browser) == "ready"
    page = read_page(browser)
    check_against_library(page, state, exact=True)
    assert any(s["positive"] for s in page["spots"]) and not all(s["positive"] for s in page["spots"])
    save(browser, tmp_path, "page-desktop.png")

    # The same page on a phone: nothing sticks out sideways, the best spot stays in view.
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True},
    )
    try:
        browser.refresh()
        assert settled(browser) == "ready"
        assert read_page(browser)["notation"] == page["notation"]  # kept in the address
        widths = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1] == 390
        best = browser.find_element(By.ID, "bestbar")
        assert best.is_displayed() and "Best for red" in best.text
        rect = browser.execute_script("return arguments[0].getBoundingClientRect().bottom", best)
        assert rect <= 844
        save(browser, tmp_path, "page-phone.png")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert not console_errors(browser)


def test_notation_errors_and_hypothetical_positions(browser, base_url, tmp_path):
    browser.get(base_url)
    assert settled(browser) == "ready"
    # Load a state by its notation; in it a nutmeg seat is worth exactly 0 to blue.
    text = (
        "r1 nutmeg@2:yellow,green silk@5:blue,red jade@2:yellow port_b=purple "
        "shipyard_a=yellow insurance=green player=blue"
    )
    box = browser.find_element(By.ID, "notation-input")
    box.send_keys(text, Keys.ENTER)
    waiting(browser, 10).until(lambda d: read_page(d)["notation"] == text)
    assert settled(browser) == "ready"
    page = read_page(browser)
    check_against_library(page, manila.parse(text).to_dict(), exact=False)
    zero = [s for s in page["spots"] if float(s["net"]) == 0]
    assert zero and not any(s["positive"] for s in zero)  # only gains are highlighted

    # Move silk back to 0 before roll 1: the start spaces no longer sum to 9; the page says why.
    click(browser, '[data-pos="silk:0"]')
    assert settled(browser) == "error"
    page = read_page(browser)
    assert page["errors"] and all(p.startswith("boats") for p in page["errors"])
    assert browser.find_element(By.ID, "errors").is_displayed()
    save(browser, tmp_path, "page-error.png")
    state = manila.parse(text).to_dict()
    state["boats"]["silk"]["position"] = 0
    assert manila.validate(state)  # the library agrees it is unreachable
    # ... and allowing hypothetical positions evaluates it anyway.
    click(browser, "details summary")
    click(browser, "#opt-loose")
    assert settled(browser) == "ready"
    assert not browser.find_element(By.ID, "errors").is_displayed()
    check_against_library(read_page(browser), state, exact=False, strict=False)
    assert not console_errors(browser)


def small_targets(driver) -> list:
    """The tap targets shown smaller than 44 x 44 CSS px (a checkbox: the label around it)."""
    return driver.execute_script("""
        const out = [];
        for (const e of document.querySelectorAll('button, input, select, summary, a[href]')) {
          const target = (e.type === 'checkbox' && e.closest('label')) || e;
          const r = target.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;  // not shown
          if (r.width < 44 || r.height < 44)
            out.push((e.id || e.dataset.pos || e.dataset.seat || e.textContent.trim()).slice(0, 30)
                     + ' ' + r.width.toFixed(1) + 'x' + r.height.toFixed(1));
        }
        return out;""")


def phone_layout(driver) -> None:
    """Nothing sticks out sideways; the best spot and the tables follow the board at once."""
    sizes = driver.execute_script("""
        const top = e => e.getBoundingClientRect().top + window.scrollY;
        const board = document.getElementById('board'), results = document.getElementById('results');
        return {scroll: document.documentElement.scrollWidth, width: window.innerWidth,
                boardEnd: top(board) + board.getBoundingClientRect().height,
                results: top(results), table: top(document.getElementById('spot-table'))};""")
    assert sizes["scroll"] <= sizes["width"] == 390
    assert 0 <= sizes["results"] - sizes["boardEnd"] <= 24, sizes
    assert sizes["table"] - sizes["results"] < 200, sizes


def on_a_phone(driver):
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True},
    )


def test_on_a_phone(browser, base_url, tmp_path):
    on_a_phone(browser)
    try:
        browser.get(base_url)
        assert settled(browser) == "ready"
        click(browser, "details summary")  # open, so that its options are measured too
        # Every tap target is at least 44 x 44 CSS px (a checkbox by the label around it).
        assert small_targets(browser) == []
        # Nothing sticks out sideways; the best spot and the tables follow the board at once.
        phone_layout(browser)
        caveat = browser.find_element(By.ID, "caveat")
        assert "nobody places after you" in caveat.text
        save(browser, tmp_path, "phone-top-of-results.png")

        # A notation that cannot be read: said beside its box; the board is not blamed.
        before = read_page(browser)
        box = browser.find_element(By.ID, "notation-input")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.send_keys("ginseng@3 nutmeg@4 silk@2", Keys.ENTER)
        shown = waiting(browser, 10).until(
            lambda d: (
                d.find_element(By.ID, "notation-errors").is_displayed()
                and d.find_element(By.ID, "notation-errors")
            )
        )
        assert "r1, r2 or r3" in shown.text and "notation" in shown.text
        assert not browser.find_element(By.ID, "errors").is_displayed()
        assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "ready"
        assert box.get_attribute("aria-invalid") == "true"
        gap = browser.execute_script(
            "return arguments[0].getBoundingClientRect().top - arguments[1].getBoundingClientRect().bottom",
            shown,
            box,
        )
        assert 0 <= gap < 80  # right below the box
        after = read_page(browser)
        assert after["notation"] == before["notation"] and after["spots"] == before["spots"]
        save(browser, tmp_path, "phone-notation-error.png")
        # Typing again clears the complaint; a good notation loads.
        box.clear()
        box.send_keys("r1 ginseng@3 nutmeg@4 silk@2 player=red", Keys.ENTER)
        waiting(browser, 10).until(lambda d: read_page(d)["notation"].startswith("r1 ginseng@3"))
        assert not browser.find_element(By.ID, "notation-errors").is_displayed()
        assert settled(browser) == "ready"
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert not console_errors(browser)


# --------------------------------------------------------------------------- wealth and advice


@contextmanager
def screen(driver, name: str):
    """The desktop window as it is, or a 390 x 844 phone."""
    if name == "phone":
        on_a_phone(driver)
    try:
        yield
    finally:
        if name == "phone":
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def choose(driver, selector: str, value: str) -> None:
    element = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    Select(element).select_by_value(value)


def type_budget(driver, text: str) -> None:
    box = driver.find_element(By.ID, "budget-input")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    box.send_keys(text)


def with_keys(state: dict, **keys) -> dict:
    return {**state, **keys}


# A board with roll 2 next where red holds one accomplice on ginseng and has two in hand.
WEALTH_BOARD = (
    "r2 ginseng@8:red,blue silk@5:green jade@9:yellow port_a=yellow port_c=green "
    "pirate_1=blue insurance=green player=red"
)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_shares_switch_the_page_to_wealth(browser, base_url, tmp_path, size):
    with screen(browser, size):
        open_page(browser, base_url, WEALTH_BOARD)
        state = manila.parse(WEALTH_BOARD).to_dict()
        assert read_page(browser)["wealth_note"] is None  # no shares: values in income

        # The price track is the server's: 0, 5, 10, 20.
        prices = browser.execute_script(
            "return [...document.querySelectorAll('[data-price=\"jade\"] option')].map(o => +o.value)"
        )
        assert tuple(prices) == PRICES
        click(browser, "#wealth-toggle")
        choose(browser, '[data-shares="jade"]', "2")
        choose(browser, '[data-price="jade"]', "10")
        assert settled(browser) == "ready"
        wealth = with_keys(state, objective="wealth", shares={"red": {"jade": 2}}, prices={"jade": 10})
        page = read_page(browser)
        assert page["notation"] == str(manila.VoyageState.from_dict(wealth))
        check_against_library(page, wealth, exact=False)
        # The values are no longer the income ones: a pilot is worth more to a shareholder ...
        income = manila.evaluate(state).to_dict()
        shown = {s["id"]: float(s["net"]) for s in page["spots"]}
        assert shown["pilot_large"] != income["spots"]["pilot_large"]["expected_net"]
        # ... and red's payoff counts the price rise of jade, which the income does not.
        assert float(page["payoffs"]["red"]) != float(page["incomes"]["red"]) == income["incomes"]["red"]
        assert browser.find_element(By.ID, "wealth-note").is_displayed()
        assert "values in wealth" in browser.find_element(By.ID, "wealth-toggle").text

        # A budget below every free spot: a blind passenger, every spot for the whole budget.
        type_budget(browser, "1")
        assert settled(browser) == "ready"
        blind = with_keys(wealth, budget={"red": 1})
        page = read_page(browser)
        check_against_library(page, blind, exact=False)
        assert page["spots"] and {s["cost"] for s in page["spots"]} == {"1"}
        assert page["blind"] and browser.find_element(By.ID, "blind-note").is_displayed()
        # A tight budget that is no blind passenger's: only what it pays for.
        type_budget(browser, "2")
        assert settled(browser) == "ready"
        tight = with_keys(wealth, budget={"red": 2})
        page = read_page(browser)
        check_against_library(page, tight, exact=False)
        assert not page["blind"] and len(page["spots"]) < len(income["spots"])
        assert page["notation"] == str(manila.VoyageState.from_dict(tight))

        # Taking the shares away again: back to income values.
        choose(browser, '[data-shares="jade"]', "0")
        assert settled(browser) == "ready"
        check_against_library(
            read_page(browser), with_keys(state, prices={"jade": 10}, budget={"red": 2}), exact=False
        )
        if size == "phone":
            phone_layout(browser)
            assert small_targets(browser) == []
        save(browser, tmp_path, f"wealth-{size}.png")
    assert not console_errors(browser)


def check_advice(shown: dict, position: dict) -> None:
    want = manila.advise(position)
    assert shown["best"] == want.best
    assert shown["line"] == [list(turn) for turn in want.line]
    assert float(shown["net"]) == want.options[want.best]["expected_net"]
    assert f"Best reply-aware choice for {want.to_move}:" in shown["text"]


# Roll 1, nothing taken: the spot table's best for red is a jade seat; knowing that the others
# answer, a silk seat is.
ADVICE_BOARD = "r1 ginseng@3 silk@3 jade@3 player=red"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_reply_aware_advice(browser, base_url, server, tmp_path, size):
    with screen(browser, size):
        # On the server, whose answers when busy are part of the test (the page would compute
        # in the browser otherwise: tests/test_wasm_browser.py).
        open_page(browser, base_url, ADVICE_BOARD, engine="server")
        assert browser.find_element(By.ID, "where").get_attribute("data-where") == "server"
        assert not browser.find_element(By.ID, "advice").is_displayed()  # no order set: no advice
        state = manila.parse(ADVICE_BOARD).to_dict()
        click(browser, "#advice-toggle")  # everyone at the table, red (you) to move
        assert settled(browser) == "ready"
        order = ["red", "blue", "green", "yellow"]
        position = with_keys(state, moment={"kind": "placement", "order": order, "to_move": "red"})
        shown = advice_shown(browser)
        check_advice(shown, position)
        table_best = read_page(browser)["spots"][0]["id"]
        assert table_best != shown["best"]  # the case where the two tell different things
        assert shown["why"] == REPLY_AWARE
        assert "nobody places after you" in shown["why"] and "answers with their own best" in shown["why"]
        assert "reply-aware" in shown["bar"]
        if size == "phone":
            phone_layout(browser)
            assert small_targets(browser) == []
        save(browser, tmp_path, f"advice-{size}.png")

        # The board changes while advice is on its way: only the last board's advice is shown.
        click(browser, '[data-turn="blue"]')
        # Both read at one moment: under load the answer may come between two WebDriver calls.
        panel, status = browser.execute_script(
            "return [document.getElementById('advice').dataset.state,"
            " document.getElementById('advice-status').textContent]"
        )
        assert panel == "thinking" and "thinking" in status
        click(browser, '[data-turn="green"]')
        assert settled(browser) == "ready"
        check_advice(
            advice_shown(browser), with_keys(position, moment={**position["moment"], "to_move": "green"})
        )

        # Busy: the server's advice searches are all taken. The page keeps thinking and asks again.
        assert server.heavy.acquire(timeout=30)
        try:
            click(browser, '[data-turn="red"]')
            time.sleep(1.5)
            assert browser.find_element(By.ID, "advice").get_attribute("data-state") == "thinking"
        finally:
            server.heavy.release()
        check_advice(advice_shown(browser), position)

        # A different order: green takes no part in this round.
        click(browser, '[data-order="green"]')
        assert settled(browser) == "ready"
        check_advice(
            advice_shown(browser),
            with_keys(
                position, moment={"kind": "placement", "order": ["red", "blue", "yellow"], "to_move": "red"}
            ),
        )
    assert not [e for e in console_errors(browser) if "status of 503" not in e["message"]]


def test_pilot_and_boarding_advice(browser, base_url):
    check_moments(browser, base_url, engine="server")
