"""Students' real names, which only their teacher sees (issue 24).

A child's account carries only a username (``maria.g2``). The teacher of a class may give each of
its students a real name, stored on the class membership (``ClassMembership.display_name``): so it
belongs to that class, and only that class's teacher is ever shown it. Nothing here is used on a
student's page, and no other teacher's class has the row.

:func:`shown_name` is the one way a teacher's page writes a student ("Maria García (maria.g2)");
templates call it as ``student_name``. CSV downloads keep the username and the name in two columns.
"""

from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..models import ClassMembership

__all__ = ["display_names", "shown_name"]


def shown_name(username: str, display_name: str | None) -> str:
    """A student as their teacher's pages show them: "Maria García (maria.g2)", or the username
    alone when the teacher has given no name."""
    return f"{display_name} ({username})" if display_name else username


def display_names(class_id: int) -> dict[int, str]:
    """The real names the class's teacher gave its students, by student id (only those given).

    Only for pages of that class's own teacher: the caller has checked the class is theirs.
    """
    rows = db.session.execute(
        select(ClassMembership.student_id, ClassMembership.display_name).where(
            ClassMembership.class_id == class_id, ClassMembership.display_name.is_not(None)
        )
    )
    return {student_id: name for student_id, name in rows if name}
