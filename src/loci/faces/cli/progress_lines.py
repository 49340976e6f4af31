"""Progress off a terminal: no bar, whose redraws would fill a log, but a line on standard
error at each tenth of a task's work, so a run piped to a file, a log or an agent's shell
still shows its long work going on."""

from __future__ import annotations

from typing import Any

import click
from rich.progress import Progress, TaskID

#: The share of a task's work between two lines.
STEPS = 10


class ProgressLines(Progress):
    """A `Progress` that draws nothing and says each tenth of a task with a known total done
    as a line ("reading, embedding, archiving: 30% (94 of 313)")."""

    def __init__(self) -> None:
        super().__init__(disable=True)
        self._said: dict[TaskID, int] = {}

    def update(
        self,
        task_id: TaskID,
        *,
        total: float | None = None,
        completed: float | None = None,
        advance: float | None = None,
        description: str | None = None,
        visible: bool | None = None,
        refresh: bool = False,
        **fields: Any,
    ) -> None:
        """Update the task, and say it when it passed another tenth of its work."""
        super().update(
            task_id,
            total=total,
            completed=completed,
            advance=advance,
            description=description,
            visible=visible,
            refresh=refresh,
            **fields,
        )
        task = next(t for t in self.tasks if t.id == task_id)
        if not task.total:
            return  # no total known: no share to say
        step = min(STEPS, int(task.completed * STEPS / task.total))
        if step > self._said.get(task_id, 0):
            self._said[task_id] = step
            # A task may say what it counts in (`unit`) and what it has counted so far.
            unit = f" {task.fields['unit']}" if task.fields.get("unit") else ""
            counts = f", {task.fields['counts']}" if task.fields.get("counts") else ""
            click.echo(
                f"{task.description}: {step * 100 // STEPS}% "
                f"({int(task.completed)} of {int(task.total)}{unit}){counts}",
                err=True,
            )
