"""Evidence-first retrieval: hybrid search, Focused Deliberation's reading plan, the cross-chunk ledger.

Both engines use it: System 1 through the ``retrieve`` node, deliberation through ``plan_chunks``
and ``reduce_facts``.
"""
