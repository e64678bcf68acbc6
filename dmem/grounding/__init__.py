"""Deterministic grounding shared by both engines: relative times and places to absolute ones."""
