"""Subprocess target: add the same invented turns to a store, on cue, with a scripted model.

Usage: python tests/add_worker.py STORE_DIR USER_ID N_TURNS [--stick-at K]

Prints "ready" once the store is open and waits for a line on stdin before adding. With
``--stick-at K`` the model blocks forever inside the K-th admission call after printing "stuck",
so the parent can kill the process while it holds claims on that exchange. Prints the statuses of
its exchanges as JSON at the end.
"""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter
from datetime import datetime, timedelta

from dmem.api import Memory
from dmem.state.schemas import Message
from dmem.testing import FakeChatModel, echo_formation_script

T0 = datetime(2024, 3, 4, 9, 0)


def turns(n: int, conversation: str = "chat") -> list[Message]:
    """``n`` invented turns alternating between two speakers, each with distinct text."""
    speakers = ("Noor", "Tomas")
    return [Message(conversation_id=conversation, turn_id=f"t{i}", speaker=speakers[i % 2],
                    text=f"note {i}: the {i}th plan about the garden", timestamp=T0 + timedelta(minutes=i))
            for i in range(n)]


def main() -> None:
    store, user, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    stick_at = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--stick-at" else None
    script = echo_formation_script()
    admit = script["AdmissionVerdicts"]
    calls = [0]

    def admit_or_stick(messages: list) -> object:
        calls[0] += 1
        if calls[0] == stick_at:
            print("stuck", flush=True)
            threading.Event().wait()  # until killed
        return admit(messages)

    script["AdmissionVerdicts"] = admit_or_stick
    with Memory(store, llm=FakeChatModel(script=script), embeddings="hash", lock_timeout=60) as mem:
        print("ready", flush=True)
        sys.stdin.readline()
        result = mem.add(turns(n), user_id=user)
    print(json.dumps(Counter(ex.status for ex in result.exchanges)), flush=True)


if __name__ == "__main__":
    main()
