"""Benchmark: each main page's weight and load time on a slow school link (issue 25).

Serves each checkout given (``--repo``, the working tree by default; e.g. a ``git worktree`` of an
earlier commit) with ``flask run`` on a fresh SQLite instance filled by ``seed-demo`` (30 students,
30 days), signs in through the login form as a demo student and as the demo teacher, and finds
each page's URL the way they would (a study round is started with its button, a game is dealt...).
Then in Debian's Chromium, throttled through the DevTools protocol (3 Mbit/s down, 1 Mbit/s up,
50 ms latency, CPU 4x slower; ``--mbit``, ``--cpu``) at 1366 x 768 (a Chromebook; ``--phone``:
360 x 740 with touch), it loads each page:

- **cold**: in a new browser context (an empty cache, the signed-in cookies only);
- **warm**: the same page again in the same context (after ``about:blank``), its cache filled.

For each load it gives the requests that went to the network (cache hits not counted) and their
bytes on the wire (headers and compressed bodies) and raw (decoded bodies), up to the moment the
network is quiet (nothing in flight for 1 s) after the page is ready, without scrolling: what the
page costs, plotly.js fetched for a chart just below the first screen included (and so cached for
the warm load); the times from the navigation's start of DOMContentLoaded, load and **ready**:
load, or on a page with charts (``[data-figure]``) the moment the last chart inside the first
screen was drawn (``chart--drawn``; charts below it draw lazily as they come near, and do not
count). Then the three largest responses of each cold load (what to slim) with what was fetched
after ready, and the goal of issue 25: a dashboard ready under 3 s cold and under 1 s warm.

Run it from the project root::

    .venv/bin/python bench/pages.py
    .venv/bin/python bench/pages.py --phone --pages student-dashboard --pages class-dashboard
    git worktree add /tmp/before25 <commit>
    .venv/bin/python bench/pages.py --repo /tmp/before25 --repo .

It exits non-zero when a server did not start or a page could not be loaded, not on a missed goal.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        CDPSession,
        Page,
        StorageState,
        ViewportSize,
    )

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMEBOOK: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 360, "height": 740}
#: Milliseconds a page may take to be ready (or a step of the set-up to answer).
TIMEOUT_MS = 60_000
#: The dashboards, and the goal of issue 25 for them: ready cold and warm under these (ms).
DASHBOARDS = ("student-dashboard", "class-dashboard")
GOAL_COLD_MS = 3_000
GOAL_WARM_MS = 1_000
#: After ready, the network is quiet once nothing has moved for QUIET_S (waited for at most
#: QUIET_CAP_S): a lazy chart's plotly.js is fetched then, and the warm load finds it cached.
QUIET_S = 1.0
QUIET_CAP_S = 20.0

#: Notes the moment each chart gets ``chart--drawn`` (``__drawnAt``, from the navigation's start).
DRAWN_AT = """(() => {
  new MutationObserver((records) => {
    const now = performance.now();
    for (const record of records) {
      const el = record.target;
      if (el.classList && el.classList.contains("chart--drawn") && el.__drawnAt === undefined) {
        el.__drawnAt = now;
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"] });
})();"""
#: Once the page has loaded and every chart inside the first screen is drawn: the times.
READY = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  if (!nav || !nav.loadEventEnd) return false;
  const all = Array.from(document.querySelectorAll("[data-figure]"));
  const first = all.filter((el) => {
    const box = el.getBoundingClientRect();
    const top = box.top + window.scrollY;
    return box.width > 0 && box.height > 0 && top < window.innerHeight && top + box.height > 0;
  });
  if (first.some((el) => el.__drawnAt === undefined)) return false;
  return {
    fetch: nav.fetchStart,
    dcl: nav.domContentLoadedEventStart,
    load: nav.loadEventStart,
    ready: Math.max(nav.loadEventEnd, ...first.map((el) => el.__drawnAt)),
    charts: all.length,
    first: first.length,
  };
}"""
#: The times so far, when the page did not get ready in time.
TIMES = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return {
    fetch: nav ? nav.fetchStart : 0,
    dcl: nav ? nav.domContentLoadedEventStart : 0,
    load: nav ? nav.loadEventStart : 0,
  };
}"""

PAGES = {
    "study-home": "study home",
    "study-question": "study question",
    "map-question": "map question",
    "state-iq": "State IQ game",
    "dashing-states": "Dashing States round",
    "border-up": "Border-Up round",
    "card-table": "card table (GeoPlunge 51)",
    "student-dashboard": "student dashboard",
    "deck": "deck",
    "class-page": "class page",
    "class-dashboard": "class dashboard",
}
TEACHER_PAGES = ("class-page", "class-dashboard")


class Skipped(Exception):
    """A page that this run cannot reach, for a reason that is not an error."""


# --- the server ----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Demo:
    """The demo school's accounts."""

    teacher: str
    teacher_password: str
    student: str
    student_password: str


def serve(repo: Path, instance: Path) -> tuple[subprocess.Popen[bytes], str, Demo]:
    """``flask run`` in ``repo`` (its own ``trainer`` first on the path) on a new seeded instance."""
    env = {**os.environ, "GEOPLUNGE_INSTANCE_PATH": str(instance), "PYTHONPATH": str(repo)}
    python = str(ROOT / ".venv" / "bin" / "python")
    flask = [python, "-m", "flask", "--app", "app"]
    subprocess.run([*flask, "db", "upgrade"], cwd=repo, env=env, check=True, capture_output=True)
    seeded = subprocess.run(
        [*flask, "seed-demo", "--students", "30", "--days", "30", "--workers", "0"],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    teacher = re.search(r"^Teacher: (\S+)\s+password: (\S+)", seeded, re.M)
    students = re.search(r"^Students: (\S+) to \S+ .*same password: (\S+)", seeded, re.M)
    if not teacher or not students:
        raise RuntimeError(f"seed-demo said no accounts:\n{seeded}")
    demo = Demo(teacher[1], teacher[2], students[1], students[2])
    port = _free_port()
    server = subprocess.Popen(
        [*flask, "run", "-p", str(port)],
        cwd=repo,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(150):
        if server.poll() is not None:
            break
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server, f"http://127.0.0.1:{port}", demo
        except OSError:
            time.sleep(0.2)
    server.terminate()
    server.wait(timeout=10)
    raise RuntimeError(f"flask run in {repo} did not start (exit code {server.returncode})")


# --- finding the pages ---------------------------------------------------------------------


def sign_in(page: Page, username: str, password: str) -> None:
    """Log in through the login form; the browser context keeps the session cookie."""
    page.goto("/auth/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/auth/login" not in url)
    if page.locator("[name=username]").count():
        raise RuntimeError(f"could not log in as {username}")


def _study_question(page: Page) -> str:
    page.goto("/study/")
    page.locator("form.start-form button[name=submit]").first.click()
    page.wait_for_url(re.compile(r"/study/rounds/[^/]+/1$"))
    return page.url


def _map_question(page: Page) -> str:
    """A Map fact's question that asks to find the state on the map (or else one showing it)."""
    page.goto("/study/")
    form = page.locator("form.start-form").first
    form.locator("details.focus summary").click()
    form.locator("input[name=facets][value=map]").check()
    form.locator("button[name=submit]").click()
    page.wait_for_url(re.compile(r"/study/rounds/[^/]+/\d+$"))
    found = re.search(r"/study/rounds/([^/]+)/", page.url)
    if not found:
        raise RuntimeError(f"no round in {page.url}")
    resume = f"/study/rounds/{found[1]}"
    shown = None  # a question with the state in red on a map
    for _ in range(30):
        if "/done" in page.url:
            break
        question = page.locator("#answer-form")
        question.wait_for()
        if question.get_attribute("data-form") == "map_click":
            return page.url
        if shown is None and page.locator("#study-item .review__map").count():
            shown = page.url
        question.locator("button[name=dont_know]").click()
        page.locator("#next").wait_for(state="visible")
        page.goto(resume)
    if shown:
        return shown
    raise Skipped("no Map question in a round focused on Map facts")


def _deal(button: str, index: str, dealt: str) -> Callable[[Page], str]:
    def deal(page: Page) -> str:
        page.goto(index)
        page.get_by_role("button", name=button).click()
        page.wait_for_url(re.compile(dealt))
        return page.url

    return deal


def _card_table(page: Page) -> str:
    page.goto("/play/games/")
    page.locator("input[name=game][value=geoplunge-51]").check()
    page.get_by_role("button", name="Deal the cards").click()
    page.wait_for_url(re.compile(r"/play/games/[^/?]+"))
    return page.url


def _student_dashboard(page: Page) -> str:
    page.goto("/progress/album/")
    page.get_by_role("link", name="Charts and numbers").click()
    page.wait_for_url(lambda url: "/album" not in url)
    return page.url


def _class_page(page: Page) -> str:
    page.goto("/teach/")
    page.locator("a[href*='/teach/classes/']").first.click()
    page.wait_for_url(re.compile(r"/teach/classes/\d+$"))
    return page.url


def _class_dashboard(page: Page) -> str:
    page.goto(_class_page(page))
    page.get_by_role("link", name="Class dashboard").click()
    page.wait_for_url(re.compile(r"/progress/classes/\d+"))
    return page.url


FINDERS: dict[str, Callable[[Page], str]] = {
    "study-home": lambda page: "/study/",
    "study-question": _study_question,
    "map-question": _map_question,
    "state-iq": _deal("Deal the cards", "/play/state-iq/", r"/play/state-iq/[^/]+$"),
    "dashing-states": _deal(
        "Deal the Map cards", "/play/dashing-states/", r"/play/dashing-states/[^/]+$"
    ),
    "border-up": _deal("Deal the cards", "/play/border-up/", r"/play/border-up/[^/]+$"),
    "card-table": _card_table,
    "student-dashboard": _student_dashboard,
    "deck": lambda page: "/deck/",
    "class-page": _class_page,
    "class-dashboard": _class_dashboard,
}


def find_pages(
    browser: Browser,
    base: str,
    username: str,
    password: str,
    names: list[str],
    labels: dict[str, str],
) -> tuple[StorageState, dict[str, str | Exception]]:
    """Sign in and find each page's URL; the signed-in cookies, and a URL or why not by page.

    A question's label in ``labels`` gets the kind of question found (choice, typed, map_click).
    """
    context = browser.new_context(base_url=base, viewport=CHROMEBOOK)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        sign_in(page, username, password)
        state = context.storage_state()
        urls: dict[str, str | Exception] = {}
        for name in names:
            try:
                url = FINDERS[name](page)
                urls[name] = urlsplit(url)._replace(scheme="", netloc="").geturl()
            except Exception as refused:  # a page not found is reported, the run goes on
                urls[name] = refused
                continue
            if name.endswith("question"):
                kind = page.locator("#answer-form").get_attribute("data-form")
                labels[name] = f"{PAGES[name]} ({kind})"
        return state, urls
    finally:
        context.close()


# --- measuring -----------------------------------------------------------------------------


@dataclass
class Request:
    url: str
    #: When it was sent, in seconds of the DevTools protocol's clock.
    sent: float
    wire: int = 0
    raw: int = 0
    cached: bool = False
    done: bool = False


@dataclass
class Traffic:
    """The page's requests, from the DevTools protocol's network events, since :meth:`reset`."""

    requests: dict[str, Request] = field(default_factory=dict)
    #: When the last network event came (time.monotonic()).
    last: float = 0.0

    def listen(self, cdp: CDPSession) -> None:
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestServedFromCache", self._from_cache)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.dataReceived", self._data)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.loadingFailed", self._failed)

    def reset(self) -> None:
        self.requests = {}

    def quiet(self, seconds: float) -> bool:
        """No request in flight, and no network event for ``seconds``."""
        idle = time.monotonic() - self.last >= seconds
        return idle and all(request.done for request in self.requests.values())

    def _sent(self, event: dict[str, Any]) -> None:
        self.last = time.monotonic()
        rid = event["requestId"]
        if event.get("redirectResponse") and rid in self.requests:  # a hop: its own request
            hop = self.requests.pop(rid)
            hop.wire, hop.done = int(event["redirectResponse"].get("encodedDataLength", 0)), True
            self.requests[f"{rid}#{len(self.requests)}"] = hop
        if event["request"]["url"].startswith("http"):
            self.requests[rid] = Request(event["request"]["url"], float(event["timestamp"]))

    def _from_cache(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]].cached = True

    def _response(self, event: dict[str, Any]) -> None:
        response = event["response"]
        if event["requestId"] in self.requests and (
            response.get("fromDiskCache") or response.get("fromPrefetchCache")
        ):
            self.requests[event["requestId"]].cached = True

    def _data(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]].raw += int(event["dataLength"])

    def _finished(self, event: dict[str, Any]) -> None:
        self.last = time.monotonic()
        if event["requestId"] in self.requests:
            request = self.requests[event["requestId"]]
            request.wire, request.done = int(event["encodedDataLength"]), True

    def _failed(self, event: dict[str, Any]) -> None:
        self.last = time.monotonic()
        if event["requestId"] in self.requests:
            self.requests[event["requestId"]].done = True


@dataclass
class Load:
    """One load of a page: its network requests (cache hits left out) and its times (ms)."""

    requests: list[Request]
    #: Those of them that the page sent after it was ready.
    later: list[Request]
    dcl: float
    load: float
    ready: float | None  # None: not ready within TIMEOUT_MS
    charts: str

    @property
    def wire_kb(self) -> float:
        return sum(r.wire for r in self.requests) / 1000

    @property
    def raw_kb(self) -> float:
        return sum(r.raw for r in self.requests) / 1000


def load_once(page: Page, traffic: Traffic, url: str) -> Load:
    """Navigate to ``url``, wait until it is ready, then until the network is quiet (at most
    ``QUIET_CAP_S``): the times, and the requests up to then (those after ready also apart)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    traffic.reset()
    response = page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    if response is None or response.status >= 400:
        raise RuntimeError(f"{url} answered {response.status if response else 'nothing'}")
    if urlsplit(page.url).path != urlsplit(url).path:
        raise RuntimeError(f"{url} went to {page.url}")
    try:
        times = page.wait_for_function(READY, timeout=TIMEOUT_MS, polling=50).json_value()
        ready = float(times["ready"])
    except PlaywrightTimeout:
        times, ready = page.evaluate(TIMES), None
    deadline = time.monotonic() + QUIET_CAP_S
    while time.monotonic() < deadline and not traffic.quiet(QUIET_S):
        page.wait_for_timeout(50)
    charts = f"{times.get('first', 0)}/{times.get('charts', 0)}" if "charts" in times else "?"
    sent = [r for r in traffic.requests.values() if not r.cached]
    # The page's clock from the protocol's: the page's own request was sent at its fetchStart.
    first = min((r.sent for r in traffic.requests.values()), default=0.0)
    return Load(
        requests=sent,
        later=[
            r
            for r in sent
            if ready is not None and (r.sent - first) * 1000 + float(times["fetch"]) > ready
        ],
        dcl=float(times["dcl"]),
        load=float(times["load"]),
        ready=ready,
        charts=charts,
    )


def measure(
    browser: Browser, base: str, state: StorageState, url: str, args: argparse.Namespace
) -> tuple[Load, Load]:
    """A cold load of ``url`` in a new context signed in with ``state``, then a warm one."""
    view: dict[str, Any] = (
        {"viewport": PHONE, "is_mobile": True, "has_touch": True}
        if args.phone
        else {"viewport": CHROMEBOOK}
    )
    context: BrowserContext = browser.new_context(base_url=base, storage_state=state, **view)
    context.add_init_script(DRAWN_AT)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        traffic = Traffic()
        traffic.listen(cdp)
        cdp.send("Network.enable")
        cdp.send("Network.clearBrowserCache")
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": args.latency,
                "downloadThroughput": args.mbit * 1_000_000 / 8,
                "uploadThroughput": args.up_mbit * 1_000_000 / 8,
            },
        )
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
        cold = load_once(page, traffic, url)
        page.goto("about:blank")
        warm = load_once(page, traffic, url)
        return cold, warm
    finally:
        context.close()


# --- the report ----------------------------------------------------------------------------


def _ms(value: float | None) -> str:
    return "timeout" if value is None else f"{value:.0f}"


def _goal(label: str, cold: Load, warm: Load) -> str:
    def check(load: Load, limit: int) -> str:
        ok = load.ready is not None and load.ready < limit
        return f"{_ms(load.ready)} ms (< {limit}): {'met' if ok else 'MISSED'}"

    return (
        f"- {label}: cold ready {check(cold, GOAL_COLD_MS)}; warm ready {check(warm, GOAL_WARM_MS)}"
    )


def run_checkout(browser: Browser, repo: Path, args: argparse.Namespace) -> bool:
    """Measure the pages of one checkout and print its tables; False if anything errored."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True
    ).stdout.strip()
    print(f"\n## {repo} ({commit or 'no commit'})\n")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        try:
            server, base, demo = serve(repo, Path(tmp))
        except (RuntimeError, subprocess.CalledProcessError) as failed:
            print(f"error: the server did not start: {failed}")
            return False
        load_average = os.getloadavg()
        labels = dict(PAGES)
        try:
            results: dict[str, tuple[Load, Load] | Exception] = {}
            student = [n for n in args.pages if n not in TEACHER_PAGES]
            teacher = [n for n in args.pages if n in TEACHER_PAGES]
            for names, username, password in (
                (student, demo.student, demo.student_password),
                (teacher, demo.teacher, demo.teacher_password),
            ):
                if not names:
                    continue
                try:
                    state, urls = find_pages(browser, base, username, password, names, labels)
                except Exception as failed:
                    results.update({n: failed for n in names})
                    continue
                for name in names:
                    url = urls[name]
                    if isinstance(url, Exception):
                        results[name] = url
                        continue
                    try:
                        results[name] = measure(browser, base, state, url, args)
                    except Exception as failed:
                        results[name] = failed
        finally:
            server.terminate()
            server.wait(timeout=10)
    view = "360 x 740 phone, touch" if args.phone else "1366 x 768"
    print(
        f"{args.mbit:g} Mbit/s down, {args.up_mbit:g} Mbit/s up, {args.latency:g} ms latency, "
        f"CPU {args.cpu:g}x slower, {view}. Load average when the server started: "
        + " ".join(f"{x:.2f}" for x in load_average)
        + "\n"
    )
    print(
        "| page | requests cold | KB on wire cold | KB raw cold | DCL ms | load ms "
        "| ready ms (cold) | requests warm | KB on wire warm | ready ms (warm) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    missing = []
    for name in args.pages:
        result = results.get(name)
        if not isinstance(result, tuple):
            missing.append((name, result))
            continue
        cold, warm = result
        print(
            f"| {labels[name]} | {len(cold.requests)} | {cold.wire_kb:.1f} | {cold.raw_kb:.1f} "
            f"| {cold.dcl:.0f} | {cold.load:.0f} | {_ms(cold.ready)} | {len(warm.requests)} "
            f"| {warm.wire_kb:.1f} | {_ms(warm.ready)} |"
        )
    print()
    for name, why in missing:
        if not isinstance(why, Skipped):
            ok = False
        reason = f"{type(why).__name__}: {why}" if why else "not run"
        print(f"not measured: {labels[name]}: " + reason.splitlines()[0])
    measured = [(n, r) for n, r in results.items() if isinstance(r, tuple)]
    if measured:
        print("\nLargest responses, cold (KB on wire); charts in the first screen/on the page:\n")
    for name, (cold, _) in measured:
        largest = sorted(cold.requests, key=lambda r: r.wire, reverse=True)[:3]
        later = sorted(cold.later, key=lambda r: r.wire, reverse=True)
        print(
            f"- {labels[name]} (charts {cold.charts}): "
            + ", ".join(f"{urlsplit(r.url).path} {r.wire / 1000:.1f}" for r in largest)
            + (
                f"; sent after ready: {len(later)}, {sum(r.wire for r in later) / 1000:.1f} KB"
                f" ({urlsplit(later[0].url).path})"
                if later
                else ""
            )
        )
    print("\nGoals (issue 25):\n")
    for name in DASHBOARDS:
        result = results.get(name)
        if isinstance(result, tuple):
            print(_goal(labels[name], *result))
        else:
            print(f"- {labels[name]}: not measured")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", action="append", type=Path, help="a checkout (repeatable)")
    parser.add_argument(
        "--pages",
        action="append",
        choices=list(PAGES),
        help="measure only these pages (repeatable; default all)",
    )
    parser.add_argument("--mbit", type=float, default=3.0, help="download, Mbit/s (3)")
    parser.add_argument("--up-mbit", type=float, default=1.0, help="upload, Mbit/s (1)")
    parser.add_argument("--latency", type=float, default=50.0, help="added latency, ms (50)")
    parser.add_argument("--cpu", type=float, default=4.0, help="CPU slowdown factor (4)")
    parser.add_argument("--phone", action="store_true", help="a 360 x 740 phone with touch")
    args = parser.parse_args()
    args.pages = [name for name in PAGES if name in (args.pages or PAGES)]
    repos = [repo.resolve() for repo in args.repo or [ROOT]]
    from playwright.sync_api import sync_playwright

    print("# Page weight and load times (bench/pages.py)")
    print("\nLoad average at the start: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    ok = True
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for repo in repos:
                ok = run_checkout(browser, repo, args) and ok
        finally:
            browser.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
