"""What may leave dmem: the enrichment privacy rule (and, later, personal-data detection)."""
