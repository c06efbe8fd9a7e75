"""What the web server logs of a request it could not read.

aiohttp logs a request it cannot parse (a header or a request line over 8 KB, a malformed line,
a body that breaks its encoding) as an ERROR with a traceback, through its server's logger: anyone
on the network could fill the operators' log, and their error count, with it. Such a request is
the sender's fault and is answered 400; here it is one INFO line. An error raised by the pages'
own code goes through the same call and stays an ERROR with its traceback.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError

log = logging.getLogger("bot.web")


class RequestLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """The logger handed to aiohttp's request handlers (``AppRunner(logger=...)``)."""

    def exception(self, msg: object, *args: Any, exc_info: Any = True, **kwargs: Any) -> None:
        error = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(error, HttpProcessingError):
            remote = args[0] if args else "?"
            log.info("web: refused a malformed request from %s (%s %s)", remote, error.code, type(error).__name__)
            return
        super().exception(msg, *args, exc_info=exc_info, **kwargs)


REQUEST_LOG = RequestLog(logging.getLogger("aiohttp.server"), {})
