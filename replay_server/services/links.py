"""Self-contained links: a game carried in the link itself, ``/v?g=<token>``.

The token *is* the game: its canonical LCN, deflated in the zlib format (whose checksum
catches a link damaged in copying) and written in URL-safe base64 without padding. The
sharing pages, the annotation form and the pictures of games all read and make them here.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import Any

from flask import current_app, url_for

from ..i18n import gettext

#: The longest token a self-contained link may carry. Beyond about 8 KB, browsers, proxies
#: and servers start refusing URLs; a long classic game deflates to well under 2 KB.
MAX_TOKEN_LENGTH = 8000
#: The most a token may expand to: a small token cannot make the server inflate megabytes.
MAX_LINK_TEXT = 256 * 1024


class LinkError(ValueError):
    """A self-contained link that cannot be read: damaged, truncated or too large.

    ``status`` is the HTTP status to answer: 414 for a token longer than the site accepts,
    400 for anything else.
    """

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def encode_link(canonical_text: str) -> str:
    """The token of a self-contained link: the UTF-8 text zlib-compressed, in URL-safe base64.

    The zlib format costs six bytes over raw deflate; its Adler-32 checksum is what lets a
    damaged link be refused instead of replaying a different game.

    >>> decode_link(encode_link('[Player1 "Ada"]\\n')) == '[Player1 "Ada"]\\n'
    True
    """
    compressor = zlib.compressobj(9, zlib.DEFLATED, 15)
    packed = compressor.compress(canonical_text.encode("utf-8")) + compressor.flush()
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode_link(token: str) -> str:
    """The text a token carries; LinkError with what is wrong for any token that is not one.

    >>> decode_link("not-a-token!")
    Traceback (most recent call last):
    ...
    replay_server.services.links.LinkError: the link is damaged: it contains '!', which a game link never does
    """
    token = token.strip()
    if not token:
        raise LinkError(gettext("the link carries no game: the g= parameter is empty"))
    if len(token) > MAX_TOKEN_LENGTH:
        raise LinkError(
            gettext("the link is too long (%(length)s characters; at most %(max)s): store the game "
                    "and share its permalink instead", length=len(token), max=MAX_TOKEN_LENGTH),
            414)
    for char in token:
        if not (char.isascii() and (char.isalnum() or char in "-_")):
            raise LinkError(gettext("the link is damaged: it contains %(char)s, which a game link "
                                    "never does", char=repr(char)))
    if len(token) % 4 == 1:
        raise LinkError(gettext("the link is damaged: it looks cut short (an impossible length)"))
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError) as exc:
        raise LinkError(gettext("the link is damaged: %(reason)s", reason=exc)) from exc
    inflater = zlib.decompressobj(15)
    try:
        raw = inflater.decompress(packed, MAX_LINK_TEXT + 1)
    except zlib.error as exc:
        raise LinkError(
            gettext("the link is damaged: its data does not decompress or fails its checksum "
                    "(was it cut or changed when copied?)")) from exc
    if len(raw) > MAX_LINK_TEXT:
        raise LinkError(
            gettext("the link expands to more than %(max)s bytes, more than a game link may carry",
                    max=MAX_LINK_TEXT))
    if not inflater.eof:
        raise LinkError(gettext("the link is damaged: its data ends too early (was it cut short "
                                "when copied?)"))
    if inflater.unused_data:
        raise LinkError(gettext("the link is damaged: it has extra data after the game"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LinkError(
            gettext("the link is damaged: the game is not valid UTF-8 (%(reason)s at byte %(byte)s)",
                    reason=exc.reason, byte=exc.start)) from exc
    if not text.strip():
        raise LinkError(gettext("the link carries an empty game"))
    return text


def site_url(endpoint: str, **values: Any) -> str:
    """A link to one of the site's pages for people to copy: ``BASE_URL`` (``LCN_BASE_URL``)
    and the path when the site's address is configured, the path alone otherwise.

    Never the request's ``Host``: pages are cached as public and immutable, so a link made
    from one request's forged ``Host`` header would be served to every later reader. A
    relative link is made absolute in the browser, from the address the reader really used
    (share.js).
    """
    path = url_for(endpoint, **values)
    base = current_app.config.get("BASE_URL")
    return f"{str(base).rstrip('/')}{path}" if base else path


__all__ = ["MAX_LINK_TEXT", "MAX_TOKEN_LENGTH", "LinkError", "decode_link", "encode_link", "site_url"]
