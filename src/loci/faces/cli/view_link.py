"""`loci ui`'s link into the web view: a one-time ticket in place of the token, printed and
opened in the default browser once the server listens."""

from __future__ import annotations

import sys
import webbrowser
from collections.abc import Callable

from loci.faces.http.guard import VIEW_PATH, Guard
from loci.settings import Settings


def opener(open_browser: bool) -> Callable[[Guard, Settings], object]:
    """What to do once the server listens: print the view's link, and open it if asked."""

    def listening(guard: Guard, settings: Settings) -> None:
        link = f"http://{settings.http_host}:{settings.http_port}{VIEW_PATH}/login"
        if guard.view_ticket is not None and settings.http_auth == "token":
            link += f"?ticket={guard.view_ticket()}"
        sys.stderr.write(
            f"loci's web view: {link}\n(the link lets a browser in once, within two minutes)\n"
        )
        if open_browser and not webbrowser.open(link):
            sys.stderr.write("no browser could be opened here: open the link above by hand\n")

    return listening
