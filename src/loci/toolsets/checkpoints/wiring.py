"""How the checkpoints toolset's services are built from the engine."""

from __future__ import annotations

from loci.app import Core
from loci.settings import Settings
from loci.toolsets.checkpoints.blob_table import TableBlobs
from loci.toolsets.checkpoints.blobs import Blobs, BlobStore
from loci.toolsets.checkpoints.maintenance import CheckpointMaintenance
from loci.toolsets.checkpoints.parts import CheckpointParts
from loci.toolsets.checkpoints.service import CheckpointLimits, CheckpointService


def build(core: Core) -> CheckpointParts:
    """The services: payloads in files beside a SQLite store, in a table of a PostgreSQL one
    (a team's server may not share a disk)."""
    settings = core.settings
    blobs: Blobs = (
        BlobStore(settings.home / "checkpoints" / "blobs", root=settings.home)
        if core.postgres is None
        else TableBlobs(core.db)
    )
    checkpoints = CheckpointService(
        core.db, blobs, settings.home, checkpoint_limits(settings), settings.encryption_key_file
    )
    return CheckpointParts(checkpoints, CheckpointMaintenance(core.db, checkpoints))


def checkpoint_limits(settings: Settings) -> CheckpointLimits:
    """The checkpoint limits carried by the settings."""
    return CheckpointLimits(
        token_budget=settings.checkpoint_token_budget,
        max_context_bytes=settings.checkpoint_max_context_bytes,
        max_per_session=settings.checkpoint_max_per_session,
        max_total_bytes=settings.checkpoint_max_total_bytes,
        zstd_level=settings.checkpoint_zstd_level,
        encryption=settings.encryption == "enabled",
    )
