"""dmem.eval."""
