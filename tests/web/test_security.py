"""Security: headers, CSP with no inline script, no CDN, role guards and error pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Blueprint, jsonify

from tests.conftest import AuthActions, make_user
from trainer.web.models import Role
from trainer.web.security import login_required, student_required, teacher_required

PAGES = ["/", "/deck/", "/deck/?sort=size", "/deck/ri", "/auth/login", "/auth/signup", "/nope"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", PAGES)
def test_strict_headers_on_every_page(client, path):
    response = client.get(path)
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("path", PAGES)
def test_no_inline_scripts_styles_or_external_assets(client, path):
    assert_strict_page(client.get(path).get_data(as_text=True))


def assert_strict_page(html: str) -> None:
    """The page holds under the strict CSP: scripts from /static only, no inline code or style, no CDN."""
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert 'src="/static/' in tag, tag
    assert not re.search(r"<script\b[^>]*>(?!</script>)", html), "inline script"
    assert " style=" not in html and "<style" not in html
    assert not re.search(r'(src|href)="(https?:)?//', html), "asset from another site"
    assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), "inline event handler"


def test_templates_and_static_use_no_cdn():
    for path in list((ROOT / "trainer/web/templates").rglob("*.html")) + list(
        (ROOT / "trainer/web/static").rglob("*.*")
    ):
        text = path.read_text(encoding="utf-8", errors="ignore")
        assert not re.search(r'(src|href)=["\']https?://', text), path


@pytest.fixture
def guarded_app(app):
    """The app with three guarded views, as later teacher pages will use them."""
    bp = Blueprint("guard_test", __name__)

    @bp.get("/_test/teacher")
    @teacher_required
    def teacher_page():
        return "teacher area"

    @bp.get("/_test/student")
    @student_required
    def student_page():
        return "student area"

    @bp.get("/_test/anyone")
    @login_required
    def anyone_page():
        return jsonify(ok=True)

    app.register_blueprint(bp)
    return app


GUARDS = [
    # path, role -> expected status
    ("/_test/teacher", None, 302),
    ("/_test/teacher", Role.STUDENT, 403),
    ("/_test/teacher", Role.TEACHER, 200),
    ("/_test/student", None, 302),
    ("/_test/student", Role.STUDENT, 200),
    ("/_test/student", Role.TEACHER, 403),
    ("/_test/anyone", None, 302),
    ("/_test/anyone", Role.STUDENT, 200),
    ("/_test/anyone", Role.TEACHER, 200),
]


@pytest.mark.parametrize(("path", "role", "status"), GUARDS)
def test_role_guards(guarded_app, path, role, status):
    client = guarded_app.test_client()
    if role is not None:
        make_user(guarded_app, "someone", role=role)
        AuthActions(client).login("someone")
    response = client.get(path)
    assert response.status_code == status
    if status == 302:
        assert response.headers["Location"].startswith("/auth/login?next=")
    if status == 403:
        assert "Not allowed" in response.get_data(as_text=True)


def test_role_guards_answer_json_clients_with_json(guarded_app):
    client = guarded_app.test_client()
    response = client.get("/_test/teacher", headers={"Accept": "application/json"})
    assert response.status_code == 401 and response.is_json
    make_user(guarded_app, "kid", role=Role.STUDENT)
    AuthActions(client).login("kid")
    response = client.get("/_test/teacher", headers={"Accept": "application/json"})
    assert response.status_code == 403 and response.json["error"] == "Not allowed"


def test_login_next_brings_user_back_to_guarded_page(guarded_app):
    client = guarded_app.test_client()
    make_user(guarded_app, "teach", role=Role.TEACHER)
    location = client.get("/_test/teacher").headers["Location"]
    response = AuthActions(client).login("teach", next_url=location.split("next=")[1])
    assert response.headers["Location"] == "/_test/teacher"


def test_500_page_in_site_style(app):
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/_test/crash")
    def crash():
        raise RuntimeError("boom")

    response = app.test_client().get("/_test/crash")
    assert response.status_code == 500
    html = response.get_data(as_text=True)
    assert "Something went wrong" in html and "boom" not in html


def test_404_json(client):
    response = client.get("/nope", headers={"Accept": "application/json"})
    assert response.status_code == 404 and response.json["error"] == "Page not found"


def test_405_page(client):
    response = client.post("/deck/", data={})
    assert response.status_code == 405 and "Not allowed" in response.get_data(as_text=True)
