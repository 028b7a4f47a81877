"""The players' page in headless Chromium: set a board by clicking, read the values off the page,
and check them against manila.evaluate on the same state.

Needs Debian's chromium and chromium-driver (`apt-get install chromium chromium-driver`) and
selenium. Screenshots are saved in the test's tmp_path, and copied to $MANILA_ARTIFACTS when
that is set.
"""

from __future__ import annotations

import os
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import manila
from test_server import serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def base_url():
    with serving() as srv:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        pytest.fail("the browser tests need headless Chromium: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1600", "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def save(driver, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    assert driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000
    if os.environ.get("MANILA_ARTIFACTS"):
        out = Path(os.environ["MANILA_ARTIFACTS"])
        out.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, out / name)
    print(f"screenshot: {path}")
    return path


def click(driver, selector: str) -> None:
    element = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def settled(driver, timeout: float = 10) -> str:
    """Waits until the last evaluation the page asked for has been answered; its outcome."""
    def done(d):
        body = d.find_element(By.TAG_NAME, "body")
        state = body.get_attribute("data-state")
        answered = body.get_attribute("data-seq") == body.get_attribute("data-requested")
        if state in ("ready", "error") and answered:
            return state
        return False
    return WebDriverWait(driver, timeout).until(done)


def read_page(driver) -> dict:
    """What the page shows: the spot table in its order, the boats, the incomes (raw values)."""
    return driver.execute_script("""
        const rows = [...document.querySelectorAll('#spot-table tr[data-spot]')];
        return {
          spots: rows.map(r => ({id: r.dataset.spot, net: r.dataset.net,
                                 cost: r.querySelector('td.cost').textContent,
                                 shown: r.querySelector('td.net').firstChild.textContent,
                                 positive: r.classList.contains('pos')})),
          boats: Object.fromEntries([...document.querySelectorAll('#boat-table tr[data-boat]')].map(r =>
                   [r.dataset.boat, Object.fromEntries([...r.querySelectorAll('td[data-outcome]')].map(
                     td => [td.dataset.outcome, td.dataset.value]))])),
          incomes: Object.fromEntries([...document.querySelectorAll('#income-table tr[data-owner]')].map(
                     r => [r.dataset.owner, r.querySelector('td[data-value]').dataset.value])),
          notation: document.querySelector('#notation').textContent,
          errors: [...document.querySelectorAll('#errors li')].map(li => li.dataset.path),
        };""")


