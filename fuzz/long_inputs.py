"""Long hostile inputs for the linear-cost tests and the fuzzers: runs, repeated tokens, classes.

Each entry point of the importers meets, one line each, a run of one character between two
others (``a`` + spaces + ``x``: a run at the edge of a line is stripped before any pattern
sees it), a token of its own format repeated, and a cycle through characters of every class
(ASCII, Latin-1, spaces and line separators of Unicode, digits and letters of other scripts,
marks, symbols, an emoji).
"""

from __future__ import annotations

#: Characters of every class the patterns distinguish.
CHARACTER_CLASSES = ("".join(chr(i) for i in range(32, 127)) + "\t\x0b\x0c\x85\xa0\xad\xb2\xe4\xdf"
                     "\u2028\u2029\u3000\u2003\u0660\u0663\uff12\U0001d7d0\u2460\u0301\u2019"
                     "\u00e9\u0416\u4e2d\u05d0\U0001f600\ufeff")

#: Runs of one character (kept inside a line so that stripping does not remove them).
RUNS = (" ", "\t", "\xa0", ":", "-", "1", "a", "{", "[", "!", ",", "*", ".")

#: Tokens of each format, repeated by the tests.
TOKENS: dict[str, tuple[str, ...]] = {
    "text": ("1. ", "- ", "[12:04] ", "12:04 ", " !", "?? ", "Ada plays the red 7 and ",
             "Ada draws from the draw pile, ", "final score: Ada 5, ", "Ada: 5 points ",
             " vs ", "Ada's hand: R5 ", "it's Ada's turn ", "{c}", "} ", "and ", "  - ",
             "the red ", "Ada scores 5 ", "3 cards left "),
    "brdgme": ("[12:04] ", "- ", "12:04 - ", "{{player 0}}", "{{", "}}", "R5, ", "You drew R5, ",
               "Mick played R5 ", "Mick drew a card, 5 remaining ", "play ", "Ada: ", ": ",
               "Starting round 1 ", "took "),
    "lcn": ("1. ", "1... ", "R5/d ", "xR5/G ", "{", "{c} ", "; ", "[", '[A "', "$1 ", "!", "!? ",
            "0:0 ", "*", "\\", '"', "Rw/d "),
    "json": ("[", "{", '{"a":', '"', "\\", "null,", "1e9", "-"),
    "openspiel": ("play:r5 ", "lost_cities(", "\n", "Deal:", "draw:", "[", "'", "r5,"),
    "metapyziks": ("A", "+/", "=", "AAAA", "Ada1 "),
}


def repeated(token: str, size: int) -> str:
    """``token`` repeated to about ``size`` characters, on one line unless it holds a newline."""
    return token * max(1, size // len(token))


def inputs(fmt: str, size: int, most: int | None = None) -> dict[str, str]:
    """Named inputs of about ``size`` characters for the format ``fmt``.

    ``most`` keeps the first runs and tokens only (the character classes always come).
    """
    found = {f"run-{ord(char):x}": "a" + char * size + "x" for char in RUNS[:most]}
    found["classes"] = repeated(CHARACTER_CLASSES, size)
    for index, token in enumerate(TOKENS[fmt][:most]):
        found[f"token-{index}"] = repeated(token, size)
    return found


__all__ = ["CHARACTER_CLASSES", "RUNS", "TOKENS", "from_bytes", "inputs", "repeated"]


def from_bytes(data: bytes) -> bytes:
    """A structured long input from a fuzzer's bytes (the coverage-guided harness's target).

    The first bytes choose the format, the kind of line (a run, a token of the format, the
    character classes), its length and what is repeated; the rest of the bytes, as text,
    surround the line, so that coverage guidance can still steer what comes around it. The
    length is spread evenly over its logarithm, from 1 to 65,536 characters: long lines come
    often enough to show work that grows faster than a line, short ones keep the run fast.
    """
    if len(data) < 4:
        return data
    fmt = list(TOKENS)[data[0] % len(TOKENS)]
    size = (1 << (data[1] % 16)) + data[2] * (1 << (data[1] % 16)) // 256
    pick = data[3]
    rest = data[4:].decode("utf-8", "replace")
    middle = len(rest) // 2
    if pick % 3 == 0:
        line = "a" + RUNS[pick // 3 % len(RUNS)] * size + "x"
    elif pick % 3 == 1:
        tokens = TOKENS[fmt]
        line = repeated(tokens[pick // 3 % len(tokens)], size)
    else:
        line = repeated(CHARACTER_CLASSES[pick // 3 % 40:], size)
    return (rest[:middle] + line + rest[middle:]).encode("utf-8")
