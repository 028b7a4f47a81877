"""Driving the players' pages in headless Chromium (Debian's chromium and chromium-driver,
through selenium): the browser, screenshots, and reading the calculator page's numbers."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlencode

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import manila

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
# Selenium looks again every half second unless told: a whole game of taps spent most of its
# time waiting for the next look.
POLL = 0.05


def waiting(driver: Any, timeout: float) -> WebDriverWait:
    """Selenium's wait for a condition, looking every POLL seconds."""
    return WebDriverWait(driver, timeout, poll_frequency=POLL)


@contextmanager
def chromium(args: Sequence[str] = (), mobile: Optional[dict[str, Any]] = None) -> Iterator[Any]:
    """A headless Chromium with the browser's console log kept; ``mobile``: device metrics
    to emulate (a phone)."""
    if not (CHROMIUM and DRIVER):
        pytest.fail("the browser tests need headless Chromium: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        *args,
    ):
        options.add_argument(arg)
    if mobile is not None:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": mobile})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def screenshot(driver: Any, tmp_path: Path, name: str) -> Path:
    """A screenshot in the test's tmp_path, copied to $MANILA_ARTIFACTS when that is set."""
    path = tmp_path / name
    assert driver.save_screenshot(str(path))
    if os.environ.get("MANILA_ARTIFACTS"):
        out = Path(os.environ["MANILA_ARTIFACTS"])
        out.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, out / name)
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

    return waiting(driver, timeout).until(done)


def read_page(driver) -> dict:
    """What the page shows: the spot table in its order, the boats, the incomes (raw values)."""
    return driver.execute_script("""
        const rows = [...document.querySelectorAll('#spot-table tr[data-spot]')];
        return {
          spots: rows.map(r => ({id: r.dataset.spot, net: r.dataset.net,
                                 cost: r.querySelector('td.cost').dataset.cost,
                                 shown: r.querySelector('td.net').firstChild.textContent,
                                 positive: r.classList.contains('pos')})),
          boats: Object.fromEntries([...document.querySelectorAll('#boat-table tr[data-boat]')].map(r =>
                   [r.dataset.boat, Object.fromEntries([...r.querySelectorAll('td[data-outcome]')].map(
                     td => [td.dataset.outcome, td.dataset.value]))])),
          incomes: Object.fromEntries([...document.querySelectorAll('#income-table tr[data-owner]')].map(
                     r => [r.dataset.owner, r.querySelector('td[data-kind="income"]').dataset.value])),
          payoffs: Object.fromEntries([...document.querySelectorAll('#income-table td[data-kind="payoff"]')].map(
                     td => [td.closest('tr').dataset.owner, td.dataset.value])),
          wealth_note: document.getElementById('wealth-note').hidden ? null
                       : document.getElementById('wealth-note').textContent,
          blind: !document.getElementById('blind-note').hidden,
          notation: document.querySelector('#notation').textContent,
          errors: [...document.querySelectorAll('#errors li')].map(li => li.dataset.path),
        };""")


def console_errors(driver) -> list:
    """Script errors, CSP violations, failed loads; a 400 from the API is the page's own business
    (a board half set up is often not a valid voyage yet)."""
    return [
        e
        for e in driver.get_log("browser")
        if e["level"] == "SEVERE" and not (e["source"] == "network" and "status of 400" in e["message"])
    ]


def fraction(text: str) -> Fraction:
    return Fraction(text)


def check_against_library(page: dict, state: dict, exact: bool, strict: bool = True) -> None:
    want = manila.evaluate(state, exact=exact, strict=strict).to_dict()
    value = fraction if exact else float
    # Every legal spot, with its exact value and cost, best first (ties in canonical order).
    if exact:  # "n/d" strings, character for character
        assert {s["id"]: s["net"] for s in page["spots"]} == {
            k: v["expected_net"] for k, v in want["spots"].items()
        }
    else:  # the very same doubles (JavaScript writes them with round-trip digits)
        assert {s["id"]: float(s["net"]) for s in page["spots"]} == {
            k: v["expected_net"] for k, v in want["spots"].items()
        }
    assert {s["id"]: int(s["cost"]) for s in page["spots"]} == {
        k: v["cost"] for k, v in want["spots"].items()
    }
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
    # In wealth the payoffs are shown beside the incomes, and the page says what its values are.
    if want.get("payoffs") != want["incomes"] or state.get("objective") == "wealth":
        assert {k: value(v) for k, v in page["payoffs"].items()} == {
            k: value(v) for k, v in want["payoffs"].items()
        }
        assert page["wealth_note"] and "Values in wealth" in page["wealth_note"]
    else:
        assert page["payoffs"] == {} and page["wealth_note"] is None


def open_page(driver, base_url: str, notation: str, **query: str) -> None:
    """A fresh page (nothing kept from an earlier test) showing the board of ``notation``."""
    driver.get("about:blank")
    driver.get(base_url + "#" + urlencode({"n": notation, **query}))
    waiting(driver, 10).until(lambda d: read_page(d)["notation"] == notation)
    assert settled(driver) == "ready"


def advice_shown(driver, timeout: float = 30) -> dict:
    """Waits for the advice of the board as it stands; what the panel shows."""
    waiting(driver, timeout).until(
        lambda d: d.find_element(By.ID, "advice").get_attribute("data-state") == "ready"
    )
    return driver.execute_script("""
        const best = document.getElementById('advice-best');
        return {best: best.dataset.best, net: best.dataset.net, text: best.textContent,
                line: [...document.querySelectorAll('#advice-line li')].map(li => [li.dataset.who, li.dataset.option]),
                why: document.getElementById('advice-why').textContent,
                bar: document.getElementById('bestbar').textContent};""")


# Pilots and boarding: the moment's owner decides, found on the board by the engine.
MOMENTS = {
    "pilot_small": "r3 ginseng@12:red silk@11:blue jade@10:green pilot_small=red pilot_large=blue player=red",
    "pilot_large": "r3 ginseng@12:red silk@11:blue jade@10:green pilot_large=blue player=red",
    "boarding": "r3 ginseng@13:red silk@13:blue jade@10:green pirate_1=green pirate_2=yellow player=red",
}


def check_moments(driver, url: str, **query: str) -> None:
    """The calculator's advice at pilot and boarding moments equals manila.advise, exactly."""
    for kind, board in MOMENTS.items():
        open_page(driver, url, board, exact="1", moment=kind, **query)
        shown = advice_shown(driver, timeout=60)
        want = manila.advise(
            {**manila.parse(board).to_dict(), "moment": {"kind": kind}}, exact=True
        ).to_dict()
        assert shown["best"] == want["best"], kind
        assert shown["line"] == [list(t) for t in want["line"]], kind
        options = driver.execute_script(
            "return Object.fromEntries([...document.querySelectorAll('#advice-options tr')]"
            ".map(r => [r.dataset.option, r.dataset.net]))"
        )
        assert options == {k: v["expected_net"] for k, v in want["options"].items()}, kind
        assert "_" not in driver.find_element(By.ID, "advice").text  # options in words
