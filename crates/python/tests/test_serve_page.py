"""The explorer page of `tabia serve` in a real browser: headless Chromium driven by Selenium
(Debian's `chromium` and `chromium-driver`; skipped when they are missing)."""

from __future__ import annotations

import json
import os
import shutil
import urllib.parse
import urllib.request

import pytest

import serving

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not (CHROMIUM and DRIVER):
    pytest.skip("chromium and chromedriver are not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    served = serving.start(tmp_path_factory.mktemp("page"))
    yield served
    serving.stop(served)


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def api(server, route: str, **params) -> dict:
    query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
    with urllib.request.urlopen(f"{server.url}{route}?{query}") as response:
        return json.load(response)


def settle(browser, before: str | None = None) -> None:
    """Waits until the page has drawn the answers of its latest request."""
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return document.body.dataset.ready || null") not in (None, before))
    WebDriverWait(browser, 10).until(
        lambda b: b.execute_script("return String(generation)") == b.execute_script(
            "return document.body.dataset.ready"))


def table(browser) -> list[tuple[str, int]]:
    rows = browser.find_elements(By.CSS_SELECTOR, "#moves tr.move")
    return [(r.get_attribute("data-uci"), int(r.get_attribute("data-games"))) for r in rows]


def expected(server, play: str | None, fen: str | None = None) -> list[tuple[str, int]]:
    answer = api(server, "/lichess", play=play, fen=fen)
    return [(m["uci"], m["white"] + m["draws"] + m["black"]) for m in answer["moves"]]


def ready(browser) -> str:
    return browser.execute_script("return document.body.dataset.ready || ''")


def click_square(browser, square: str) -> None:
    browser.find_element(By.CSS_SELECTOR, f'.sq[data-square="{square}"]').click()


def test_click_moves_and_step_through_a_game(server, browser):
    browser.get(server.url + "/")
    settle(browser)
    assert table(browser) == expected(server, None) == [("e2e4", 4), ("d2d4", 1)]

    # e2 then e4 on the board.
    before = ready(browser)
    click_square(browser, "e2")
    assert "target" in browser.find_element(By.CSS_SELECTOR, '.sq[data-square="e4"]').get_attribute("class")
    click_square(browser, "e4")
    settle(browser, before)
    assert "play=e2e4" in browser.current_url
    assert table(browser) == expected(server, "e2e4") == [("e7e5", 3), ("c7c5", 1)]
    assert browser.find_element(By.ID, "opening").text == "B00 King's Pawn Game"

    # A row of the moves table plays its move.
    before = ready(browser)
    browser.find_element(By.CSS_SELECTOR, '#moves tr.move[data-uci="e7e5"]').click()
    settle(browser, before)
    assert "play=e2e4,e7e5" in browser.current_url
    assert table(browser) == expected(server, "e2e4,e7e5")

    # Back, with the button and the arrow key, and forward again.
    before = ready(browser)
    browser.find_element(By.ID, "back").click()
    settle(browser, before)
    assert browser.current_url.endswith("play=e2e4")
    before = ready(browser)
    browser.find_element(By.TAG_NAME, "body").send_keys("\ue012")  # ArrowLeft
    settle(browser, before)
    assert "play=" not in browser.current_url
    before = ready(browser)
    browser.find_element(By.ID, "last").click()
    settle(browser, before)
    assert "play=e2e4,e7e5" in browser.current_url

    # A top game: its moves become the line, shown where it reached the position.
    games = browser.find_elements(By.CSS_SELECTOR, "#top-games tr.game")
    assert len(games) == 3
    top = api(server, "/lichess", play="e2e4,e7e5")["topGames"][0]
    assert [g.get_attribute("data-id") for g in games][0] == top["id"]
    before = ready(browser)
    games[0].click()
    settle(browser, before)
    assert "Test" in browser.find_element(By.ID, "game").text
    line = [p.text for p in browser.find_elements(By.CSS_SELECTOR, "#movelist .ply")]
    assert line[:2] == ["e4", "e5"]
    current = browser.find_element(By.CSS_SELECTOR, "#movelist .ply.current")
    assert current.get_attribute("data-ply") == "2"
    before = ready(browser)
    browser.find_element(By.ID, "forward").click()
    settle(browser, before)
    assert browser.find_element(By.CSS_SELECTOR, "#movelist .ply.current").text == line[2]
    assert f"play=e2e4,e7e5,{api(server, '/tabia/game/' + top['id'])['uci'][2]}" in browser.current_url


def test_a_fen_set_in_the_box(server, browser):
    fen = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    browser.get(server.url + "/")
    settle(browser)
    box = browser.find_element(By.ID, "fen-input")
    box.clear()
    box.send_keys(fen)
    before = ready(browser)
    browser.find_element(By.ID, "fen-set").click()
    settle(browser, before)
    query = urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)
    assert query["fen"] == [fen]
    assert table(browser) == expected(server, None, fen) == [("d7d5", 1)]
    # The URL opens the same position.
    browser.get(browser.current_url)
    settle(browser)
    assert browser.find_element(By.ID, "fen-input").get_attribute("value") == fen
    # A bad FEN is the server's message.
    box = browser.find_element(By.ID, "fen-input")
    box.clear()
    box.send_keys("8/8/8 w - - 0 1")
    before = ready(browser)
    browser.find_element(By.ID, "fen-set").click()
    settle(browser, before)
    assert browser.find_element(By.ID, "error").text.startswith("bad fen:")


def test_screenshot(server, browser, tmp_path):
    browser.get(server.url + "/?play=e2e4,e7e5")
    settle(browser)
    out = os.environ.get("TABIA_SCREENSHOT") or str(tmp_path / "serve.png")
    assert browser.save_screenshot(out)