def console_errors(driver) -> list:
    """Script errors, CSP violations, failed loads; a 400 from the API is the page's own business
    (a board half set up is often not a valid voyage yet)."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"
            and not (e["source"] == "network" and "status of 400" in e["message"])]


def fraction(text: str) -> Fraction:
    return Fraction(text)


def check_against_library(page: dict, state: dict, exact: bool, strict: bool = True) -> None:
    want = manila.evaluate(state, exact=exact, strict=strict).to_dict()
    value = fraction if exact else float
    # Every legal spot, with its exact value and cost, best first (ties in canonical order).
    if exact:  # "n/d" strings, character for character
        assert {s["id"]: s["net"] for s in page["spots"]} == {
            k: v["expected_net"] for k, v in want["spots"].items()}
    else:  # the very same doubles (JavaScript writes them with round-trip digits)
        assert {s["id"]: float(s["net"]) for s in page["spots"]} == {
            k: v["expected_net"] for k, v in want["spots"].items()}
    assert {s["id"]: int(s["cost"]) for s in page["spots"]} == {
        k: v["cost"] for k, v in want["spots"].items()}
    order = sorted(want["spots"], key=lambda k: -value(want["spots"][k]["expected_net"]))
    assert [s["id"] for s in page["spots"]] == order
    for s in page["spots"]:
        net = value(want["spots"][s["id"]]["expected_net"])
        assert s["positive"] == (net > 0), s
        assert float(s["shown"].replace("−", "-")) == pytest.approx(float(net), abs=0.005), s
    if exact:
        assert page["boats"] == want["boats"]
        assert page["incomes"] == want["incomes"]
    else:
        assert {g: {k: float(v) for k, v in o.items()} for g, o in page["boats"].items()} == want["boats"]
        assert {k: float(v) for k, v in page["incomes"].items()} == want["incomes"]


def test_board_set_by_clicking_matches_the_library(browser, base_url, tmp_path):
    browser.get(base_url)
    assert settled(browser) == "ready"
    # Roll 2; nutmeg stays home; ginseng on 8, silk on 5, jade on 9 (reachable: starts 2 + 2 + 5).
    for selector in ('[data-roll="2"]', '[data-home="nutmeg"]', '[data-pos="ginseng:8"]',
                     '[data-pos="silk:5"]', '[data-pos="jade:9"]',
                     '[data-you="red"]', '[data-seat="ginseng:0"]',
                     '[data-pen="blue"]', '[data-seat="ginseng:2"]',   # fills the next free seat: 1
                     '[data-spot="pirate_1"]',
                     '[data-pen="green"]', '[data-seat="silk:0"]', '[data-spot="port_c"]',
                     '[data-spot="insurance"]',
                     '[data-pen="yellow"]', '[data-seat="jade:3"]', '[data-spot="shipyard_a"]',
                     '[data-spot="shipyard_a"]',                        # tapped again: freed
                     '[data-spot="port_a"]',
                     '[data-pen="red"]', '[data-spot="pilot_large"]'):
        click(browser, selector)
    state = {"next_roll": 2, "player": "red",
             "boats": {"ginseng": {"position": 8, "crew": ["red", "blue"]},
                       "silk": {"position": 5, "crew": ["green"]},
                       "jade": {"position": 9, "crew": ["yellow"]}},
             "spots": {"pirate_1": "blue", "port_c": "green", "insurance": "green",
                       "port_a": "yellow", "pilot_large": "red"}}
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
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        browser.refresh()
        assert settled(browser) == "ready"
        assert read_page(browser)["notation"] == page["notation"]  # kept in the address
        widths = browser.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]")
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
    text = "r1 nutmeg@2:yellow,green silk@5:blue,red jade@2:yellow port_b=purple " \
           "shipyard_a=yellow insurance=green player=blue"
    box = browser.find_element(By.ID, "notation-input")
    box.send_keys(text, Keys.ENTER)
    WebDriverWait(browser, 10).until(lambda d: read_page(d)["notation"] == text)
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


def on_a_phone(driver):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})


def test_on_a_phone(browser, base_url, tmp_path):
    on_a_phone(browser)
    try:
        browser.get(base_url)
        assert settled(browser) == "ready"
        click(browser, "details summary")  # open, so that its options are measured too
        # Every tap target is at least 44 x 44 CSS px (a checkbox by the label around it).
        small = browser.execute_script("""
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
        assert small == []
        # Nothing sticks out sideways; the best spot and the tables follow the board at once.
        sizes = browser.execute_script("""
            const top = e => e.getBoundingClientRect().top + window.scrollY;
            const board = document.getElementById('board'), results = document.getElementById('results');
            return {scroll: document.documentElement.scrollWidth, width: window.innerWidth,
                    boardEnd: top(board) + board.getBoundingClientRect().height,
                    results: top(results), table: top(document.getElementById('spot-table'))};""")
        assert sizes["scroll"] <= sizes["width"] == 390
        assert 0 <= sizes["results"] - sizes["boardEnd"] <= 24, sizes
        assert sizes["table"] - sizes["results"] < 200, sizes
        caveat = browser.find_element(By.ID, "caveat")
        assert "nobody places after you" in caveat.text
        save(browser, tmp_path, "phone-top-of-results.png")

        # A notation that cannot be read: said beside its box; the board is not blamed.
        before = read_page(browser)
        box = browser.find_element(By.ID, "notation-input")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.send_keys("ginseng@3 nutmeg@4 silk@2", Keys.ENTER)
        shown = WebDriverWait(browser, 10).until(
            lambda d: d.find_element(By.ID, "notation-errors").is_displayed()
            and d.find_element(By.ID, "notation-errors"))
        assert "r1, r2 or r3" in shown.text and "notation" in shown.text
        assert not browser.find_element(By.ID, "errors").is_displayed()
        assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "ready"
        assert box.get_attribute("aria-invalid") == "true"
        gap = browser.execute_script(
            "return arguments[0].getBoundingClientRect().top - arguments[1].getBoundingClientRect().bottom",
            shown, box)
        assert 0 <= gap < 80  # right below the box
        after = read_page(browser)
        assert after["notation"] == before["notation"] and after["spots"] == before["spots"]
        save(browser, tmp_path, "phone-notation-error.png")
        # Typing again clears the complaint; a good notation loads.
        box.clear()
        box.send_keys("r1 ginseng@3 nutmeg@4 silk@2 player=red", Keys.ENTER)
        WebDriverWait(browser, 10).until(lambda d: read_page(d)["notation"].startswith("r1 ginseng@3"))
        assert not browser.find_element(By.ID, "notation-errors").is_displayed()
        assert settled(browser) == "ready"
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert not console_errors(browser)
