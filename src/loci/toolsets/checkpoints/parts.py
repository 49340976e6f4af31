"""The checkpoints toolset's services, as the app holds them."""

from __future__ import annotations

from dataclasses import dataclass

from loci.toolsets.checkpoints.maintenance import CheckpointMaintenance
from loci.toolsets.checkpoints.service import CheckpointService


@dataclass(frozen=True)
class CheckpointParts:
    """The checkpoints toolset's services."""

    checkpoints: CheckpointService
    maintenance: CheckpointMaintenance
