"""The memory fields that recall filters test most, mirrored in memory."""
