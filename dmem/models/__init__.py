"""dmem.models."""
