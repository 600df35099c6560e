"""`manage.py bench_browser`: click-to-updated-board in a real Chromium, against a real daphne.

One table with a started 4-hero game (bench/prepare.py) in a fresh SQLite database, one daphne
process, Debian's Chromium (never a downloaded browser) with one browser context per seat, each
with its own session cookie. For each of N clicks, the page whose board shows "Your decision"
clicks one of its decision buttons; inside the page, performance.now() is read just before the
click and again when a MutationObserver sees #game-board carry a new data-version (htmx swapped
the websocket's fragment in), and once more at the next animation frame (about when it paints).

Those are wall times, shared with daphne and the other three pages on the same cores. Beside them,
the clicking page's own work for each click (Chromium's `Performance.getMetrics` read before the
click and after that animation frame: its script, its style recalculation and its layout) is
counted in its renderer's time, whatever else the machine does.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

from . import servers
from .stats import fmt_ms, summary, verdict

CHROMIUM = os.environ.get("KILFORTH_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Runs in the page: click one decision button, resolve when the board's version changed.
CLICK = """
async (index) => {
  const board = () => document.querySelector('#game-board');
  const before = board() && board().dataset.version;
  const buttons = document.querySelectorAll('.kb-decision.is-mine form[ws-send] button');
  if (!buttons.length) return null;
  const button = buttons[index % buttons.length];
  let t0 = 0;
  let arrived = null;
  const onMessage = () => { if (arrived === null) arrived = performance.now(); };
  document.body.addEventListener('htmx:wsBeforeMessage', onMessage);
  const swapped = new Promise((resolve) => {
    const check = () => {
      const b = board();
      if (b && b.dataset.version !== before) { observer.disconnect(); resolve(performance.now()); }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, {subtree: true, childList: true, attributes: true,
                                     attributeFilter: ['data-version']});
    setTimeout(() => { observer.disconnect(); resolve(null); }, 5000);
  });
  t0 = performance.now();
  button.click();
  const t1 = await swapped;
  document.body.removeEventListener('htmx:wsBeforeMessage', onMessage);
  if (t1 === null) return {timeout: true};
  const t2 = await new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  const message = arrived === null ? null : arrived - t0;
  return {swap: t1 - t0, frame: t2 - t0, message: message, version: board().dataset.version};
}
"""


# Chromium's counters of a page's renderer (seconds, since the session enabled them): what the
# clicking page itself spent on a click and its frame.
WORK = {
    "ScriptDuration": "script",
    "RecalcStyleDuration": "style",
    "LayoutDuration": "layout",
}


def _work(cdp: Any) -> dict[str, float]:
    """The page's renderer's counters now, in ms."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    found = {m["name"]: m["value"] for m in metrics}
    return {name: found.get(name, 0.0) * 1000 for name in WORK}


def run(clicks: int, seed: int = 1, warmup: int = 3, headless: bool = True) -> dict:
    from playwright.sync_api import sync_playwright

    backend = servers.Backend()
    server = None
    try:
        backend.migrate()
        plan = backend.run_json(
            "bench.prepare", "--tables", "1", "--spectators", "0", "--seed", str(seed)
        )
        table = plan["tables"][0]
        # No bots at this table, so the bot driver stays idle; it is left on as in production.
        server = servers.Daphne(servers.PLAIN_APP, backend.env, backend.folder / "daphne.log")
        base = f"http://{server.address}"
        rng = random.Random(seed)
        swaps: list[float] = []
        frames: list[float] = []
        messages: list[float] = []
        work: dict[str, list[float]] = {name: [] for name in WORK}
        timeouts = 0
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=headless, args=ARGS
            )
            pages = []
            sessions = {}  # each page's DevTools session, for its renderer's own work
            for session in table["players"]:
                context = browser.new_context(
                    base_url=base, viewport={"width": 1280, "height": 900}
                )
                context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
                page = context.new_page()
                page.goto(f"/t/{table['slug']}/")
                page.wait_for_selector("#game-board")
                pages.append(page)
                cdp = context.new_cdp_session(page)
                cdp.send("Performance.enable")
                sessions[page] = cdp
            time.sleep(1.0)  # every page's websocket open
            started = time.perf_counter()
            for n in range(clicks + warmup):
                page = None
                deadline = time.perf_counter() + 5
                while page is None and time.perf_counter() < deadline:
                    # The asked seat's page may still be swapping in the last update.
                    page = next(
                        (p for p in pages if p.query_selector(".kb-decision.is-mine form button")),
                        None,
                    )
                    if page is None:
                        time.sleep(0.05)
                if page is None:
                    break  # the game is over, or nobody is asked
                before = _work(sessions[page])
                result = page.evaluate(CLICK, rng.randrange(1000))
                after = _work(sessions[page])
                if not result or result.get("timeout"):
                    timeouts += 1
                    time.sleep(0.5)
                    continue
                if n >= warmup:
                    swaps.append(result["swap"])
                    frames.append(result["frame"])
                    if result.get("message") is not None:
                        messages.append(result["message"])
                    for name, spent in after.items():
                        work[name].append(spent - before[name])
                # Let the other pages take the same update before the next click.
                time.sleep(0.05)
            elapsed = time.perf_counter() - started
            browser.close()
    finally:
        if server is not None:
            server.stop()
        backend.close()
    return {
        "swaps": swaps,
        "frames": frames,
        "messages": messages,
        "work": work,
        "timeouts": timeouts,
        "seconds": elapsed,
    }


def lines(result: dict) -> list[str]:
    swap = summary(result["swaps"])
    return [
        "Chromium (Debian, headless), 4 pages (one per seat) on one daphne, SQLite, "
        "in-memory layer; loopback",
        f"click to #game-board with the new data-version in the DOM: {fmt_ms(result['swaps'])}",
        f"of which click to the fragment's arrival (htmx:wsBeforeMessage): "
        f"{fmt_ms(result['messages'])}",
        f"click to the next animation frame after the swap: {fmt_ms(result['frames'])}",
        "the clicking page's own work from the click to that frame (its renderer's time): "
        + "; ".join(
            f"{label} p50 {summary(result['work'][name])['p50']:.1f} ms"
            for name, label in WORK.items()
            if result["work"].get(name)
        ),
        f"timeouts (no new board within 5 s): {result['timeouts']}; "
        f"{len(result['swaps'])} clicks in {result['seconds']:.1f} s",
        f"budget: p50 <= 30 ms: {verdict(swap['p50'], 30)}",
    ]
