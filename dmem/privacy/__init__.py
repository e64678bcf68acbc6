"""What may leave dmem: personal-data detection, the enrichment privacy rules, trace redaction."""

from dmem.privacy.detect import Detection, describe, detect, personal_kinds
from dmem.privacy.policy import enrichment_query, permitted_source
from dmem.privacy.redact import TraceRedactor, redact_text

__all__ = ["Detection", "TraceRedactor", "describe", "detect", "enrichment_query", "permitted_source",
           "personal_kinds", "redact_text"]
