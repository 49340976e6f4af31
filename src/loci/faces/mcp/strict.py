"""Tools whose arguments are checked as their schemas say: no unknown argument, no coercion.

The SDK validates a tool's arguments leniently: it ignores unknown names (a misspelt
`namespce` went unnoticed and the memory landed in the default namespace), parses strings as
JSON for non-string parameters and lets pydantic convert (`"1"` became an integer, `true`
an importance of 1.0). Here the argument model forbids extra fields, so the input schema says
`additionalProperties: false`, and arguments are validated strictly, as sent.
"""

from __future__ import annotations

import inspect
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from pydantic import ConfigDict, Field


class StrictArguments(FuncMetadata):
    """A tool's argument model, validated strictly and without the SDK's JSON pre-parsing."""

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        """The arguments as the tool function's keyword arguments (a ValidationError names
        each field that is unknown or of the wrong type)."""
        model = self.arg_model.model_validate(arguments_to_validate, strict=True)
        return model.model_dump_one_level()


def make_strict(tool: Tool) -> None:
    """Make `tool` refuse unknown arguments and arguments of the wrong JSON type, and give it
    a description without the docstring's indentation (once: a tool added twice is kept)."""
    lenient = tool.fn_metadata
    if isinstance(lenient, StrictArguments):
        return
    arguments: type[ArgModelBase] = type(
        lenient.arg_model.__name__,
        (lenient.arg_model,),
        {"model_config": ConfigDict(extra="forbid"), "__module__": lenient.arg_model.__module__},
    )
    tool.fn_metadata = StrictArguments(
        arg_model=arguments,
        output_schema=lenient.output_schema,
        output_model=lenient.output_model,
        wrap_output=lenient.wrap_output,
    )
    tool.parameters = arguments.model_json_schema(by_alias=True)
    tool.description = inspect.cleandoc(tool.description)


def byte_limited_text(limit: int, *, min_length: int = 1) -> Any:
    """A text argument whose service checks its size in UTF-8 bytes and names the setting
    that changes the limit; the schema advertises the limit as `maxLength` (the schema's own
    check would refuse first, counting characters, with no word of the setting)."""
    return Field(min_length=min_length, json_schema_extra={"maxLength": limit})
