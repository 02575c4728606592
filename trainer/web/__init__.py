"""The Flask application: ``create_app`` binds the core deck, the database and the blueprints."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from jinja2.bccache import Bucket, BytecodeCache
from werkzeug.middleware.proxy_fix import ProxyFix

from trainer import pickmap
from trainer.cards import DATA_DIR, Deck, load_deck

from . import assets, errors, guards, security
from . import config as config_module
from .extensions import compress, csrf, db, limiter, login_manager, migrate

_PACKAGE = Path(__file__).resolve().parents[1]
#: The checkout this code runs from, or None when it runs as an installed package.
PROJECT_ROOT: Path | None = (
    _PACKAGE.parent if (_PACKAGE.parent / "pyproject.toml").is_file() else None
)
#: Alembic's scripts: ``migrations/`` in a checkout, ``trainer/migrations`` when installed.
MIGRATIONS_DIR = _PACKAGE / "migrations" if PROJECT_ROOT is None else PROJECT_ROOT / "migrations"


def _instance_path() -> str | None:
    """Where the SQLite database and the secret key live: ``GEOPLUNGE_INSTANCE_PATH``, else
    ``instance/`` in a checkout, else Flask's own choice for an installed package
    (``<venv>/var/trainer.web-instance``), the same from whichever directory the app starts."""
    chosen = os.environ.get("GEOPLUNGE_INSTANCE_PATH")
    if chosen:
        return str(Path(chosen).resolve())
    return str(PROJECT_ROOT / "instance") if PROJECT_ROOT is not None else None


class _TemplateCode(BytecodeCache):
    """Compiled templates kept in memory for the process (jinja2's own caches are per app)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_TEMPLATE_CODE = _TemplateCode()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app.

    Args:
        test_config: settings that override the environment (tests pass their database here).

    Raises:
        trainer.cards.DeckError: the deck in ``DATA_DIR`` breaks a rule; the app refuses to start.
    """
    app = Flask(
        __name__,
        instance_path=_instance_path(),
        instance_relative_config=True,
    )
    app.config.update(config_module.DEFAULTS)
    # Templates compiled once per process, whatever the number of apps built in it (each test
    # builds its own): the cache is keyed by the template's name and source, so an edited template
    # is compiled again.
    app.jinja_env.bytecode_cache = _TEMPLATE_CODE
    instance = Path(app.instance_path)
    app.config.update(
        config_module.from_environment(
            instance, with_secret="SECRET_KEY" not in (test_config or {})
        )
    )
    if not app.config.get("DATA_DIR"):
        app.config["DATA_DIR"] = str(DATA_DIR)
    if test_config:
        app.config.update(test_config)
    instance.mkdir(parents=True, exist_ok=True)

    # Checked before anything else: a wrong figure must never reach a student.
    app.extensions["deck"] = load_deck(app.config["DATA_DIR"])

    if app.config.get("BEHIND_PROXY"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]

    guards.init_app(app)  # first: bounds <int:...> before the blueprints' rules are added
    register_extensions(app)
    register_blueprints(app)
    errors.register_errorhandlers(app)
    security.init_app(app)
    assets.init_app(app)
    register_cli(app)
    return app


def register_extensions(app: Flask) -> None:
    """Bind the extension objects of ``extensions.py`` to this app."""
    from . import models
    from .live import sockets as live_sockets
    from .live import waits as live_waits

    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS_DIR), render_as_batch=True)
    csrf.init_app(app)
    limiter.init_app(app)
    login_manager.init_app(app)
    compress.init_app(app)
    live_sockets.init_app(app)
    live_waits.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = "Please log in to see that page."
    login_manager.login_message_category = "info"
    # "basic": a phone that changes network keeps its session (strong would log it out).
    login_manager.session_protection = "basic"

    from .auth import sessions

    @login_manager.user_loader
    def load_user(token: str) -> models.User | None:
        # The id in the cookie is a login session's token (trainer.web.auth.sessions): the user
        # and their live session come in one indexed query, so a logged-out cookie loads nobody.
        return sessions.load(token)

    # The user is loaded (and their session's last use noted) before each view, not halfway
    # through one: the note is committed while the view has written nothing yet.
    app.before_request(sessions.keep_alive)

    @app.context_processor
    def inject_globals() -> dict[str, Any]:
        return {"deck": get_deck()}

    # The pick maps' round targets for the states too small to tap (trainer.pickmap.targets).
    app.add_template_global(pickmap.targets, "pick_targets")
    app.jinja_env.globals["target_radius"] = pickmap.TARGET_RADIUS

    from .deck.routes import map_sprite_url
    from .modes import nav_links

    # The file of the 50 outlines that maps naming their states refer to (trainer.web.mapsprite).
    app.add_template_global(map_sprite_url, "map_sprite")

    # The main navigation links every mode that has a page (trainer.web.modes).
    app.add_template_global(nav_links, "nav_links")


#: Each feature's blueprint, in the order they are mounted: a module of this package (named
#: relative to it) that exposes ``bp``. The modes' web adapters register from these modules too
#: (:func:`trainer.web.modes.adapters` imports them all), so a mode in a new blueprint package is
#: found once its blueprint is listed here, with no second list.
BLUEPRINTS = (
    "main",
    "auth",
    "admin",
    "deck",
    "study",
    "play",
    "live",
    "teach",
    "assign",
    "dashboard",
    # The package does not import its routes itself (scoring is imported without the blueprint).
    "tournament_play.routes",
    "class_game",  # GeoPlunge Live (issue 23)
)


def register_blueprints(app: Flask) -> None:
    """Mount each feature's blueprint (:data:`BLUEPRINTS`)."""
    for name in BLUEPRINTS:
        app.register_blueprint(importlib.import_module(f"{__name__}.{name}").bp)


def register_cli(app: Flask) -> None:
    """Command-line helpers (``flask --app app check-data``, ``seed-demo``, ``create-admin``,
    ``fit-memory``, whose fits also run in the background after answers: see ``fitting``;
    ``live-tidy``)."""
    from . import demo, fitting
    from .admin import cli as admin_cli
    from .live import gone

    demo.init_app(app)
    admin_cli.init_app(app)
    fitting.init_app(app)
    gone.init_app(app)  # live-tidy (L-T13)

    @app.cli.command("check-data")
    def check_data() -> None:
        """Check the deck in data/ and report what was loaded."""
        deck = get_deck()
        print(
            f"Deck OK: {len(deck)} states, {len(deck.borders)} border pairs, "
            f"{len(deck.power_cards)} Power cards, {len(deck.geometry.shapes)} map outlines."
        )


def get_deck() -> Deck:
    """The deck this app loaded at start-up."""
    return current_app.extensions["deck"]


__all__ = ["create_app", "get_deck"]
