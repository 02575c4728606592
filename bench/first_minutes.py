"""Benchmark: a new student's first minutes on a 360 x 740 phone, before and after issue 21.

Serves each checkout given (``--repo``, the working tree by default; e.g. a ``git worktree`` of
the commit before #21) with ``flask run`` on a fresh SQLite instance, and in Debian's Chromium at
360 x 740 (a phone, touch) measures, in the same run:

- **a round of 10**: a new student signs up and plays the first round of 10 to its summary the
  quickest way the page offers: a pick or a tap on the map answers where that is enough, else it is
  followed by Check; a typed question is typed and sent with Enter; then Next. It counts the
  student's actions (a click, a tap, a key that sends) and the page loads (the ``load`` events of
  the round's pages, the first question's and the summary's included);
- **the header** (site header with its navigation) height on the study home;
- **the Dashing States race page**'s height once a round is dealt.

It answers without knowing the answers (the first option, the first state on the map, "x" typed):
the counts do not depend on being right.

Run it from the project root::

    git worktree add /tmp/before21 9dddf35
    .venv/bin/python bench/first_minutes.py --repo /tmp/before21 --repo .
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}
#: A round's page is ready for the next action: its summary, a feedback's Next, or a question.
READY = """() => {
  const seen = (el) => el && el.offsetParent !== null;
  const h1 = document.querySelector("h1");
  return (h1 && h1.textContent.includes("Round done")) || seen(document.querySelector("#next"))
    || seen(document.querySelector("#answer-form"));
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(repo: Path, instance: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``flask run`` in ``repo`` (its own ``trainer`` package first on the path) on a new instance."""
    env = {**os.environ, "GEOPLUNGE_INSTANCE_PATH": str(instance), "PYTHONPATH": str(repo)}
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run(
        [python, "-m", "flask", "--app", "app", "db", "upgrade"],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
    )
    port = _free_port()
    server = subprocess.Popen(
        [python, "-m", "flask", "--app", "app", "run", "-p", str(port)],
        cwd=repo,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.2)
    return server, f"http://127.0.0.1:{port}"


def first_round(browser, base: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(base_url=base, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/auth/signup")
    page.get_by_label("Username").fill(f"kid{int(time.time() * 1000) % 10**8}")
    page.get_by_label("Password", exact=True).fill("maps are fun")
    page.get_by_label("Type the password again").fill("maps are fun")
    page.get_by_label("Type the password again").press("Enter")
    page.wait_for_url("**/study/")
    page.wait_for_load_state("load")
    header = page.locator("header").first.bounding_box()
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    page.get_by_role("button", name="Start studying").click()
    actions = 0  # the round's own: Start studying is not counted
    next_ = page.locator("#next")
    for _ in range(40):
        page.wait_for_function(READY)
        if page.locator("h1", has_text="Round done").count():
            break
        if next_.count() and next_.is_visible():
            next_.click()
            actions += 1
            next_.wait_for(state="hidden")
            continue
        form = page.locator("#answer-form")
        options = form.locator("input[type=radio]")
        spots = form.locator("[data-spot]")
        if options.count():
            options.first.check(force=True)
        elif spots.count():
            spots.first.dispatch_event("click")
        else:
            box = form.locator("input[type=text]").first
            box.fill("x")
            box.press("Enter")
        actions += 1
        try:
            next_.wait_for(state="visible", timeout=2_000)
        except PlaywrightTimeout:
            form.get_by_role("button", name="Check").click()
            actions += 1
            next_.wait_for(state="visible")
    page.wait_for_load_state("load")
    round_loads = [url for url in loads if "/study/rounds/" in url]
    page.goto("/play/dashing-states/")
    page.get_by_role("button", name="Deal the Map cards").click()
    page.wait_for_load_state("load")
    dashing = page.evaluate("document.documentElement.scrollHeight")
    context.close()
    return {
        "actions": actions,
        "loads": len(round_loads),
        "header": header["height"] if header else float("nan"),
        "dashing": dashing,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", action="append", type=Path, help="a checkout (repeatable)")
    args = parser.parse_args()
    repos = args.repo or [ROOT]
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for repo in repos:
            commit = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"],
                cwd=repo,
                capture_output=True,
                text=True,
            ).stdout.strip()
            with tempfile.TemporaryDirectory() as tmp:
                server, base = serve(repo.resolve(), Path(tmp))
                try:
                    rows.append((f"{repo} ({commit})", first_round(browser, base)))
                finally:
                    server.terminate()
                    server.wait(timeout=10)
        browser.close()
    print(
        "| checkout | actions, round of 10 | page loads, round of 10 | header px | Dashing page px |"
    )
    print("|---|---:|---:|---:|---:|")
    for name, r in rows:
        print(
            f"| {name} | {r['actions']:.0f} | {r['loads']:.0f} | {r['header']:.0f} | "
            f"{r['dashing']:.0f} |"
        )


if __name__ == "__main__":
    sys.exit(main())
