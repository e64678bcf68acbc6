"""dmem.nodes."""
