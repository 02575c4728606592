"""Live play (issue 22): students play a card game together, each on their own device.

A student opens a table for any card game, classmates join with its code, and the computer fills
the seats left; every move is checked and stored by the server as in a game against the computer
(seed and actions, G9), and each seat sees only its own hand. Pages learn of a change through
Socket.IO (:mod:`.sockets`), or by asking for the table's version when the socket cannot connect.
"""

from .routes import bp

__all__ = ["bp"]
