"""The toy toolset's one table."""

from loci.storage.databases.schema import Schema

TOY_SCHEMA = Schema(
    owner="toy",
    migrations=("CREATE TABLE toy_pins (note TEXT NOT NULL)",),
    postgres=("CREATE TABLE toy_pins (note TEXT NOT NULL)",),
)
