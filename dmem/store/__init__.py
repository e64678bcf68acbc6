"""dmem.store."""
