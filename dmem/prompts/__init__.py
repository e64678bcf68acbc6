"""dmem.prompts."""
