"""Clasp's exceptions. Every error of a file names the file and, where known, the line."""

from __future__ import annotations


class ClaspError(Exception):
    """Base of Clasp's errors."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line


class LoadError(ClaspError):
    """A file could not be loaded or saved: ``file`` and ``line`` say where (``line`` is None
    when the problem is the whole file)."""


class SaveError(ClaspError):
    """A world could not be written: ``file`` says where."""


class MoveError(ClaspError):
    """A request was refused and the world is unchanged: a body or robot that is not there
    (also when a grasp names none), a DOF value outside its limits, a robot carried by another
    moved alone."""


class QualityError(ClaspError):
    """A grasp could not be scored: a hand without virtual contacts, a wrench space too large
    to build."""
