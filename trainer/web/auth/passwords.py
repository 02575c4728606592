"""Which self-chosen passwords are too easy to guess, judged by zxcvbn rather than a list of our own.

zxcvbn (Dropbox's estimator, maintained as the ``zxcvbn`` package) knows the common passwords,
names and words, keyboard runs, dates and repeats, and estimates how many guesses a password
takes. Its score runs from 0 ("password", "12345678") to 4. A score of 2 or more (about 10^6
guesses and up) is what an online attacker, slowed by the login limits, cannot reach; a password
with the username in it is refused whatever its score, since a classmate guesses that first.
"""

from __future__ import annotations

import zxcvbn

#: The lowest zxcvbn score accepted.
MIN_SCORE = 2
#: zxcvbn refuses longer input; what comes after this is not judged (a longer password only adds).
_JUDGED_LENGTH = 72
#: A username this short ("al") is in too many good passwords to refuse them all.
_MIN_USERNAME_IN_PASSWORD = 3

TOO_EASY = "That password is too easy to guess. Try three words you will remember, like purple-tiger-rocket."
HAS_USERNAME = (
    "That password has your username in it, so it is easy to guess. "
    "Try three words you will remember, like purple-tiger-rocket."
)


def _letters_and_digits(text: str) -> str:
    return "".join(char for char in text.casefold() if char.isalnum())


def password_problem(password: str, username: str = "") -> str | None:
    """Why ``password`` is too easy to guess for the account ``username``, or None when it is not.

    The username is checked here, not passed to zxcvbn as a "user input": zxcvbn keeps user
    inputs in a module-level dictionary, which two threads of one worker would share.
    """
    if not password:  # (zxcvbn fails on an empty string)
        return TOO_EASY
    name = _letters_and_digits(username)
    if len(name) >= _MIN_USERNAME_IN_PASSWORD and name in _letters_and_digits(password):
        return HAS_USERNAME
    if zxcvbn.zxcvbn(password[:_JUDGED_LENGTH])["score"] < MIN_SCORE:
        return TOO_EASY
    return None


__all__ = ["HAS_USERNAME", "MIN_SCORE", "TOO_EASY", "password_problem"]
