"""brdg.me's e-mails: the game log in the "Since last time:" part of each, read from a mailbox.

brdg.me (Go, Miniand/brdg.me) plays by e-mail. After each command its server sends the
player who sent it, and the players whose turn it now is, an e-mail (``server/email``:
``SendGame`` composes it, ``SendRichMail`` sends it): a ``multipart/alternative`` message
whose ``text/plain`` part is the body rendered for a terminal (colour codes included) and
whose ``text/html`` part is the same in a ``<pre>``, both in base64, the text in UTF-8
without a declared charset (and no blank line between the headers and the first boundary:
mail programs read the boundary as the start of the body). Under ``Since last time:`` the
body holds the log messages the player had not yet been sent, one a line, each stamped
(``24 Nov 26 03:29 UTC: ``); then ``You can:`` and the commands, or the board. Every message
reaches each player once, so a player's mailbox (an mbox file, as a mail program keeps it,
or a single e-mail) holds that player's whole log, in order: that is what is read.

The structure is read by Python's ``email`` parser; the text part is decoded here, so that
each line can be placed in the file as it is: a line inside a base64 part is placed at the
four characters of base64 that hold its first byte (the mailer writes each part as one line).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import email
import re
from bisect import bisect_right
from dataclasses import dataclass

from ..diagnostics import Severity
from ..messages import msg
from .base import ImportError_, InputTooComplex, note, syntax_error

#: The line that begins a message in an mbox file (after the file's start or a blank line).
_FROM_LINE = re.compile(r"(?:\A|(?<=\n\n))From [^\n]*\n")
#: The heading of the log: the e-mail's ``{{b}}Since last time:{{_b}}``; the command line
#: writes ``{{b}}Since last time:{{_b}}:``.
_SINCE = ("Since last time:", "Since last time::")
_LINE = re.compile(r"[^\n]*+")
#: The head of each player's part of the command line's output (``cmd/main.go``).
_SECTION = re.compile(r"^--- OUTPUT FOR (.+) ---$", re.M)
#: A log message's stamp (brdg.me's ``log.RenderMessage``, Go's RFC 822 layout).
_MESSAGE_STAMP = re.compile(r"\d\d [A-Z][a-z]{2} \d\d \d\d:\d\d [A-Z]{1,5}: ")
_ANSI = re.compile(r"\x1b\[[0-9;?]*+[A-Za-z]")
#: What follows the log in the body: the commands, or the board (Lost Cities' begins with
#: the other player's expeditions, padded with spaces, or the discard piles).
_AFTER_LOG = re.compile(r"You can:$|\s|Discard\s")
#: A part that holds parts (Python's parser reads each level by a call of its own: a few
#: thousand levels exhaust its stack), and the line that may start a part.
_CONTAINER = re.compile(r"^content-type:[ \t]*+(?:\r?\n[ \t]++)?+(?:multipart|message)/",
                        re.IGNORECASE | re.MULTILINE)
_DELIMITER = re.compile(r"^--", re.MULTILINE)
#: The most parts holding parts one e-mail may have: brdg.me's have one, a mail program's a
#: few; the bound keeps the parser's depth far below Python's stack.
MAX_CONTAINERS = 20
#: The most boundary lines (``--...``) one e-mail may have: its parts are walked one by one.
MAX_PARTS = 1000
#: The charsets the text of an e-mail is written in, as :func:`codecs.lookup` names them.
#: Python knows other codecs (``punycode``, ``idna``, ``rot13``, ``zlib_codec``...) that are
#: not charsets of text at all, and some decode in time growing with the square of the input.
TEXT_CHARSETS = frozenset({
    "utf-8", "utf-7", "ascii", "iso8859-1", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
    "utf-32-be", *(f"iso8859-{n}" for n in (*range(2, 12), 13, 14, 15, 16)),
    *(f"cp125{n}" for n in range(9)), "koi8-r", "koi8-u", "koi8-t", "mac-roman",
    "mac-cyrillic", "mac-greek", "mac-latin2", "cp437", "cp850", "cp852", "cp866", "cp874",
    "gb2312", "gbk", "gb18030", "big5", "big5hkscs", "cp950", "shift_jis", "cp932", "euc_jp",
    "iso2022_jp", "euc_kr", "cp949", "iso2022_kr", "tis-620", "hz",
})


def is_mailbox(text: str) -> bool:
    """Whether the text is an e-mail of brdg.me's, or a mailbox of them."""
    head = text[:3000]
    return "Content-Type: multipart/alternative" in head and "Subject: " in head \
        and "brdg.me" in head


