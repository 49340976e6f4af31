"""Builds the App on first use, so the server answers `initialize` and `tools/list` at once.

Importing the App pulls in numpy, ONNX Runtime and the stores; none of that happens before the
first tool call or the background warm-up that starts after the first `tools/list`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, TypeVar

from loci.access.grant import Grant
from loci.settings import Settings

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context

    from loci.app import App
    from loci.engine.embedding import Embedder

T = TypeVar("T")
#: How long closing waits for the warm-up to finish (it takes about a second).
WARM_UP_WAIT_SECONDS = 30.0
log = logging.getLogger("loci.mcp")


class AppProvider:
    """The server's one App, built lazily and used by one tool call at a time."""

    def __init__(self, settings: Settings, embedder: Embedder | None = None) -> None:
        self.settings = settings
        self._embedder = embedder
        self._app: App | None = None
        self._build_lock = threading.Lock()
        self._call_lock = threading.Lock()
        self._warm_up: threading.Thread | None = None
        # Who is calling: the grant of the request being served (None: the owner, over stdio
        # or with the data folder's token). A context variable, so each request sees its own.
        self._caller: ContextVar[Grant | None] = ContextVar("loci_caller", default=None)

    @contextmanager
    def calling_as(self, grant: Grant | None) -> Iterator[None]:
        """Serve what runs inside (in this context) for the holder of `grant`."""
        token = self._caller.set(grant)
        try:
            yield
        finally:
            self._caller.reset(token)

    @property
    def caller(self) -> Grant | None:
        """The grant of the request being served; None for the owner."""
        return self._caller.get()

    @property
    def records_access(self) -> bool:
        """Whether a search of this call counts as an access to what it finds (recall's
        `access_count`): not for a read-only token, whose calls change nothing."""
        grant = self.caller
        return grant is None or not grant.read_only

    def app(self) -> App:
        """The App, built on first use."""
        if self._app is None:
            with self._build_lock:
                if self._app is None:
                    from loci.app import build_app

                    self._app = build_app(self.settings, self._embedder)
                    self._warn_about(self._app)
        return self._app

    @staticmethod
    def _warn_about(app: App) -> None:
        """Log what is wrong around the store (an emptied database, say) once, at the start."""
        from loci.errors import LociError

        try:
            warnings = app.catalog.warnings()
        except LociError:
            return  # a damaged database: the first tool call reports it
        for warning in warnings:
            log.warning(warning)

    def call(self, work: Callable[[App], T]) -> T:
        """Run `work` on the App; calls are serialised (the services are not re-entrant)."""
        app = self.app()
        with self._call_lock:
            return work(app)

    def unlocked(self, work: Callable[[App], T]) -> T:
        """Run `work` on the App without waiting for the call in progress: only for work that
        is safe beside it (embedding a query while another recall searches)."""
        return work(self.app())

    def read(self, work: Callable[[App], str]) -> str:
        """`call` for a resource: loci's errors become the SDK's resource errors, whose message
        reaches the client (any other exception is a crash to the SDK: it logs a traceback
        and tells the client only that the read failed)."""
        from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

        from loci.errors import LociError, NotFoundError

        try:
            return self.call(work)
        except NotFoundError as exc:
            raise ResourceNotFoundError(exc.message) from exc
        except LociError as exc:
            raise ResourceError(f"{exc.code}: {exc.message}") from exc

    def warm_up_in_background(self) -> None:
        """Start loading the App and the model in a daemon thread (once)."""
        if self._warm_up is not None:
            return
        self._warm_up = threading.Thread(target=self._load, name="loci-warm-up", daemon=True)
        self._warm_up.start()

    def close(self) -> None:
        """Wait for the warm-up, then close the App if it was built."""
        # A process that exits while ONNX Runtime is loading the model in the warm-up thread
        # aborts ("terminate called without an active exception", SIGABRT): a client that
        # closed right after listing the tools saw its server crash.
        if self._warm_up is not None:
            self._warm_up.join(WARM_UP_WAIT_SECONDS)
        if self._app is not None:
            with self._call_lock:
                self._app.close()

    def _load(self) -> None:
        from loci.errors import LociError

        try:
            app = self.app()
            log.info("warm-up: loading the embedding model")
            app.embedder.load()
            with self._call_lock:
                app.memory.warm_up()
            log.info("warm-up: done")
        except LociError as exc:
            # Each call tries again (a database that comes back is used at once) and meets
            # the same error until then, which it reports to the agent.
            log.warning(
                "loci cannot use its store yet: %s; it keeps serving and tries again at each call",
                exc.message,
            )


def progress_reporter(ctx: Context, message: str) -> Callable[[int, int], None]:
    """A progress callback for a tool's work in its worker thread: it reports progress to the
    client and, once the client has cancelled the request, stops the work between two steps
    by raising the cancellation (the steps already committed stay stored)."""

    import anyio.from_thread  # not at import time: the server's first answer needs none

    def report(done: int, total: int) -> None:
        anyio.from_thread.check_cancelled()
        anyio.from_thread.run(ctx.report_progress, done, total, message)

    return report
