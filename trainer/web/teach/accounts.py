"""Student accounts made by a teacher: reading a pasted list of names, usernames and passwords."""

from __future__ import annotations

import os
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..auth.passwords import password_problem
from ..models import USERNAME_MAX, User
from ..text import UnsafeText, clean_name

#: Names added at once: a big class, with room to spare; more is almost surely a wrong paste.
MAX_NAMES = 60
NAME_MAX = 60
#: The part of a username taken from the first name, so a suffix always fits.
FIRST_NAME_MAX = 20
USERNAME_MIN = 3

#: Letters that Unicode does not decompose into an ASCII letter and a mark.
_SPECIAL_LETTERS = {
    "ß": "ss",
    "æ": "ae",
    "œ": "oe",
    "ø": "o",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "ł": "l",
    "ı": "i",
    "ŋ": "n",
    "ħ": "h",
    "ŧ": "t",
    "ĸ": "k",
}
_APOSTROPHES = "'’ʼ‘`"
_SEPARATORS = "-‐‑–."


@dataclass(frozen=True)
class StudentName:
    """One line of the list: the name as typed (for the slip) and its first and last parts."""

    line: int
    name: str
    first: str
    last: str

    @property
    def key(self) -> str:
        """The name with case, accents and punctuation ignored: two lines with one key are one child."""
        return fold(self.first + " " + self.last)


class NameListError(ValueError):
    """The list cannot be used as it is; ``messages`` name each line to fix."""

    def __init__(self, messages: list[str]):
        super().__init__(" ".join(messages))
        self.messages = messages


def fold(text: str) -> str:
    """``text`` in lower-case ASCII letters and digits: accents dropped, apostrophes and dashes removed."""
    out = []
    for char in unicodedata.normalize("NFKD", text.casefold()):
        if unicodedata.combining(char):
            continue
        char = _SPECIAL_LETTERS.get(char, char)
        out.append(char if char.isascii() and (char.isalnum() or char == " ") else "")
    return " ".join("".join(out).split())


def _odd_characters(name: str) -> list[str]:
    """Characters that are not in anybody's name (digits, @, <, ...), in order, once each."""
    odd: list[str] = []
    for char in name:
        if char.isalpha() or char == " " or char in _APOSTROPHES or char in _SEPARATORS:
            continue
        if unicodedata.combining(char):
            continue
        if char not in odd:
            odd.append(char)
    return odd


def parse_names(text: str) -> list[StudentName]:
    """Read a pasted list, one name per line ("Maria Gonzalez" or "Gonzalez, Maria").

    Blank lines are skipped; tabs (a spreadsheet column) count as spaces.

    Raises:
        NameListError: no names, too many, a line with characters no name has, a name with no
            letter that becomes a username, or the same name twice. Every line at fault is named.
    """
    names: list[StudentName] = []
    problems: list[str] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(lines, start=1):
        try:
            name = clean_name(
                raw
            )  # every typed name's check: no hidden or control characters (P-H12)
        except UnsafeText as hidden:
            problems.append(f"Line {number}: {hidden}")
            continue
        if not name:
            continue
        shown = name if len(name) <= NAME_MAX else name[:NAME_MAX] + "…"
        if len(name) > NAME_MAX:
            problems.append(f"Line {number} (“{shown}”) is longer than {NAME_MAX} characters.")
            continue
        if name.count(",") == 1:
            last, first = (part.strip() for part in name.split(","))
            name = f"{first} {last}".strip()
        odd = _odd_characters(name)
        if odd:
            problems.append(
                f"Line {number} (“{shown}”) has {'a character' if len(odd) == 1 else 'characters'} "
                f"that a name does not have: {' '.join(odd)}. Type one name per line, letters only."
            )
            continue
        parts = [part for part in name.split(" ") if fold(part)]
        if not parts:
            problems.append(
                f"Line {number} (“{shown}”) has no letters we can make a username from. "
                "Type the name in the Latin alphabet (A to Z; accents are fine)."
            )
            continue
        names.append(
            StudentName(
                line=number, name=name, first=parts[0], last=parts[-1] if len(parts) > 1 else ""
            )
        )
    if not names and not problems:
        raise NameListError(["Type at least one name, one per line."])
    if len(names) + len(problems) > MAX_NAMES:
        raise NameListError(
            [f"That is {len(names) + len(problems)} names. Add at most {MAX_NAMES} at a time."]
        )
    seen: dict[str, StudentName] = {}
    for entry in names:
        earlier = seen.get(entry.key)
        if earlier is not None:
            problems.append(
                f"Line {entry.line} (“{entry.name}”) is the same name as line {earlier.line}. "
                "Add a middle initial or the whole last name so the two can be told apart."
            )
        else:
            seen[entry.key] = entry
    if problems:
        raise NameListError(problems)
    return names


def username_base(entry: StudentName) -> str:
    """The username a name suggests: the first name and the last name's initial ("maria.g")."""
    first = fold(entry.first).replace(" ", "")[:FIRST_NAME_MAX]
    last = fold(entry.last).replace(" ", "")
    return f"{first}.{last[0]}" if last else first


def usernames_for(entries: Iterable[StudentName], is_taken: Callable[[str], set[str]]) -> list[str]:
    """A username per name, unique in the list and on the site: digits are added as needed.

    Args:
        entries: the names, in order.
        is_taken: given a username base, the taken usernames (lower-case) that start with it.
    """
    taken_by_base: dict[str, set[str]] = {}
    result: list[str] = []
    for entry in entries:
        base = username_base(entry)
        taken = taken_by_base.get(base)
        if taken is None:
            taken = taken_by_base[base] = set(is_taken(base))
        candidates = ([base] if len(base) >= USERNAME_MIN else []) + [
            f"{base}{n}" for n in range(2, 10_000)
        ]
        username = next(c for c in candidates if c not in taken and len(c) <= USERNAME_MAX)
        # Another base may start with this one ("ana" and "ana.b"): keep every set up to date.
        for other_base, other in taken_by_base.items():
            if username.startswith(other_base):
                other.add(username)
        result.append(username)
    return result


