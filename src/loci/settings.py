"""loci's one settings object.

Values come, highest priority first, from: keyword arguments (the CLI's own flags), environment
variables prefixed ``LOCI_``, an optional TOML file (``--config`` or ``LOCI_CONFIG``), defaults.
Only :func:`load_settings`, ``build_app`` and the entry points read settings.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from loci import toolsets as registry
from loci.database_url import is_database_url, masked
from loci.errors import ConfigurationError
from loci.fields import NAMESPACE_PATTERN

#: The embedding models loci can run without extra packages.
KNOWN_MODELS: tuple[str, ...] = ("all-MiniLM-L6-v2",)
ENV_PREFIX = "LOCI_"
#: The largest `http_max_body_bytes` may be.
HTTP_BODY_CEILING = 256 * 1024 * 1024


def known_toolsets() -> tuple[str, ...]:
    """The toolsets loci knows (the registry's, in its order); `LOCI_TOOLSETS` picks among
    them."""
    return tuple(toolset.name for toolset in registry.TOOLSETS)


def default_home() -> Path:
    """The platform's user data folder for loci (for example ``~/.local/share/loci``)."""
    # Imported here: `loci serve` answers its first request sooner when LOCI_HOME is set.
    import platformdirs

    return platformdirs.user_data_path("loci", appauthor=False)


class Settings(BaseSettings):
    """Every setting loci reads, with its default and bounds."""

    # An exported but empty variable (`LOCI_DATABASE_URL=` in an env file) means "not set".
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, extra="forbid", frozen=True, env_ignore_empty=True
    )

    home: Path = Field(
        default_factory=default_home,
        description="Data folder: the database, and later project files and checkpoints.",
    )
    embedding_model: Literal["all-MiniLM-L6-v2"] = Field(
        default="all-MiniLM-L6-v2", description="Embedding model (ONNX, bundled with the install)."
    )
    embedding_threads: int = Field(
        default=0, ge=0, le=64, description="Threads for the embedding model; 0 picks for you."
    )
    vector_kernel: Literal["auto", "faiss", "numpy"] = Field(
        default="auto",
        description="Loops of large vector searches: faiss-cpu's, numpy's, or faiss when it loads.",
    )
    toolsets: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: list(known_toolsets()),
        description="Comma-separated toolsets to serve over MCP.",
    )
    default_namespace: str = Field(
        default="default",
        min_length=1,
        max_length=128,
        description="Namespace used when none is given.",
    )
    max_content_bytes: int = Field(
        default=64 * 1024,
        ge=16,
        le=16 * 1024 * 1024,
        description="Largest memory content, in UTF-8 bytes.",
    )
    max_metadata_bytes: int = Field(
        default=16 * 1024,
        ge=64,
        le=1024 * 1024,
        description="Largest metadata object, as JSON bytes.",
    )
    max_batch_size: int = Field(
        default=100,
        ge=1,
        le=10_000,
        description="Most memories in one remember_batch / forget_batch call.",
    )
    max_recall_limit: int = Field(
        default=100, ge=1, le=1_000, description="Largest `limit` a recall may ask for."
    )
    hybrid_alpha: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Default vector weight in hybrid recall (1 = vector only).",
    )
    context_max_bytes: int = Field(
        default=256 * 1024,
        ge=1024,
        le=16 * 1024 * 1024,
        description="Largest context file (update_context content), in UTF-8 bytes.",
    )
    context_max_attempts: int = Field(
        default=3,
        ge=1,
        le=100,
        description="Failed update_context attempts before max_attempts_reached (force allowed).",
    )
    import_max_bytes: int = Field(
        default=4 * 1024 * 1024 * 1024,
        ge=1024,
        description="Largest file `loci import` or `import-chats` reads (in a zip: unpacked).",
    )
    checkpoint_token_budget: int = Field(
        default=50_000,
        ge=100,
        le=10_000_000,
        description="Token budget of a checkpoint; larger contexts are fitted by their tiers.",
    )
    checkpoint_max_context_bytes: int = Field(
        default=10 * 1024 * 1024,
        ge=1024,
        le=1024 * 1024 * 1024,
        description="Largest context a checkpoint accepts, as JSON bytes.",
    )
    checkpoint_max_per_session: int = Field(
        default=1000, ge=1, le=1_000_000, description="Most checkpoints kept per session."
    )
    checkpoint_max_total_bytes: int = Field(
        default=1024 * 1024 * 1024,
        ge=1024,
        description="Most bytes all checkpoint blobs may take on disk.",
    )
    checkpoint_zstd_level: int = Field(
        default=17, ge=1, le=22, description="zstd compression level of checkpoint blobs."
    )
    token_encoding: Literal["cl100k_base", "o200k_base"] = Field(
        default="cl100k_base", description="Tokenizer that story budgets are counted in."
    )
    story_max_input_bytes: int = Field(
        default=256 * 1024,
        ge=1024,
        le=16 * 1024 * 1024,
        description="Largest text of one story interaction, in UTF-8 bytes.",
    )
    encryption: Literal["disabled", "enabled"] = Field(
        default="disabled", description="Encrypt checkpoint blobs with AES-256-GCM."
    )
    encryption_key_file: Path | None = Field(
        default=None,
        description="Key file (0600, outside the data folder) when there is no OS keychain.",
    )
    database_url: SecretStr | None = Field(
        default=None,
        description=(
            "PostgreSQL database (postgresql://user:password@host/db?sslmode=...) shared by "
            "several servers; unset: the SQLite file in the data folder."
        ),
    )
    busy_timeout_seconds: float = Field(
        default=15.0, gt=0, le=600, description="How long a write waits for another process's lock."
    )
    idempotency_hours: float = Field(
        default=24.0,
        gt=0,
        le=24 * 366,
        description="How long a keyed write's result is kept for retries with its key.",
    )
    http_host: str = Field(
        default="127.0.0.1",
        min_length=1,
        description="Address `loci serve --transport http` binds.",
    )
    http_port: int = Field(default=8765, ge=1, le=65535, description="Port of the HTTP server.")
    http_auth: Literal["token", "none"] = Field(
        default="token",
        description="`token`: every request needs the bearer token (`loci token show`); `none` "
        "is allowed on a loopback address only.",
    )
    http_allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Host headers accepted besides loopback ones (`name:port`, `name:*`).",
    )
    http_allowed_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Origin headers accepted besides loopback ones (`https://app.example`).",
    )
    http_max_body_bytes: int = Field(
        default=8 * 1024 * 1024, ge=1024, le=HTTP_BODY_CEILING, description="Largest request body."
    )
    http_max_sessions: int = Field(
        default=1000, ge=1, le=100_000, description="Most MCP sessions open at once."
    )
    http_session_idle_seconds: float = Field(
        default=1800.0, gt=0, le=86_400, description="An idle MCP session is closed after this."
    )
    http_client_concurrency: int = Field(
        default=8, ge=1, le=1000, description="Most requests one session has in flight at once."
    )
    http_request_timeout_seconds: float = Field(
        default=300.0, gt=0, le=86_400, description="Longest a request may take to be answered."
    )
    http_read_timeout_seconds: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="Longest a client may take to send a request's headers, or its body.",
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="WARNING", description="Log level of `loci serve` (logs go to stderr)."
    )

    @field_validator("toolsets", "http_allowed_hosts", "http_allowed_origins", mode="before")
    @classmethod
    def _split_lists(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("toolsets")
    @classmethod
    def _known_toolsets(cls, value: list[str]) -> list[str]:
        known = known_toolsets()
        unknown = sorted(set(value) - set(known))
        if unknown:
            raise ValueError(f"unknown toolset(s) {unknown}; known: {list(known)}")
        if not value:
            raise ValueError("at least one toolset must be enabled")
        return value

    @field_validator("vector_kernel")
    @classmethod
    def _kernel_installed(cls, value: str) -> str:
        # find_spec looks the package up without importing it (faiss loads on first use).
        if value == "faiss" and importlib.util.find_spec("faiss") is None:
            raise ValueError("'faiss' needs the faiss-cpu package; install it or use 'auto'")
        return value

    @field_validator("default_namespace")
    @classmethod
    def _namespace_name(cls, value: str) -> str:
        if not NAMESPACE_PATTERN.match(value):
            raise ValueError(
                "a namespace is 1-128 letters, digits, '_', '.', ':' or '-', not starting "
                "with '.', ':' or '-'"
            )
        return value

    @field_validator("database_url")
    @classmethod
    def _postgresql_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not is_database_url(value.get_secret_value()):
            raise ValueError("a database URL starts with postgresql:// (or postgres://)")
        return value

    @field_validator("home")
    @classmethod
    def _absolute_home(cls, value: Path) -> Path:
        return value.expanduser().resolve()

    @property
    def database_shown(self) -> str:
        """Where the store is, safe to show: the SQLite file, or the URL without password."""
        if self.database_url is None:
            return str(self.database_path)
        return masked(self.database_url.get_secret_value())

    @property
    def database_path(self) -> Path:
        """The SQLite system of record."""
        return self.home / "loci.db"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # A .env file in whatever folder a client starts us in must not change behaviour.
        return (init_settings, env_settings, TomlConfigSettingsSource(settings_cls))


def load_settings(config_file: Path | None = None, **overrides: Any) -> Settings:
    """Build the settings from overrides, environment and the optional TOML config file.

    Raises :class:`ConfigurationError` naming each invalid setting.
    """
    path = config_file or _config_path_from_env()
    settings_cls: type[Settings] = Settings
    if path is not None:
        _check_toml(path)
        config = SettingsConfigDict(**{**Settings.model_config, "toml_file": path})
        settings_cls = type("FileSettings", (Settings,), {"model_config": config})
    try:
        return settings_cls(**overrides)
    except ValidationError as exc:
        given = frozenset(overrides)
        raise ConfigurationError(
            _describe(exc, path, given), errors=_error_list(exc, given)
        ) from exc


def _config_path_from_env() -> Path | None:
    value = os.environ.get(f"{ENV_PREFIX}CONFIG")
    return Path(value) if value else None


def _check_toml(path: Path) -> None:
    # Imported here: most servers start without a config file.
    import tomllib

    try:
        with path.open("rb") as handle:
            tomllib.load(handle)
    except FileNotFoundError as exc:
        raise ConfigurationError(f"config file not found: {path}", path=str(path)) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigurationError(
            f"config file {path} is not valid TOML: {exc}", path=str(path)
        ) from exc
    except OSError as exc:
        raise ConfigurationError(f"cannot read config file {path}: {exc}", path=str(path)) from exc


def _error_list(exc: ValidationError, given: frozenset[str]) -> list[dict[str, str]]:
    return [
        {"setting": _setting_name(err["loc"], given), "message": err["msg"]} for err in exc.errors()
    ]


def _setting_name(loc: tuple[int | str, ...], given: frozenset[str]) -> str:
    """The setting as the user gave it: an option of the command, else its variable."""
    field = str(loc[0]) if loc else "?"
    if field in given:
        return f"{field} (given on the command line)"
    return f"{ENV_PREFIX}{field.upper()} ({field})"


def _describe(exc: ValidationError, path: Path | None, given: frozenset[str]) -> str:
    """Each invalid setting with where it came from."""
    lines = [f"{item['setting']}: {item['message']}" for item in _error_list(exc, given)]
    origin = f"environment or {path}" if path else "environment"
    if all(str(err["loc"][0] if err["loc"] else "") in given for err in exc.errors()):
        origin = "command line"
    return f"invalid settings ({origin}):\n  " + "\n  ".join(lines)
