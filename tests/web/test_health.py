"""The liveness check: plain "ok" for a load balancer, with the usual security headers."""

from __future__ import annotations

from tests.conftest import make_test_config
from trainer.web import create_app


def test_healthz_says_ok_in_plain_text(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok"
    assert response.mimetype == "text/plain"


def test_healthz_has_the_security_headers(client):
    response = client.get("/healthz")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_healthz_only_answers_get(client):
    assert client.post("/healthz").status_code == 405


def test_healthz_does_not_touch_the_database(tmp_path):
    config = make_test_config("sqlite", tmp_path)
    # A database in a directory that does not exist: any query would fail.
    config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path / 'missing' / 'nowhere.db'}"
    response = create_app(config).test_client().get("/healthz")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == "ok"
