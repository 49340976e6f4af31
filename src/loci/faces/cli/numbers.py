"""Whole-number options and arguments, in the words the command line's users read."""

from __future__ import annotations

import click


class WholeNumber(click.IntRange):
    """click's `IntRange`, named as a user reads it: a bad value says "'abc' is not a valid
    number." where click's own says "is not a valid integer range", and help shows NUMBER."""

    name = "number"
