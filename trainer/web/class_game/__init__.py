"""GeoPlunge Live (issue 23): a whole class plays one game, each student on their own device.

The teacher makes a game for a class (what the class is about to forget, or a part of the deck)
and shows its projector page: the code and a QR code, the lobby, each question, the reveal and
the standings. Students join with the code and answer on their own devices; the server judges
every answer (:mod:`trainer.class_game`) and records its reviews, mode "live". Pages hear of a
change through Socket.IO or long-polling, as the live tables' do (:mod:`trainer.web.live.sockets`).
"""

from ..modes import NavLink, WebMode, register
from .routes import bp

#: The students' menu link: joining a game with its code.
CLASS_GAME_LINK = NavLink("Class game", "class_game.index", 78, blueprint="class_game")

# The mode's web adapter: the menu link, and the teacher's pages name its answers "GeoPlunge Live".
# It deals no round and has no page of a student's own (a game is the class's): nothing to assign.
# The mode is registered by trainer.class_game, which the routes import.
register(WebMode("geoplunge-live", nav=CLASS_GAME_LINK, log_name="GeoPlunge Live"))

__all__ = ["CLASS_GAME_LINK", "bp"]
