"""The colours of the Lost Cities family: a letter each in LCN, a name each in words.

Every game of the family draws its expeditions from these seven colours (classic five or six,
Rivals five, Roll & Write six, in orders of their own), so their names are written here once
and each game, the descriptions of turns, the command and the site ask for them here.
"""

from __future__ import annotations

from ..messages import Message, msg, template

#: Each colour's name by its letter, as templates (said in the reader's language through the
#: catalogs when made a :class:`~lcn.messages.Message`).
COLOUR_WORDS: dict[str, str] = {
    "Y": template("yellow"), "B": template("blue"), "W": template("white"),
    "G": template("green"), "R": template("red"), "P": template("purple"),
    "O": template("orange"),
}


def colour_name(letter: str) -> Message:
    """The name of a colour, by its letter (an unknown letter is said as it is written).

    >>> colour_name("R"), colour_name("P").said_in("de"), colour_name("Z")
    ('red', 'Lila', 'Z')
    """
    wording = COLOUR_WORDS.get(letter.upper())
    return Message(wording) if wording is not None else msg("{letter}", letter=letter)


def colour_names(letters: str) -> dict[str, str]:
    """The names of a game's colours, by letter in the game's order (``"YBWGR"``)."""
    return {letter: Message(COLOUR_WORDS[letter]) for letter in letters}


__all__ = ["COLOUR_WORDS", "colour_name", "colour_names"]
