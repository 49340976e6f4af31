"""Work a page starts and another page follows (an import): kept per server, seen only by the
session that started it."""

from __future__ import annotations

import secrets
import threading
from typing import Generic, Protocol, TypeVar

from loci.errors import InvalidInputError, NotFoundError
from loci.faces.web.sessions import ViewSession
from loci.faces.web.view import namespaces_of

#: Jobs kept for their pages (the oldest finished ones go first).
KEPT_JOBS = 20


class Job(Protocol):
    """What the registry needs of a job."""

    owner: str  # the form token of the session that started it
    finished: bool


J = TypeVar("J", bound=Job)


class Jobs(Generic[J]):
    """The jobs of one kind a server runs, by id."""

    def __init__(self) -> None:
        self._jobs: dict[str, J] = {}
        self._lock = threading.Lock()

    def add(self, job: J) -> str:
        """Keep `job`; its id (unguessable: it is in the address of its page)."""
        job_id = secrets.token_urlsafe(12)
        with self._lock:
            self._jobs[job_id] = job
            finished = [key for key, kept in self._jobs.items() if kept.finished]
            for key in finished[: max(0, len(self._jobs) - KEPT_JOBS)]:
                del self._jobs[key]
        return job_id

    def of(self, job_id: str, session: ViewSession) -> J:
        """The job `job_id` if `session` started it; NotFoundError otherwise."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None or job.owner != session.form_token:
            raise NotFoundError(
                "no such import for this session: an import is shown to the session that "
                "started it, while the server runs"
            )
        return job


def import_target(namespace: str | None, session: ViewSession) -> str | None:
    """Where an import goes: the namespace chosen, which must be one of a limited token's own
    (None: wherever the file says)."""
    owned = namespaces_of(session.grant)
    if owned is not None and (namespace is None or namespace not in owned):
        raise InvalidInputError("choose one of your namespaces to import into", field="namespace")
    return namespace
