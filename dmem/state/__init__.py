"""dmem.state."""
