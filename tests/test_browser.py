"""The page in a real browser: two headless Chromium seats and two bots play a whole game, one seat
reloads its page mid-game (its token brings it back), and screenshots are saved along the way.

Skips without Chromium and its WebDriver (scripts/browser.sh installs Debian's; .ci/run calls it).
Set UNODSL_SCREENSHOTS=DIR to keep the screenshots (docs/play.md shows two of them).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("selenium")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="needs chromium and chromedriver")

import uvicorn  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from unodsl.web.server import Lobby, create_app  # noqa: E402

WAIT = 20         # seconds a wait for the page may take before the test fails (a hang guard)


@pytest.fixture
def server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
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
        _shot(desk, "over-desktop.png", tmp_path)
        assert reloaded and steps > 5
        log = desk.find_element(By.ID, "log").text
        assert "p2 " in log and "p3 " in log                         # the bots' moves, in words
        errors = [e for e in phone.get_log("browser") + desk.get_log("browser") if "favicon" not in e["message"]]
        assert not [e for e in errors if e["level"] == "SEVERE"], errors
    finally:
        phone.quit()
        desk.quit()
