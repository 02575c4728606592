"""Benchmark: the first view of a student's progress pages in a real browser (issue 21).

One student with a term of history (``bench/teacher.py``'s builder: a class of students whose
reviews go through the memory model's own ``record()``, on SQLite in a temp file), served by
Werkzeug in a thread, viewed in Debian's Chromium with an empty cache and the CPU slowed down
``--cpu`` times (Chrome's own throttling, 4 by default: about a school Chromebook against this
machine). For each page it measures, ``--repeat`` times in alternation, each in a fresh context:

- **ready**: from the navigation's start until the page is ready to read: the ``load`` event,
  and for the charts page also until every chart has been drawn by plotly (``.chart--drawn``);
- **bytes**: what crossed the network for the view (every response's encoded length, from the
  DevTools protocol), and how many requests.

Pages: the card album (``/progress/album/``, where the menu's Progress link goes since #21) and
the charts page it links to (``/progress/``, the progress page before #21), which is the baseline.

Run it from the project root::

    .venv/bin/python bench/progress_view.py
    .venv/bin/python bench/progress_view.py --cpu 6 --repeat 7 --days 90
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
PAGES = [
    ("charts page /progress/ (before #21: the Progress link)", "/progress/", True),
    ("card album /progress/album/ (the Progress link now)", "/progress/album/", False),
]


def view(browser, base: str, path: str, charts: bool, cpu: float) -> tuple[float, int, int]:  # type: ignore[no-untyped-def]
    """One first view: (ms until ready, bytes over the network, requests)."""
    from bench.teacher import PASSWORD

    context = browser.new_context(base_url=base, viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto("/auth/login")
        page.fill("#username", "student00")
        page.fill("#password", PASSWORD)
        page.press("#password", "Enter")
        page.wait_for_url("**/study/")
        page.wait_for_load_state("load")
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        sizes: list[int] = []
        cdp.on("Network.loadingFinished", lambda e: sizes.append(int(e["encodedDataLength"])))
        start = time.perf_counter()
        page.goto(path, wait_until="load")
        if charts:
            count = page.locator("[data-figure]").count()
            page.wait_for_function(
                f"document.querySelectorAll('.chart--drawn').length >= {count}", timeout=60_000
            )
        ready = (time.perf_counter() - start) * 1000
        page.wait_for_timeout(200)  # late responses (the favicon) are part of the view
        return ready, sum(sizes), len(sizes)
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cpu", type=float, default=4.0, help="CPU slow-down (Chromebook-like)")
    parser.add_argument("--students", type=int, default=3)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--per-day", type=int, default=30)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from bench.teacher import build

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'view.db'}"
        started = time.perf_counter()
        app, _, _, reviews = build(url, args.students, args.days, args.per_day, seed=21)
        app.config.update(WTF_CSRF_ENABLED=True)
        print(
            f"student00 of {args.students} students, {args.days} days, {reviews:,} review log rows "
            f"in all (built in {time.perf_counter() - started:.0f} s); Chromium, empty cache, "
            f"CPU slowed {args.cpu:g}x, {args.repeat} views each, alternating\n"
        )
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        results: dict[str, list[tuple[float, int, int]]] = {label: [] for label, _, _ in PAGES}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for _label, path, charts in PAGES:  # a warm-up of each (server caches, deck)
                view(browser, base, path, charts, 1.0)
            for _ in range(args.repeat):
                for label, path, charts in PAGES:
                    results[label].append(view(browser, base, path, charts, args.cpu))
            browser.close()
        server.shutdown()

    print("| page | ready, median ms | ready, max ms | bytes | requests |")
    print("|---|---:|---:|---:|---:|")
    for label, runs in results.items():
        ready = [r[0] for r in runs]
        print(
            f"| {label} | {statistics.median(ready):,.0f} | {max(ready):,.0f} | "
            f"{statistics.median(r[1] for r in runs):,.0f} | {runs[0][2]} |"
        )


if __name__ == "__main__":
    main()
