"""Accounts: sign up, log in, log out."""

from .routes import bp

__all__ = ["bp"]
