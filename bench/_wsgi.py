"""The app as gunicorn serves it in the benchmark, plus one bench-only page.

``POST /bench/signed-in`` does what every student POST does before its own work (session, user
load, role check, CSRF check) and nothing else: the floor the review endpoint stands on.
"""

from flask import redirect
from werkzeug.wrappers import Response

from trainer.web import create_app
from trainer.web.security import student_required

app = create_app()


@student_required
def signed_in() -> Response:
    """An empty signed-in POST: the fixed cost of any student request."""
    return redirect("/study/")


app.add_url_rule("/bench/signed-in", "bench_signed_in", signed_in, methods=["POST"])
