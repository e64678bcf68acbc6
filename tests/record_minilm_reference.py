"""Record the reference vectors of tests/fixtures/minilm_reference.json from the PyTorch model.

Run with the torch extra installed: ``python -m tests.record_minilm_reference``. The ONNX default
is tested against these vectors, so the tests need no PyTorch. Sentences are invented.
"""

from __future__ import annotations

import json
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "minilm_reference.json"
SENTENCES = [
    "I started a new job at Atlas Robotics last Monday.",
    "Our dog Pepper learned to open the back door by herself.",
    "Oskar is training for a half marathon in Lisbon this autumn.",
    "Do you still play the cello on Sunday mornings?",
    "We finally repainted the kitchen a pale green.",
    "ok",
    "My sister moved to Tromsø and now sends me photos of the northern lights every night, "
    "which makes me want to visit before the winter ends, maybe in February when flights are cheaper.",
    "The quarterly budget review was moved to Thursday at 3 pm.",
]


def record() -> None:
    """Embed SENTENCES with the fp32 PyTorch model and write them, rounded to 6 decimals."""
    from dmem.models.embeddings_torch import TorchMiniLMEmbeddings

    emb = TorchMiniLMEmbeddings()
    vectors = emb.embed_documents(SENTENCES)
    FIXTURE.write_text(json.dumps({"model": emb.name, "sentences": SENTENCES,
                                   "vectors": [[round(x, 6) for x in v] for v in vectors]}) + "\n")


if __name__ == "__main__":
    record()
