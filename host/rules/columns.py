"""Column names of the notation: ``@`` for 0, then ``A`` … ``Z``, ``AA`` … in bijective base 26.

Its own module because both the notation (moves as text) and the position (squares named in
the reasons a move is illegal) need it, and the notation builds on the position.
"""

__all__ = ["column_name", "column_number"]


def column_name(number: int) -> str:
    """0 → ``@``, 1 → ``A``, 26 → ``Z``, 27 → ``AA`` (bijective base 26)."""
    if number < 0:
        raise ValueError("column numbers start at 0")
    if number == 0:
        return "@"
    letters = []
    while number:
        number, digit = divmod(number - 1, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters))


def column_number(name: str) -> int:
    """``@`` → 0, ``A`` → 1, ``AA`` → 27: the inverse of ``column_name``."""
    if name == "@":
        return 0
    number = 0
    for ch in name:
        number = number * 26 + ord(ch) - ord("A") + 1
    return number
