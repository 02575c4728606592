"""Where a student request's CPU goes: the hot paths profiled in one process.

Builds the app on a new SQLite database (migrated), one student with study rounds, signs in with
Flask's test client and then, for each hot path, runs it ``--requests`` times under
``time.process_time`` and once more under cProfile:

- ``question``: GET a study item not yet answered (a page);
- ``answer``: POST its answer (the review recorded; the redirect not followed);
- ``feedback``: GET the answered item (its card and what comes next);
- ``signed-in``: an empty signed-in POST (session, user, role and CSRF checks only);
- ``bare``: GET /healthz (no session, no database).

It prints the CPU milliseconds per request of each, as a multiple of ``bare``, and, with
``--profile``, the functions that take the most of each path's time (cumulative, the app's and
its libraries' own code), so a change can be judged against the same run's baseline.

Run it from the project root, on an idle machine::

    .venv/bin/python bench/hot_paths.py                   # 300 requests per path
    .venv/bin/python bench/hot_paths.py --profile answer  # and the profile of one path
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import os
import pstats
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
PATHS = ("question", "answer", "feedback", "signed-in", "bare")


def _review_bench():  # type: ignore[no-untyped-def]
    """bench/review.py, whose students and rounds this bench reuses."""
    spec = importlib.util.spec_from_file_location("bench_review", ROOT / "bench" / "review.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per path (300)")
    parser.add_argument("--profile", choices=PATHS, action="append", default=[])
    parser.add_argument("--top", type=int, default=25, help="rows of each profile (25)")
    parser.add_argument(
        "--sort", default="cumulative", help="pstats order of the profile: cumulative, tottime..."
    )
    args = parser.parse_args()
    review = _review_bench()
    with tempfile.TemporaryDirectory(prefix="geoplunge-hot-") as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{Path(tmp) / 'hot.db'}",
            "SECRET_KEY": secrets.token_hex(32),
        }
        env.pop("REDIS_URL", None)
        os.environ.update(env)
        review.migrate(env)
        # Each measured answer (and each profiled one) needs an item not yet answered.
        plans = review.make_plans(1, 2 * args.requests + 10, seed=1)
        answers = iter(plans[0]["answers"])

        spec = importlib.util.spec_from_file_location("bench_wsgi", ROOT / "bench" / "_wsgi.py")
        assert spec and spec.loader
        wsgi = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(wsgi)
        app = wsgi.app
        client = app.test_client()
        page = client.get("/auth/login").get_data(as_text=True)
        token = CSRF.search(page).group(1)
        done = client.post(
            "/auth/login",
            data={
                "username": plans[0]["username"],
                "password": review.PASSWORD,
                "csrf_token": token,
            },
        )
        assert done.status_code == 302, done.status_code
        first, _ = plans[0]["answers"][0]
        page = client.get(first).get_data(as_text=True)
        token = CSRF.search(page).group(1)
        state = {"last": first}
        state["path"], state["fields"] = next(answers)

        def question() -> None:
            response = client.get(state["path"])  # the first item not yet answered
            assert response.status_code == 200, response.status_code

        def answer() -> None:
            question()
            response = client.post(state["path"], data={**state["fields"], "csrf_token": token})
            assert response.status_code == 302, response.status_code
            state["last"] = state["path"]
            state["path"], state["fields"] = next(answers)

        def feedback() -> None:
            response = client.get(state["last"])
            assert response.status_code == 200, response.status_code

        def signed_in() -> None:
            response = client.post("/bench/signed-in", data={"csrf_token": token})
            assert response.status_code == 302, response.status_code

        def bare() -> None:
            response = client.get("/healthz")
            assert response.status_code == 200, response.status_code

        # ``answer`` includes its question's GET (an item is answered once, in order): its own
        # cost is reported as the difference.
        paths = {
            "question": question,
            "answer": answer,
            "feedback": feedback,
            "signed-in": signed_in,
            "bare": bare,
        }
        for run in paths.values():  # warm: templates compiled, caches filled
            for _ in range(5):
                run()
        cpu: dict[str, float] = {}
        for name, run in paths.items():
            started = time.process_time()
            for _ in range(args.requests):
                run()
            cpu[name] = (time.process_time() - started) * 1000 / args.requests
        cpu["answer"] -= cpu["question"]
        print(
            f"{args.requests} requests per path, in-process (Flask's test client), SQLite; load "
            + " ".join(f"{x:.2f}" for x in os.getloadavg())
        )
        print(f"{'path':<12}{'CPU ms/request':>16}{'x bare':>9}")
        for name in PATHS:
            print(f"{name:<12}{cpu[name]:>16.2f}{cpu[name] / cpu['bare']:>9.1f}")
        for name in args.profile:
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(min(100, args.requests)):
                paths[name]()
            profile.disable()
            print(f"\n== profile of {name} (100 requests; answer includes its question) ==")
            stats = pstats.Stats(profile)
            stats.sort_stats(args.sort).print_stats(args.top)
        with app.app_context():
            from trainer.web.extensions import db

            db.session.remove()
            db.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
