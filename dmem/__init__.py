"""dmem: dual-process long-term memory for LLM agents."""
