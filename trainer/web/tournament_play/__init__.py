"""A class tournament's round matches scored in the app, at the table (issue #11, ruling P-K6).

:mod:`.scoring` reads a match and its recorded games (the teacher's control page uses it for the
live score); :mod:`.routes` is the blueprint. The package imports neither on its own, so the
teacher's tournament module can import :mod:`.scoring` without a cycle.
"""
