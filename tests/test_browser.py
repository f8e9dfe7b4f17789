"""The page in a real browser: two headless Chromium seats and two bots play a whole game, one seat
reloads its page mid-game (its token brings it back), the score screen names everyone and a rematch
deals again in the same room; a server killed mid-game is restarted and the page goes on by itself;
a listed room is found and joined from the lobby's list; clashing house rules are greyed out.
Screenshots are saved along the way.

Skips without Chromium and its WebDriver (scripts/browser.sh installs Debian's; .ci/run calls it).
Set UNODSL_SCREENSHOTS=DIR to keep the screenshots (docs/play.md shows two of them).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading

import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("selenium")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="needs chromium and chromedriver")

import uvicorn  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from unodsl.web.server import Lobby, create_app  # noqa: E402

from served import free_port, serve  # noqa: E402

WAIT = 20         # seconds a wait for the page may take before the test fails (a hang guard)


@pytest.fixture
def server():
    port = free_port()
    lobby = Lobby("variants/classic.yaml", players=4, seed=3, grace=30)
    config = uvicorn.Config(create_app(lobby), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    started = threading.Event()
    while not srv.started and thread.is_alive():
        started.wait(0.05)
    yield lobby, f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(WAIT)


def _browser(size: str):
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={size}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def _version(driver) -> int:
    return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-version") or 0)


def _shot(driver, name: str, tmp_path) -> None:
    folder = os.environ.get("UNODSL_SCREENSHOTS") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)
    assert driver.save_screenshot(os.path.join(folder, name))


def test_two_browser_seats_and_two_bots_play_a_whole_game_with_a_reconnect(server, tmp_path):
    lobby, url = server
    phone, desk = _browser("390,844"), _browser("1000,900")
    try:
        phone.get(url + "/")
        WebDriverWait(phone, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=house]"))
        _shot(phone, "lobby-phone.png", tmp_path)
        phone.find_element(By.CSS_SELECTOR, "#make button[type=submit]").click()
        WebDriverWait(phone, WAIT).until(lambda d: "room=" in d.current_url)
        room_url = phone.current_url
        for driver, name in ((phone, "Ann"), (desk, "Bob")):
            if driver is desk:
                desk.get(room_url)
            WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "join").is_displayed())
            driver.find_element(By.ID, "name").send_keys(name)
            driver.find_element(By.CSS_SELECTOR, "#take button[type=submit]").click()
            WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "start").is_displayed())
        desk.find_element(By.ID, "start").click()
        for driver in (phone, desk):
            WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
        room = next(iter(lobby.rooms.values()))
        assert [s.bot_name != "" for s in room.seats] == [False, False, True, True]
        steps, reloaded = 0, False
        while not room.state.is_over:
            mover = next((d for d in (phone, desk) if d.find_elements(By.CSS_SELECTOR, "#choices button")), None)
            if mover is None:           # a view is on its way: wait for a page to offer a choice
                WebDriverWait(phone, WAIT).until(lambda _: room.state.is_over or any(
                    d.find_elements(By.CSS_SELECTOR, "#choices button") for d in (phone, desk)))
                continue
            before = _version(mover)
            if steps == 3:
                _shot(mover, "game-phone.png" if mover is phone else "game-desktop.png", tmp_path)
            playable = mover.find_elements(By.CSS_SELECTOR, "#hand button.card.playable")
            if steps % 3 == 2:                      # the keyboard: 1 is the first choice
                mover.find_element(By.TAG_NAME, "body").send_keys("1")
            elif playable and steps % 3 == 1:       # a card clicked in the hand
                playable[0].click()
            else:                                   # a decision's button
                mover.find_elements(By.CSS_SELECTOR, "#choices button")[0].click()
            WebDriverWait(mover, WAIT).until(lambda d: _version(d) > before)
            steps += 1
            if steps == 5 and not reloaded:           # Bob's page reloads: the token brings the seat back
                seat = desk.find_element(By.TAG_NAME, "body").get_attribute("data-seat")
                desk.refresh()
                WebDriverWait(desk, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
                assert desk.find_element(By.TAG_NAME, "body").get_attribute("data-seat") == seat
                assert not desk.find_element(By.ID, "join").is_displayed()
                reloaded = True
            assert steps < 1500
        for driver in (phone, desk):
            WebDriverWait(driver, WAIT).until(lambda d: "win" in d.find_element(By.ID, "prompt").text
                                              or "no winner" in d.find_element(By.ID, "prompt").text)
            WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "over").is_displayed())
        _shot(desk, "over-desktop.png", tmp_path)
        _shot(phone, "over-phone.png", tmp_path)
        assert reloaded and steps > 5
        log = desk.find_element(By.ID, "log").text
        assert "heuristic bot " in log and "heuristic bot 2 " in log     # the bots' moves, by name
        assert "Ann " in log and not re.search(r"\bp\d\b", log)      # the people's, by name; never "p1"
        assert "Ann " in phone.find_element(By.ID, "seats").text or "(you)" in phone.find_element(By.ID, "seats").text
        rows = [r.text for r in desk.find_elements(By.CSS_SELECTOR, "#score-screen tbody tr")]
        assert [r.split(" ")[0] for r in rows] == ["Ann", "Bob", "heuristic", "heuristic"]
        assert "Bob (you)" in rows[1]
        assert sum(r.endswith(" 1") for r in rows) == (room.state.winner is not None)     # games won here
        desk.find_element(By.ID, "rematch").click()           # the same room deals again
        for driver in (phone, desk):
            WebDriverWait(driver, WAIT).until(lambda d: not d.find_element(By.ID, "over").is_displayed()
                                              and d.find_elements(By.CSS_SELECTOR, "#hand .card"))
            assert "for a rematch: game 2 in this room" in driver.find_element(By.ID, "log").text
        assert room.game_number == 1 and not room.state.is_over
        errors = [e for e in phone.get_log("browser") + desk.get_log("browser") if "favicon" not in e["message"]]
        assert not [e for e in errors if e["level"] == "SEVERE"], errors
    finally:
        phone.quit()
        desk.quit()


def _serve(port: int, db: str) -> subprocess.Popen:
    """`unodsl serve` in its own process (so that it can be killed), once it listens."""
    return serve(port, db, "--seed", "6", "--players", "3", wait=WAIT)


def _stop(process: subprocess.Popen) -> None:
    process.kill()
    process.wait(WAIT)
    process.stderr.close()


def _hand(driver) -> list[str]:
    return sorted(c.get_attribute("title") for c in driver.find_elements(By.CSS_SELECTOR, "#hand .card"))


def _play_one(driver) -> None:
    """Click the first choice once the page offers one, and wait for the next version."""
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#choices button"))
    before = _version(driver)
    driver.find_elements(By.CSS_SELECTOR, "#choices button")[0].click()
    WebDriverWait(driver, WAIT).until(lambda d: _version(d) > before)


def test_a_server_killed_mid_game_restarts_and_the_page_goes_on_by_itself(tmp_path):
    db, port = str(tmp_path / "rooms.sqlite3"), free_port()
    url = f"http://127.0.0.1:{port}"
    server = _serve(port, db)
    page = _browser("1000,900")
    try:
        page.get(url + "/")
        WebDriverWait(page, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=house]"))
        page.find_element(By.CSS_SELECTOR, "#make button[type=submit]").click()
        WebDriverWait(page, WAIT).until(lambda d: "room=" in d.current_url)       # the room's page
        WebDriverWait(page, WAIT, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.find_element(By.ID, "join").is_displayed())
        page.find_element(By.ID, "name").send_keys("Ann <i>&amp;</i>")
        page.find_element(By.CSS_SELECTOR, "#take button[type=submit]").click()
        WebDriverWait(page, WAIT).until(lambda d: d.find_element(By.ID, "start").is_displayed())
        assert "Ann <i>&amp;</i> (you)" in page.find_element(By.ID, "seats").text    # as typed: text, never markup
        assert not page.find_elements(By.CSS_SELECTOR, "#seats i")
        page.find_element(By.ID, "start").click()
        for _ in range(3):
            _play_one(page)
        WebDriverWait(page, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#choices button"))
        hand, log, version = _hand(page), page.find_element(By.ID, "log").text, _version(page)
        server.send_signal(signal.SIGKILL)                   # no shutdown code runs
        server.wait(WAIT)
        server.stderr.close()
        WebDriverWait(page, WAIT).until(lambda d: "reconnecting" in d.find_element(By.ID, "error").text)
        assert "offline" in page.find_element(By.TAG_NAME, "body").get_attribute("class")   # choices greyed out
        _shot(page, "restart-lost-desktop.png", tmp_path)
        server = _serve(port, db)
        WebDriverWait(page, WAIT).until(lambda d: _version(d) > version)     # back by itself: the token
        assert _hand(page) == hand and page.find_element(By.ID, "log").text == log        # nothing lost
        assert page.find_element(By.ID, "error").text == ""
        assert "offline" not in page.find_element(By.TAG_NAME, "body").get_attribute("class")
        _play_one(page)                                                         # and the game goes on
        assert page.find_element(By.ID, "log").text != log
        _shot(page, "restart-back-desktop.png", tmp_path)
    finally:
        page.quit()
        _stop(server)


def test_a_listed_room_is_found_on_the_lobby_and_clashing_house_rules_are_greyed_out(server, tmp_path):
    lobby, url = server
    maker, friend = _browser("1000,900"), _browser("390,844")
    try:
        maker.get(url + "/")
        WebDriverWait(maker, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=house]"))
        box = {b.get_attribute("value"): b for b in maker.find_elements(By.CSS_SELECTOR, "input[name=house]")}
        box["stacking-mattel"].click()
        assert not box["stacking-progressive"].is_enabled() and box["seven-o"].is_enabled()
        why = box["stacking-progressive"].find_element(By.XPATH, "..").text
        assert "only one stacking rule at a time, and Stacking (Mattel house rule) is chosen" in why
        assert "E33" not in why and "/" not in why
        _shot(maker, "lobby-clash-desktop.png", tmp_path)
        box["stacking-mattel"].click()                       # unchosen: every choice open again
        assert box["stacking-progressive"].is_enabled()
        box["seven-o"].click()
        maker.find_element(By.ID, "listed").click()
        maker.find_element(By.CSS_SELECTOR, "#make button[type=submit]").click()
        WebDriverWait(maker, WAIT).until(lambda d: "room=" in d.current_url)
        WebDriverWait(maker, WAIT, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.find_element(By.ID, "join").is_displayed())
        maker.find_element(By.ID, "name").send_keys("Ann")
        maker.find_element(By.CSS_SELECTOR, "#take button[type=submit]").click()
        WebDriverWait(maker, WAIT).until(lambda d: d.find_element(By.ID, "start").is_displayed())
        link = maker.find_element(By.ID, "link").get_attribute("value")
        assert link.startswith(url + "/?room=")               # by the address the page was reached at
        maker.find_element(By.ID, "copy").click()
        WebDriverWait(maker, WAIT).until(lambda d: d.find_element(By.ID, "copied").text)
        lobby.addresses = ["http://192.0.2.7:8000"]           # served on the home network too (--host 0.0.0.0):
        maker.refresh()                                       # opened as 127.0.0.1, the link is the network's
        WebDriverWait(maker, WAIT).until(lambda d: d.find_element(By.ID, "link").get_attribute("value")
                                         .startswith("http://192.0.2.7:8000/?room="))
        lobby.addresses = []
        friend.get(url + "/")
        WebDriverWait(friend, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#room-list a"))
        entry = WebDriverWait(friend, WAIT, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.find_element(By.CSS_SELECTOR, "#room-list li").text)
        assert "Ann" in entry and "seven-o" in entry and "3 free seats" in entry
        _shot(friend, "lobby-list-phone.png", tmp_path)
        for _ in range(3):          # the list is drawn again every 5 s: a link may go stale under the click
            try:
                friend.find_element(By.CSS_SELECTOR, "#room-list a").click()
                break
            except StaleElementReferenceException:
                continue
        WebDriverWait(friend, WAIT).until(lambda d: "room=" in d.current_url)
        WebDriverWait(friend, WAIT, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.find_element(By.ID, "join").is_displayed())
        friend.find_element(By.ID, "name").send_keys("Bob")
        friend.find_element(By.CSS_SELECTOR, "#take button[type=submit]").click()
        WebDriverWait(maker, WAIT).until(lambda d: "Bob" in d.find_element(By.ID, "seats").text)
        WebDriverWait(friend, WAIT).until(lambda d: d.find_element(By.ID, "start").is_displayed())   # its view came
        friend.find_element(By.CSS_SELECTOR, "#reactions button").click()     # a quick reaction
        WebDriverWait(maker, WAIT).until(lambda d: "Bob: Nice one!" in d.find_element(By.ID, "chat-lines").text)
        _shot(maker, "room-chat-desktop.png", tmp_path)
        friend.find_element(By.ID, "start").click()
        WebDriverWait(friend, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
        _shot(friend, "game-chat-phone.png", tmp_path)
    finally:
        maker.quit()
        friend.quit()