#: Short words a child can read and spell; no two look alike.
WORDS = tuple(
    [
        "ant",
        "apple",
        "arrow",
        "bear",
        "bee",
        "bell",
        "berry",
        "bird",
        "boat",
        "bone",
        "book",
        "boot",
        "box",
        "bread",
        "brick",
        "brush",
        "bus",
        "cake",
        "camel",
        "candy",
        "cap",
        "car",
        "cat",
        "chair",
        "chalk",
        "cloud",
        "coat",
        "comet",
        "corn",
        "cow",
        "crab",
        "crow",
        "cub",
        "cup",
        "deer",
        "desk",
        "dime",
        "dog",
        "doll",
        "door",
        "dove",
        "drum",
        "duck",
        "eagle",
        "earth",
        "egg",
        "elk",
        "fern",
        "fig",
        "fish",
        "flag",
        "flute",
        "fox",
        "frog",
        "gate",
        "gem",
        "goat",
        "golf",
        "grape",
        "grass",
        "gull",
        "hat",
        "hawk",
        "hen",
        "hill",
        "hippo",
        "horn",
        "horse",
        "house",
        "igloo",
        "ink",
        "jam",
        "jar",
        "jeep",
        "jet",
        "kite",
        "kiwi",
        "koala",
        "lake",
        "lamb",
        "lamp",
        "leaf",
        "lemon",
        "lime",
        "lion",
        "llama",
        "map",
        "maple",
        "melon",
        "milk",
        "mint",
        "moon",
        "moose",
        "moth",
        "mouse",
        "mug",
        "nest",
        "net",
        "newt",
        "note",
        "nut",
        "oak",
        "oar",
        "ocean",
        "olive",
        "onion",
        "orca",
        "otter",
        "owl",
        "panda",
        "park",
        "pear",
        "pen",
        "pig",
        "pine",
        "plum",
        "pond",
        "pony",
        "puppy",
        "quail",
        "rain",
        "raven",
        "reef",
        "river",
        "road",
        "robin",
        "rock",
        "roof",
        "rose",
        "sail",
        "salt",
        "sand",
        "seal",
        "seed",
        "sheep",
        "ship",
        "shoe",
        "snow",
        "sock",
        "sofa",
        "star",
        "stone",
        "sun",
        "swan",
        "table",
        "tent",
        "tiger",
        "toad",
        "train",
        "tree",
        "tulip",
        "turtle",
        "van",
        "vine",
        "wave",
        "whale",
        "wheat",
        "wind",
        "wolf",
        "yak",
        "zebra",
    ]
)
#: Digits only, so nothing can be read as a letter (no 0 or 1).
_DIGITS = "23456789"


def make_password(choice: Callable[[str | tuple[str, ...]], str] = secrets.choice) -> str:
    """An easy password for a child: two short words and two digits ("otterlamp47").

    A draw that the sign-up rule would refuse as easy to guess (about 1 in 140: the same word
    twice, "bearcat", "applegate") is drawn again, so a slip's password is never weaker than
    what a student may choose (``trainer.web.auth.passwords``).

    Args:
        choice: picks one element (``secrets.choice``; tests inject a seeded one).
    """
    while True:
        password = choice(WORDS) + choice(WORDS) + choice(_DIGITS) + choice(_DIGITS)
        if password_problem(password) is None:
            return password


SELF_MADE_ACCOUNT = "This student made their own account, so only they can change its password."
OTHER_TEACHERS_ACCOUNT = (
    "Another teacher made this student's account, so only that teacher can give it a new password."
)


def reset_refusal(student: User, teacher_id: int) -> str | None:
    """Why the teacher ``teacher_id`` may not give ``student`` a new password, or None when they may.

    Only the teacher who made the account from a list of names may (P-S3): joining a class
    never hands an account over.
    """
    if student.is_managed_by(teacher_id):
        return None
    return SELF_MADE_ACCOUNT if student.managed_by_id is None else OTHER_TEACHERS_ACCOUNT


#: Threads hashing one class's passwords: scrypt takes 32 MiB each, so a few at most.
_HASH_THREADS_MAX = 4


def _usable_cpus() -> int:
    """The CPUs this process may run on (a container may have fewer than the machine)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def hash_passwords(passwords: Sequence[str]) -> list[str]:
    """``User.hash_password`` of each password, in order, hashed on every CPU at once.

    scrypt is slow on purpose (a class of 60 took about 17 s one after another, holding a
    worker). ``hashlib.scrypt`` releases the GIL while it works, so threads run in parallel:
    ``bench/accounts.py`` measures it. The cost of each hash stays Werkzeug's default.
    """
    workers = min(len(passwords), _usable_cpus(), _HASH_THREADS_MAX)
    method = User.password_method()  # read here: the threads have no app context
    if workers <= 1:
        return [User.hash_password(password, method) for password in passwords]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hash") as pool:
        return list(pool.map(lambda password: User.hash_password(password, method), passwords))


_CODE_CHARS = re.compile(r"[\s-]+")


def normalise_code(text: str) -> str:
    """A join code as typed ("abcd efgh", "ABCD-EFGH") in its stored form ("ABCDEFGH")."""
    return _CODE_CHARS.sub("", text or "").upper()
