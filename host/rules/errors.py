"""The one base class of every mistake a user can make.

A bad move, a bad record, a bad option or a player that cannot be opened is raised as a
``UserError`` (or a subclass defined beside the rule it breaks) wherever it is found, at any
layer; only the command line prints it, as one line and exit status 1, never as a traceback.
It subclasses ``ValueError`` because every such mistake is a value the program cannot use.
"""

__all__ = ["UserError"]


class UserError(ValueError):
    """A mistake of the user's: the message says what is wrong, in the user's terms."""
