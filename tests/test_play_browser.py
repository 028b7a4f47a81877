"""The play page in headless Chromium at a phone's size (390x844): a whole game by tapping,
with a hint at every kind of decision met, to the review; a game saved mid-way, loaded
from its file and played on; and the static site alone (python -m manila web, served by a
plain static file server): a whole game against three experts with hints at an auction, a
harbour master's decision and a placement, then its review, with no request to any
/v1/ route.

The bots on the server are greedy (milliseconds a move) to keep the tests fast; the page's
own animation is turned off with ?speed=0, its hints and review kept short (?hint=, ?review=).
Needs Debian's chromium and chromium-driver and selenium. Screenshots go to the test's
tmp_path, and to $MANILA_ARTIFACTS when that is set.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers.contract import review_record
from helpers.page import chromium, screenshot, waiting
from helpers.serving import StaticSite, engine_answers, serving
from manila.game import Game, State
from manila.server.names import page_data
from manila.server.site import write_site

WIDTH, HEIGHT = 390, 844
MIN_TAP = 44


@pytest.fixture(scope="module")
def base_url():
    # A time limit that leaves room for the review of a whole game on a loaded machine.
    with serving(hint_time=0.5, time_limit=120.0) as srv:
        yield f"http://127.0.0.1:{srv.server_address[1]}"


@pytest.fixture(scope="module")
def phone():
    with chromium(mobile={"width": WIDTH, "height": HEIGHT, "pixelRatio": 2}) as driver:
        yield driver


def shot(driver, tmp_path: Path, name: str) -> None:
    screenshot(driver, tmp_path, name)


def js(driver, script: str):
    return driver.execute_script(script)


QUICK = "speed=0&hint=0.3&review=4"  # no animation, short hints, a rough review


def start(driver, page_url: str, players: int, seed: int, bot: str = "greedy") -> None:
    driver.get(f"{page_url}?{QUICK}")
    driver.execute_script("localStorage.clear()")
    driver.find_element(By.CSS_SELECTOR, f"[data-players='{players}']").click()
    driver.find_element(By.CSS_SELECTOR, "[data-seat='0']").click()
    for select in driver.find_elements(By.CSS_SELECTOR, "#bots select"):
        Select(select).select_by_value(bot)
    seed_box = driver.find_element(By.ID, "seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    check_phone_layout(driver, "#setup button, #setup select, #setup input")
    driver.find_element(By.ID, "start").click()


def settled(driver, timeout: float = 60) -> str:
    """Waits for the page to be ready for a tap: 'decide' or 'end'."""

    def ready(d):
        return js(
            d,
            "const s = document.body.dataset.state;"
            "if (s === 'end') return s;"
            "return s === 'decide' &&"
            " document.querySelectorAll('#choices button[data-action]:not([disabled])').length ? s : null;",
        )

    return waiting(driver, timeout).until(ready)


def game(driver) -> dict:
    """The game the page holds, as it keeps it in this browser (its save)."""
    return js(driver, "return JSON.parse(localStorage.getItem('manila-play')).game")


def phase(driver) -> str:
    return js(driver, "return document.body.dataset.phase")


def check_phone_layout(driver, taps: str) -> None:
    """No horizontal scroll; every visible tap target at least 44 px each way."""
    width = js(driver, "return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] == WIDTH, width
    small = js(
        driver,
        f"return [...document.querySelectorAll({json.dumps(taps)})].filter((e) => e.offsetParent)"
        f".map((e) => [e.id || e.dataset.action || e.textContent, e.getBoundingClientRect()])"
        f".filter(([, r]) => r.width < {MIN_TAP} || r.height < {MIN_TAP}).map(([n, r]) => [n, r.width, r.height]);",
    )
    assert not small, small


def check_decision_on_screen(driver) -> None:
    rect = js(driver, "return document.getElementById('decision').getBoundingClientRect().toJSON()")
    assert rect["top"] >= 0 and rect["bottom"] <= HEIGHT + 0.5 and rect["height"] > MIN_TAP, rect
    buttons = js(
        driver,
        "return [...document.querySelectorAll('#choices button, #hint')].map((b) => b.getBoundingClientRect().toJSON());",
    )
    # The panel scrolls inside itself: its first row of choices is in view without scrolling.
    assert buttons and buttons[0]["top"] >= rect["top"] and buttons[0]["bottom"] <= HEIGHT, (rect, buttons[0])
    check_phone_layout(driver, "#choices button, #hint, #save, #copy, #new")


def ask_hint(driver) -> dict:
    driver.find_element(By.ID, "hint").click()
    waiting(driver, 120).until(
        lambda d: js(d, "return !!document.querySelector('#hint-text .hint-best, #hint-text .error')")
    )
    error = js(driver, "const e = document.querySelector('#hint-text .error'); return e && e.textContent")
    assert not error, error
    best = js(
        driver, "const b = document.querySelector('#choices button.best'); return b && b.dataset.action"
    )
    assert best, "the hint marks no option"
    words = js(driver, "return document.getElementById('hint-text').textContent")
    assert "Best" in words or "best" in words, words
    return {"best": best, "words": words}


def tap_choice(driver, prefer_best: bool) -> str:
    """Taps the best-marked option, else passes in the auction, else the first option."""
    due = phase(driver)
    options = [
        b
        for b in driver.find_elements(By.CSS_SELECTOR, "#choices button[data-action]")
        if b.get_attribute("data-action") not in ("mortgage", "repay")
    ]
    chosen = next((b for b in options if "best" in b.get_attribute("class")), None) if prefer_best else None
    if chosen is None and due == "auction":
        chosen = next(b for b in options if b.get_attribute("data-action") == "pass")
    chosen = chosen or options[0]
    action = chosen.get_attribute("data-action")
    chosen.click()
    return action


def play_decisions(driver, tmp_path: Path, hinted: dict, limit: int = 10_000) -> int:
    """Plays up to ``limit`` decisions by tapping (a hint at each new kind); returns how many."""
    done = 0
    while done < limit and settled(driver) == "decide":
        check_decision_on_screen(driver)
        due = phase(driver)
        new_kind = due not in hinted
        if new_kind:
            hinted[due] = ask_hint(driver)
            shot(driver, tmp_path, f"play-{due}.png")
        tap_choice(driver, prefer_best=new_kind)
        done += 1
    return done


def browser_errors(driver) -> list:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def test_a_whole_game_by_tapping_with_hints_and_the_review(phone, base_url, tmp_path):
    start(phone, base_url + "/play", players=3, seed=12)
    hinted: dict = {}
    decisions = play_decisions(phone, tmp_path, hinted)
    assert settled(phone) == "end"
    assert decisions > 10
    assert {"auction", "placement"} <= set(hinted), hinted.keys()
    assert phone.find_element(By.ID, "winners").text.endswith(".")
    # Every share face up once the game is over.
    shares = phone.find_element(By.ID, "wealth").text
    assert "face down" not in shares and "wealth ?" not in shares, shares
    # The review is asked for at the end and shown in the end card.
    waiting(phone, 150).until(
        lambda d: js(
            d,
            "return !!(document.querySelector('#review [data-ready]') || document.getElementById('review-error'))",
        )
    )
    assert not phone.find_elements(By.ID, "review-error"), phone.find_element(By.ID, "review").text
    check_review(phone)
    assert phone.find_element(By.ID, "end").is_displayed()
    assert not phone.find_element(By.ID, "decision").is_displayed()
    log = js(phone, "return [...document.querySelectorAll('#log li')].map((li) => li.textContent)")
    assert log[-1].startswith("game over: ")
    assert any(line.startswith("roll: ") for line in log)
    shot(phone, tmp_path, "play-end.png")
    assert not browser_errors(phone)


def test_a_game_saved_mid_way_is_loaded_and_played_on(phone, base_url, tmp_path):
    phone.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    start(phone, base_url + "/play", players=4, seed=21)
    play_decisions(phone, tmp_path, {"auction": None, "placement": None}, limit=8)
    assert settled(phone) == "decide"
    saved = game(phone)
    log_before = js(phone, "return [...document.querySelectorAll('#log li')].map((li) => li.textContent)")
    phone.find_element(By.ID, "save").click()
    files: list = []
    deadline = time.monotonic() + 20
    while not files and time.monotonic() < deadline:
        files = [p for p in tmp_path.glob("manila-*.json") if p.stat().st_size]
        time.sleep(0.1)
    assert files, "the game was not downloaded"
    assert json.loads(files[0].read_text()) == saved
    # A new page: the game comes back from the file, with its log, and goes on.
    phone.get(f"{base_url}/play?{QUICK}")
    phone.execute_script("localStorage.clear()")
    phone.find_element(By.ID, "file").send_keys(str(files[0]))
    phone.find_element(By.ID, "load").click()
    assert settled(phone) == "decide"
    assert game(phone) == saved
    assert (
        js(phone, "return [...document.querySelectorAll('#log li')].map((li) => li.textContent)")
        == log_before
    )
    play_decisions(phone, tmp_path, {"auction": None, "placement": None}, limit=6)
    later = game(phone)
    assert later["history"][: len(saved["history"])] == saved["history"]
    assert len(later["history"]) > len(saved["history"])
    State.deserialize(later)  # the engine reads the page's game
    assert not browser_errors(phone)


def check_review(driver) -> None:
    """The review on a phone: accuracy for everyone; each mistake a small board with the
    options in words (no raw notation, no spot ids)."""
    review = driver.find_element(By.ID, "review")
    assert "accuracy" in review.text.lower()
    # Each player's result reconciled with luck and play, in the engine's words.
    lines = review.find_elements(By.CSS_SELECTOR, "#review-reconciliation li")
    assert len(lines) == len(review.find_elements(By.CSS_SELECTOR, "#review-players tr[data-player]"))
    assert all(
        "final equity" in li.text and "residual" in li.text and "luck-adjusted" in li.text for li in lines
    ), [li.text for li in lines]
    for mistake in review.find_elements(By.CSS_SELECTOR, ".mistake"):
        text = mistake.text
        assert "_" not in text and "@" not in text and "player=" not in text, text
        assert "You chose:" in text and "Better:" in text, text
        if mistake.get_attribute("data-kind") not in ("auction", "harbour_master"):
            assert mistake.find_elements(By.CSS_SELECTOR, ".board.small .boat"), text
    check_phone_layout(driver, "#review button")


# --------------------------------------------------------------------------- the static site alone


def review_body_and_boards(game: int = 0) -> tuple[dict, dict]:
    """A short finished game's review body (few rollouts), and p0's view at each of their
    decisions, as the play page keeps them."""
    record = json.loads(review_record(game))
    state = Game(record["players"], seed=record["seed"], rules=record.get("rules")).new_initial_state()
    boards = {}
    for i, a in enumerate(record["history"]):
        if not state.is_chance_node() and state.current_player() == 0:
            boards[i] = state.observation(0)
        state.apply_action(a)
    return {"record": record, "quick": True, "rollouts": 2, "luck_rollouts": 2}, boards


@pytest.fixture(scope="module")
def review_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    write_site(out, page_data())
    body, _ = review_body_and_boards()
    assert engine_answers(out, "review", body)  # the engine answers the review itself
    served = StaticSite(out)
    yield served
    served.stop()


def test_the_static_site_alone_reviews_a_finished_game(phone, review_site, tmp_path):
    """The page's review (review.mjs) of a recorded game, asked of the worker (ask.mjs) as
    the play page asks it at the end, with its progress: no request to any /v1/ route."""
    body, boards = review_body_and_boards()
    phone.get(review_site.url + "play.html?speed=0")
    phone.set_script_timeout(120)
    got = phone.execute_async_script(
        """
        const [body, boards, done] = arguments;
        const {ask} = await import('./ask.mjs');
        const {drawReview} = await import('./review.mjs');
        const {makeWords} = await import('./words.mjs');
        const {$, pageData} = await import('./dom.mjs');
        const names = pageData('names');
        const progress = [];
        const res = await ask('review', body, {onProgress: p => progress.push(p)});
        $('#setup').hidden = true;
        $('#game').hidden = false;
        $('#end').hidden = false;
        if (res.status === 200) {
          $('#review').replaceChildren(drawReview(names, makeWords(names), res.body,
            {you: 'p0', bots: {p1: 'random', p2: 'random'}, boards,
             who: o => ({text: o === 'p0' ? 'you' : o, cls: o})}));
        }
        done({status: res.status, errors: res.body.errors || null, progress: progress.slice(-1),
              steps: progress.length, unit: res.body.unit});
        """,
        body,
        boards,
    )
    assert got["status"] == 200, got
    assert got["steps"] > 50 and got["progress"][0]["done"] == got["progress"][0]["total"], got
    check_review(phone)
    assert phone.find_elements(By.CSS_SELECTOR, "#review .mistake")
    shot(phone, tmp_path, "static-review.png")
    assert not [p for p in review_site.paths if "/v1/" in p], review_site.paths
    # The plain static server has no favicon.ico, which Chromium asks for by itself.
    assert not [e for e in browser_errors(phone) if "/favicon.ico " not in e["message"]]


@pytest.fixture(scope="module")
def static_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    write_site(out, page_data())
    if not engine_answers(out, "play", {"new": {"players": 4, "seed": 1, "bots": ["expert"] * 3}}):
        pytest.skip("this manila.wasm does not answer the play route itself (engine.js call)")
    served = StaticSite(out)
    yield served
    served.stop()


def win_the_auction(driver) -> None:
    """Bids as high as the stepper goes (the experts rarely follow far)."""
    up = driver.find_element(By.ID, "bid-up")
    for _ in range(40):
        up.click()
    driver.find_element(By.CSS_SELECTOR, ".stepper button.primary").click()


def test_the_static_site_alone_plays_a_whole_game_against_experts(phone, static_site, tmp_path):
    start(phone, static_site.url + "play.html", players=3, seed=5, bot="expert")
    hinted: dict = {}
    office = False
    while settled(phone, 300) == "decide":
        due = phase(phone)
        kind = "harbour_master" if due in ("buy_share", "choose_goods", "place_boats") else due
        if kind in ("auction", "harbour_master", "placement") and kind not in hinted:
            hinted[kind] = ask_hint(phone)
            shot(phone, tmp_path, f"static-{due}.png")
        if due == "auction" and not office:
            win_the_auction(phone)
        else:
            tap_choice(phone, prefer_best=False)
        office = office or kind == "harbour_master"
        # The value of the position beside the board, for every player.
    assert {"auction", "harbour_master", "placement"} <= set(hinted), hinted.keys()
    assert "up to" in hinted["auction"]["words"].lower()
    # The office's worth in the engine's words, the decider's seat read as "you".
    assert "The office is worth" in hinted["auction"]["words"] and " to you" in hinted["auction"]["words"]
    assert "Good left home:" in hinted["harbour_master"]["words"]
    waiting(phone, 600).until(
        lambda d: js(
            d,
            "return !!(document.querySelector('#review [data-ready]') || document.getElementById('review-error'))",
        )
    )
    assert not phone.find_elements(By.ID, "review-error"), phone.find_element(By.ID, "review").text
    check_review(phone)
    shot(phone, tmp_path, "static-end.png")
    assert not [p for p in static_site.paths if "/v1/" in p], static_site.paths
    assert not browser_errors(phone)


def test_the_value_bar_beside_the_board(phone, static_site):
    start(phone, static_site.url + "play.html", players=3, seed=9, bot="greedy")
    assert settled(phone) == "decide"
    waiting(phone, 60).until(
        lambda d: js(d, "return document.querySelectorAll('#wealth .value[data-win]').length") == 3
    )
    wins = js(
        phone, "return [...document.querySelectorAll('#wealth .value')].map(v => Number(v.dataset.win))"
    )
    assert sum(wins) == pytest.approx(1.0, abs=1e-6)
    assert not [p for p in static_site.paths if "/v1/" in p]
