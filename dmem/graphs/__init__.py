"""Ingestion, query and deliberation graphs."""