@dataclass
class MailLine:
    """A line of the log in an e-mail's text, as decoded (colour codes kept), and how its
    characters are placed in the file."""

    text: str
    place: _Placer
    start: int  # the line's first character in the decoded text
    #: Not a stamped message, where only messages can be (a damaged line): refused.
    stray: bool = False

    def where(self, column: int, length: int) -> tuple[int, int, int]:
        """The line, column and length in the file of ``length`` characters from
        ``column`` (1-based) of this line."""
        first = self.place(self.start + column - 1)
        last = self.place(self.start + column - 1 + max(length, 1) - 1)
        line, col = self.place.lines.at(first)
        end_line, end_col = self.place.lines.at(last)
        return line, col, (end_col - col + 1) if end_line == line else 1


class _Lines:
    """Line and column of an offset in the file."""

    def __init__(self, text: str) -> None:
        self.starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def at(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


class _Placer:
    """The place in the file of a character of a part's decoded text."""

    def __init__(self, lines: _Lines, decoded: str, payload_start: int,
                 encoded_places: list[int] | None) -> None:
        self.lines = lines
        self.decoded = decoded
        self.payload_start = payload_start
        self.encoded_places = encoded_places  # base64: the file offset of each character
        self._bytes: list[int] | None = None

    def __call__(self, index: int) -> int:
        index = max(0, min(index, len(self.decoded) - 1)) if self.decoded else 0
        if self.encoded_places is None:
            return self.payload_start + index
        if self._bytes is None:  # the byte offset of each character (UTF-8)
            offsets, total = [], 0
            for char in self.decoded:
                offsets.append(total)
                total += len(char.encode("utf-8", "surrogateescape"))
            self._bytes = offsets
        quad = 4 * (self._bytes[index] // 3) if self._bytes else 0
        if not self.encoded_places:
            return self.payload_start
        return self.encoded_places[min(quad, len(self.encoded_places) - 1)]


def _messages(text: str) -> list[tuple[int, str]]:
    """Each message of the mailbox (or the one e-mail) with its offset in the file."""
    starts = [m.end() for m in _FROM_LINE.finditer(text)]
    if not starts:
        return [(0, text)]
    ends = [*[m.start() for m in _FROM_LINE.finditer(text)][1:], len(text)]
    return [(start, text[start:end]) for start, end in zip(starts, ends, strict=True)]


def _refused(lines: _Lines, offset: int, message: str, bound: bool = False) -> ImportError_:
    """The error for an e-mail that is not read, at its place (``bound``: past a bound on its
    structure, refused as an input too large is)."""
    line, column = lines.at(offset)
    error = syntax_error("brdgme", [note("brdgme-mail", message, Severity.ERROR, line=line,
                                         column=column)])
    if not bound:
        return error
    return InputTooComplex(error.message, error.diagnostics, error.format)


def _check_structure(lines: _Lines, offset: int, message_text: str) -> None:
    """Refuse an e-mail whose structure would take more than a bounded effort to parse."""
    containers = _CONTAINER.finditer(message_text)
    for count, found in enumerate(containers, 1):
        if count > MAX_CONTAINERS:
            raise _refused(lines, offset + found.start(), msg(
                "an e-mail with more than {limit} parts that hold parts (multipart or message): "
                "brdg.me's e-mails have one", limit=MAX_CONTAINERS), bound=True)
    for count, found in enumerate(_DELIMITER.finditer(message_text), 1):
        if count > MAX_PARTS:
            raise _refused(lines, offset + found.start(), msg(
                "an e-mail with more than {limit} parts: brdg.me's e-mails have two",
                limit=MAX_PARTS), bound=True)


def _text_part(lines: _Lines, offset: int, message_text: str) -> _Placer | None:
    """The decoded text part of one message, placed in the file; None without one."""
    _check_structure(lines, offset, message_text)
    message = email.message_from_string(message_text)
    for part in message.walk():
        if part.get_content_type() != "text/plain" or part.is_multipart():
            continue
        payload = part.get_payload()
        if not isinstance(payload, str):
            return None
        found = message_text.find(payload) if payload else -1
        start = offset + (found if found >= 0 else 0)
        encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
        charset = part.get_content_charset() or "utf-8"  # brdg.me declares none: UTF-8
        codec = _codec(charset)
        if codec is None:
            lower = message_text.lower()
            header = lower.rfind("charset", 0, found if found > 0 else len(lower))
            declared = lower.find(charset.lower(), max(header, 0))
            raise _refused(lines, offset + max(declared, 0), msg(
                "the e-mail's text is in `{charset}`, which is not a charset of text (expected one "
                "such as utf-8, us-ascii, iso-8859-1 or windows-1252)", charset=charset))
        if encoding == "base64":
            places = [start + i for i, char in enumerate(payload) if not char.isspace()]
            letters = "".join(payload.split())
            letters = letters[:len(letters) // 4 * 4]  # a cut copy: the whole quads
            try:
                data = base64.b64decode(letters)
            except (binascii.Error, ValueError):
                data = b""
            decoded = data.decode(codec, "replace")
            return _Placer(lines, decoded, start, places)
        raw = part.get_payload(decode=True)
        decoded = raw.decode(codec, "replace") if isinstance(raw, bytes) else payload
        return _Placer(lines, decoded, start, None if decoded == payload else [])
    return None


def _codec(charset: str) -> str | None:
    """The codec of a declared charset; None for a codec that is not a charset of text.

    A name Python does not know is read as UTF-8, as brdg.me writes (a mailer's typo should
    not lose the game); a name it knows must be one of :data:`TEXT_CHARSETS`.
    """
    try:
        name = codecs.lookup(charset).name
    except (LookupError, ValueError):
        return "utf-8"
    if name not in TEXT_CHARSETS:
        return None
    return "utf-8" if name == "ascii" else name


def _log_block(decoded: str, start: int, end: int, placer: _Placer) -> list[MailLine]:
    """The log lines under ``Since last time:`` in ``decoded[start:end]`` (one e-mail's text,
    or one section of the command line's output).

    The log runs from the line after the heading to ``You can:`` or the board; its lines are
    the stamped messages and the blank lines some messages end with. A line there that is
    none of these (a damaged stamp, say) is given too, so that it is refused as not being an
    entry, at its place, rather than taken for the board.
    """
    body = [(m.start(), m.group()) for m in _LINE.finditer(decoded, start, end)
            if m.start() == start or decoded[m.start() - 1] == "\n"]
    shown = [_ANSI.sub("", line) for _, line in body]
    first = next((i + 1 for i, line in enumerate(shown) if line in _SINCE), None)
    if first is None:
        return []
    out: list[MailLine] = []
    index = first
    while index < len(body):
        plain = shown[index]
        if plain and not _MESSAGE_STAMP.match(plain):
            after_blank = index > first and not shown[index - 1]
            if not after_blank or not _AFTER_LOG.match(plain):
                out.append(MailLine(body[index][1], placer, body[index][0], stray=True))
            break
        if plain:
            out.append(MailLine(body[index][1], placer, body[index][0]))
        index += 1
    return out


def mail_lines(text: str) -> list[MailLine]:
    """The log lines of every e-mail of the mailbox (or of the one e-mail), in order."""
    lines = _Lines(text)
    out: list[MailLine] = []
    for offset, message_text in _messages(text):
        placer = _text_part(lines, offset, message_text)
        if placer is not None:
            out.extend(_log_block(placer.decoded, 0, len(placer.decoded), placer))
    return out


def is_cli_transcript(text: str) -> bool:
    """Whether the text is the output of brdg.me's command line (``cmd/main.go``)."""
    return _SECTION.search(text[:5000]) is not None


def cli_lines(text: str) -> tuple[list[MailLine], list[MailLine]]:
    """The log lines of the output of brdg.me's command line.

    The program prints a ``--- OUTPUT FOR <player> ---`` section for the player who typed a
    command and for each player whose turn it is, each with the messages new to that player
    (``Since last time:``); every player's sections together hold that player's log. The
    player of the last section has been shown every message so far (it is the one who acted
    last, or whose turn it is), so the log read is theirs: those are the first lines given.
    The other sections repeat the public messages; their lines are given second, to be
    checked (a damaged line is refused wherever it is) but not read.
    """
    sections = list(_SECTION.finditer(text))
    if not sections:
        return [], []
    viewer = sections[-1].group(1)
    placer = _Placer(_Lines(text), text, 0, None)
    read: list[MailLine] = []
    checked: list[MailLine] = []
    for index, section in enumerate(sections):
        end = sections[index + 1].start() if index + 1 < len(sections) else len(text)
        lines = _log_block(text, section.end(), end, placer)
        (read if section.group(1) == viewer else checked).extend(lines)
    return read, checked
