"""The WSGI entry point of a checkout: ``flask --app app run`` or ``gunicorn app:app``
(an installed copy: ``flask --app trainer.web.app run``, see ``trainer/web/app.py``)."""

from trainer.web.app import app

__all__ = ["app"]
