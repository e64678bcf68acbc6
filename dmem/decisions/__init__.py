"""dmem.decisions."""
