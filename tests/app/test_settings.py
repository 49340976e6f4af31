"""Settings: sources, priorities and errors that name the setting."""

import pytest

from loci.errors import ConfigurationError
from loci.settings import load_settings


def test_defaults(monkeypatch, tmp_path):
    monkeypatch.setenv("LOCI_HOME", str(tmp_path))
    settings = load_settings()
    assert settings.home == tmp_path.resolve()
    assert settings.max_content_bytes == 65536
    assert settings.max_recall_limit == 100
    assert settings.toolsets == ["memory", "context", "checkpoints", "story"]


def test_env_overrides_toml_file(monkeypatch, tmp_path):
    config = tmp_path / "loci.toml"
    config.write_text("max_batch_size = 7\nhybrid_alpha = 0.3\n", encoding="utf-8")
    monkeypatch.setenv("LOCI_CONFIG", str(config))
    monkeypatch.setenv("LOCI_HYBRID_ALPHA", "0.9")
    settings = load_settings()
    assert settings.max_batch_size == 7
    assert settings.hybrid_alpha == 0.9


def test_comma_separated_toolsets(monkeypatch):
    monkeypatch.setenv("LOCI_TOOLSETS", "memory, memory")
    assert load_settings().toolsets == ["memory", "memory"]


@pytest.mark.parametrize(
    ("variable", "value", "named"),
    [
        ("LOCI_MAX_BATCH_SIZE", "0", "LOCI_MAX_BATCH_SIZE"),
        ("LOCI_HYBRID_ALPHA", "2", "LOCI_HYBRID_ALPHA"),
        ("LOCI_TOOLSETS", "memory,bogus", "LOCI_TOOLSETS"),
        ("LOCI_EMBEDDING_MODEL", "gpt-embeddings", "LOCI_EMBEDDING_MODEL"),
        ("LOCI_MAX_CONTENT_BYTES", "lots", "LOCI_MAX_CONTENT_BYTES"),
        ("LOCI_DEFAULT_NAMESPACE", "../notes", "LOCI_DEFAULT_NAMESPACE"),
        ("LOCI_DEFAULT_NAMESPACE", "notes\n", "LOCI_DEFAULT_NAMESPACE"),
    ],
)
def test_invalid_setting_is_named(monkeypatch, variable, value, named):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError) as caught:
        load_settings()
    assert named in caught.value.message


def test_unknown_key_in_config_file(tmp_path):
    config = tmp_path / "loci.toml"
    config.write_text("max_batch = 5\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="LOCI_MAX_BATCH"):
        load_settings(config)


def test_broken_or_missing_config_file(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("max_batch_size = = 5\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="not valid TOML"):
        load_settings(broken)
    with pytest.raises(ConfigurationError, match="not found"):
        load_settings(tmp_path / "missing.toml")


def test_a_database_url_must_name_postgresql_and_is_shown_without_its_password(tmp_path):
    from loci.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="postgresql://") as refused:
        load_settings(home=tmp_path, database_url="mysql://ann:secret@db/loci")
    assert "secret" not in str(refused.value) and "secret" not in str(refused.value.details)
    settings = load_settings(home=tmp_path, database_url="postgresql://ann:s3cret@db/loci")
    assert settings.database_shown == "postgresql://ann:***@db/loci"
    assert "s3cret" not in repr(settings) and "s3cret" not in str(settings.model_dump())
    assert load_settings(home=tmp_path).database_shown == str(tmp_path / "loci.db")


def test_a_database_url_without_the_driver_says_what_to_install(tmp_path, monkeypatch):
    import sys

    from loci.app import build_app
    from loci.errors import ConfigurationError
    from tests.e2e.test_plain_install import NEED_NO_DRIVER, is_postgres

    for name in [m for m in sys.modules if m.startswith("psycopg") or is_postgres(m)]:
        if name not in NEED_NO_DRIVER:
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    settings = load_settings(home=tmp_path, database_url="postgresql://db/loci")
    with pytest.raises(ConfigurationError, match=r'pip install -e "\.\[postgres\]"'):
        build_app(settings)


def test_a_bad_setting_given_on_the_command_line_is_named_so(monkeypatch):
    monkeypatch.delenv("LOCI_DATABASE_URL", raising=False)
    with pytest.raises(ConfigurationError) as given:
        load_settings(database_url="mysql://db/loci")
    assert "command line" in given.value.message and "LOCI_DATABASE_URL" not in given.value.message
    monkeypatch.setenv("LOCI_DATABASE_URL", "mysql://db/loci")
    with pytest.raises(ConfigurationError, match=r"\(environment\):\n  LOCI_DATABASE_URL"):
        load_settings()


def test_an_exported_but_empty_variable_means_not_set(monkeypatch, tmp_path):
    monkeypatch.setenv("LOCI_DATABASE_URL", "")
    monkeypatch.setenv("LOCI_MAX_RECALL_LIMIT", "")
    settings = load_settings(home=tmp_path)
    assert settings.database_url is None and settings.max_recall_limit == 100
    monkeypatch.setenv("LOCI_DATABASE_URL", "sqlite:///nope")
    with pytest.raises(ConfigurationError, match="postgresql://"):
        load_settings(home=tmp_path)
