"""Formation recall on the dev data: which gold evidence turns become the source of a memory.

Split, fixed up front (rules and constants are tuned on the first half, reported on both):
  tuning half: LoCoMo conv-26, conv-30, conv-41; RealTalk Chat_1, Chat_2, Chat_3
  report half: LoCoMo conv-42, conv-43, conv-44; RealTalk Chat_4, Chat_5
Per dataset, conversation and half, over the gold evidence turns of questions in categories 1-4:
- formed: the share of the evidence turns that exist in the conversation that are the source of a
  live memory (evidence ids naming no turn are counted apart, as 'missing');
- memories per turn;
- 'S1 max': the most System 1 recall could be, the share of each question's existing evidence turns that
  source any memory, averaged over questions (it is not 'formed', which counts each evidence turn once:
  a question with many evidence turns loses only part of its recall to one that formed nothing);
- System 1 evidence recall at K = retrieval_top_k per speaker namespace, times wide_retrieval_factor for a list,
  count or both-speaker question, and in hybrid mode the up to episode_neighbours memories added after them
  (``retrieved_memories``, as ``retrieve`` asks; dense and hybrid; the default mode is starred), averaged over
  questions: over the ids that exist, and counting missing ids;
- the admission reasons (rule families, quotes cut) of the evidence turns that formed nothing;
- the memories whose source turns include the other speaker's question they answer ('linked');
- full mode: the lifecycle's UPDATEs in the stores' history, and how many replaced a text sharing under
  OVERWRITE_JACCARD of its content stems (another fact overwritten, its source turns kept: should be ~0);
- the System 1 answer's evidence trace (hybrid retrieval, the offline answer): precision and recall
  against the gold evidence, for the turns the answer drew on (the trace ``Answer`` gives: a used
  memory's linked question turn only when the answer needs it), every source turn of the memories used,
  and every memory retrieved.
`invented` measures a folder of invented chats (RealTalk format, people and events made up) the same way:
--chats names it, default benchmarks/data/invented_chats (batch 1, written before reading the offline rules);
benchmarks/data/invented_chats_2 is batch 2, written by another author apart from the rules;
benchmarks/data/invented_chats_3 is batch 3, held out at stop 43, written apart from the rules;
benchmarks/data/invented_chats_4 is batch 4, held out at stop 46, written apart from the rules;
benchmarks/data/invented_chats_5 is batch 5, held out at stop 47, written apart from the rules;
benchmarks/data/invented_chats_6 is batch 6, held out at stop 48, written apart from the rules;
benchmarks/data/invented_chats_7 is batch 7, held out for stop 49, written apart from the rules;
benchmarks/data/invented_chats_8 is batch 8, held out at stop 49, written apart from the rules;
benchmarks/data/invented_chats_9 is batch 9, held out for stop 50, written apart from the rules;
benchmarks/data/invented_chats_10 is batch 10, held out at stop 51 (released from stop 52), written apart from the
rules;
benchmarks/data/invented_chats_11 is batch 11, held out at stop 52 (released from stop 53), written apart from the
rules;
benchmarks/data/invented_chats_12 is batch 12, held out at stop 52 (two long chats, for System 1 retrieval; released
from stop 53), written apart from the rules;
benchmarks/data/invented_chats_13 is batch 13, held out at stop 53 (two long chats, one terse and one chatty, and an
ordinary one; released from stop 54), written apart from the rules;
benchmarks/data/invented_chats_14 is batch 14, held out at stop 54 (two long terse chats and an ordinary one; released
from stop 55), written apart from the rules;
benchmarks/data/invented_chats_15 is batch 15, held out at stop 55 (two long chats, one terse on both sides and one
with a terse side, and an ordinary one; released from stop 56), written apart from the rules;
benchmarks/data/invented_chats_16 is batch 16, held out at stop 56 (a very long chat of new acquaintances, a long one
of old friends with a terse side and an ordinary one; released from stop 57), written apart from the rules;
benchmarks/data/invented_chats_17 is batch 17, held out at stop 57 (a long pen-pal chat of strangers, one side a
non-native writer, a long one of colleagues told much in questions and hedges and an ordinary one; released from stop
58), written apart from the rules;
benchmarks/data/invented_chats_18 is batch 18, held out at stop 58 (a long chat of siblings, one side terse and the
other asking, a long one of neighbours in voice-note-like messages and an ordinary one; released from stop 59),
written apart from the rules;
benchmarks/data/invented_chats_19 is batch 19, held out at stop 59 (a long chat of two people met on a hobby forum, told
much in questions, a long one of coworkers mostly about third persons and an ordinary one; released from stop 60),
written apart from the rules;
benchmarks/data/invented_chats_20 is batch 20, held out at stop 60 (a long chat of two strangers on a language-exchange
app, told much in answers, fragments, hedges and questions, a long one of a mother and her grown son mostly about other
people and an ordinary one; released from stop 61), written apart from the rules;
benchmarks/data/invented_chats_21 is batch 21, held out at stop 61 (a long all-lowercase chat of two friends met in an
online game, a long one of two people finding what they share and an ordinary one; released from stop 62), written
apart from the rules;
benchmarks/data/invented_chats_22 is batch 22, held out at stop 62 (a long chat of old school friends living apart
mostly about third persons, a long one of long multi-paragraph messages answered in short lines and an ordinary one of
flatmates; released from stop 63), written apart from the rules;
benchmarks/data/invented_chats_23 is batch 23, held out at stop 63 (a long chat of cousins planning a family event
told much in reactions, a long one of evening-class acquaintances with irony and split stories and an ordinary one of a
grandparent and grandchild; released from stop 64), written apart from the rules;
benchmarks/data/invented_chats_24 is batch 24, held out at stop 64 (a long all-lowercase chat of two cooks of one
kitchen, a long one of a couple living apart planning to move in together and an ordinary one of football teammates;
released from stop 65), written apart from the rules;
benchmarks/data/invented_chats_25 is batch 25, held out at stop 65 (a long chat of two people who met on a dating app,
a long one of former colleagues answering long multi-topic messages piece by piece and an ordinary one of allotment
neighbours; released from stop 66), written apart from the rules;
benchmarks/data/invented_chats_26 is batch 26, held out at stop 66 (a long chat of old university friends, a long one
of cousins organising a grandparent's 90th in numbered piece-by-piece replies and an ordinary one of a dog walker and
a retired man; released from stop 67), written apart from the rules;
benchmarks/data/invented_chats_27 is batch 27, held out at stop 67 (a long chat of siblings, one abroad and one caring
for their father after a fall, a long one of board-game friends and an ordinary one of a bakery owner and her
assistant; released from stop 68), written apart from the rules;
benchmarks/data/invented_chats_28 is batch 28, held out at stop 68 (a long chat of cousins, a night-shift nurse
training for a triathlon and a man renovating a cottage, a long one of a retired teacher and a former pupil and an
ordinary one of two neighbours; released from stop 69), written apart from the rules;
benchmarks/data/invented_chats_29 is batch 29, held out at stop 69 (a long chat of two university friends, a sous-chef
starting a food van and a translator caring for her father after a fall, a long one of a brother on a cargo ship and
his pregnant sister and an ordinary one of two bookshop colleagues; released from stop 70), written apart from the
rules;
benchmarks/data/invented_chats_30 is batch 30, held out at stop 70 (a long chat of two strangers from a language-and-
running app writing long messages, a long one of a grandfather and his granddaughter at university and an ordinary
one of two community-radio volunteers; released from stop 71), written apart from the rules;
benchmarks/data/invented_chats_31 is batch 31, held out at stop 71 (a long chat of two cooking-school friends,
a ship's cook and a food-truck owner, a long one of siblings sharing their father's care and an ordinary one of
two charity-ride organisers; released from stop 72), written apart from the rules;
benchmarks/data/invented_chats_32 is batch 32, held out at stop 72 (a long chat of a bus mechanic and a retired
piano teacher met on a language-exchange app, a long one of cousins organising an aunt's surprise 70th and an
ordinary one of two community-radio volunteers; released from stop 73), written apart from the rules;
benchmarks/data/invented_chats_33 is batch 33, held out at stop 73 (a long chat of a beekeeper and her
lorry-driver brother-in-law restoring a cottage, a long one of two rowing-crew members before a regatta and an
ordinary one of two allotment neighbours; released from stop 74), written apart from the rules;
benchmarks/data/invented_chats_34 is batch 34, held out at stop 74 (a long chat of a retired locksmith moving
flat and his granddaughter on a year abroad, a long one of two repair-café volunteers, one training a rescue
greyhound, and an ordinary one of two colleagues sharing a car and a Spanish class; released from stop 75),
written apart from the rules;
benchmarks/data/invented_chats_35 is batch 35, held out at stop 75 (a long chat of a retired postman tracing
his family history and his nephew, a junior doctor on night shifts, a long one of two flatmates, one starting a
bread stall, the other through a job application, and an ordinary one of two junior-football parents; released
from stop 76), written apart from the rules;
benchmarks/data/invented_chats_36 is batch 36, held out for stop 76, written apart from the rules.
benchmarks/data/question_chats holds facts told in questions (stop 58, written apart from the rules): its tune half
for choosing rules, its check half held out (read by nobody but the lead).
`invented` also prints each unformed evidence turn with its text and verdict, and each evidence turn that formed but
that System 1 did not retrieve, with its question (invented text, so printing it is fine).
Then the admission rate of invented filler (benchmarks/data/filler.json) and of the invented chat corpora
(telegraphic.json, chat_register.json: personal facts against non-facts of the same register), of invented
questions with and without a fact (question_facts.json), and the precision and recall of linking a reply
to the question it answers on invented snippets (benchmarks/reply_links.py).
The offline engine (no chat model) ingests each conversation once into --work, in a folder named
by a hash of dmem's source, so a code change re-ingests and an unchanged tree reuses the stores.
--drafts is the fast mode (seconds, not an hour on a shared machine): the offline engine's admission
and split over the same exchanges (pairs, 8 turns of history, the node's window), with the 10 drafted
facts sharing most word stems with the exchange standing in for the embedding-searched background;
'formed' then counts evidence turns that source a drafted fact and 'mem/turn' is drafted facts per
turn, before the lifecycle merges duplicates; no System 1 recall (there is no store).
Usage: python benchmarks/formation.py [locomo|realtalk|both|invented] [--half tuning|report|both (default:
       tuning, or what --only names)] [--drafts] [--chats DIR (invented only; default the batch 1 folder)]
       [--only ID,ID] [--work DIR] [--data DIR (default ../shared/data)] [--filler-only]
       [--source HASH (reuse stores ingested by another source tree)]
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import reply_links
from _fake_world import ROOT

from dmem.api import Memory
from dmem.batches import iter_exchanges
from dmem.datasets.datasets import Conversation, QAItem, load_dataset
from dmem.decisions.offline.decider import OfflineDecider
from dmem.decisions.offline.frames import is_asked
from dmem.eval.methods import speaker_namespaces
from dmem.evidence.citations import answer_trace, cited_turns
from dmem.models.embeddings import HashEmbeddings
from dmem.nodes.retrieval import asked_by_speaker_names, retrieved_memories
from dmem.services import Services
from dmem.state.schemas import MemoryRecord, Message, Operation
from dmem.text.lexical import content_words, jaccard

TUNING = {"locomo": ("conv-26", "conv-30", "conv-41"), "realtalk": ("Chat_1_", "Chat_2_", "Chat_3_")}
"""The tuning half, by conversation id (RealTalk ids by prefix); every other conversation is the report half."""
RELEASED_BATCHES = tuple(str(n) for n in range(1, 36))
"""Invented batches released for tuning and reading; later ones are held out (batch 10 was held out for stop 51
and is released from stop 52; 11 and 12 were held out for stop 52 and are released from stop 53; 13, two long chats
and an ordinary one, was held out for stop 53 and is released from stop 54; 14, two long terse chats and an ordinary
one, was held out for stop 54 and is released from stop 55; 15, a long terse chat, a long mixed one and an ordinary
one, was held out for stop 55 and is released from stop 56; 16, a very long chat of new acquaintances, a long one of
old friends and an ordinary one, was held out for stop 56 and is released from stop 57; 17, a long pen-pal chat, a long
one told in questions and hedges and an ordinary one, was held out for stop 57 and is released from stop 58; 18, a long
chat of siblings, a long one of neighbours in voice-note-like messages and an ordinary one, was held out for stop 58
and is released from stop 59; 19, a long hobby-forum chat, a long one of coworkers and an ordinary one, was held out
for stop 59 and is released from stop 60; 20, a long chat of language-exchange strangers, a long one of a mother and
her son and an ordinary one, was held out for stop 60 and is released from stop 61; 21, a long all-lowercase chat of
friends met in an online game, a long one of two people finding what they share and an ordinary one, was held out
for stop 61 and is released from stop 62; 22, a long chat of old school friends mostly about third persons, a long
one of multi-paragraph messages answered in short lines and an ordinary one of flatmates, was held out for stop 62
and is released from stop 63; 23, a long chat of cousins told much in reactions, a long one of evening-class
acquaintances and an ordinary one of a grandparent and grandchild, was held out for stop 63 and is released from
stop 64; 24, a long all-lowercase chat of cooks, a long one of a couple living apart and an ordinary one of football
teammates, was held out for stop 64 and is released from stop 65; 25, a long chat of a dating-app couple, a long one
of former colleagues and an ordinary one of allotment neighbours, was held out for stop 65 and is released from stop
66; 26, a long chat of old university friends, a long one of cousins organising a party and an ordinary one of a dog
walker and a retired man, was held out for stop 66 and is released from stop 67; 27, a long chat of siblings, a long
one of board-game friends and an ordinary one of a bakery owner and her assistant, was held out for stop 67 and is
released from stop 68; 28, a long chat of cousins, a long one of a retired teacher and a former pupil and an ordinary
one of two neighbours, was held out for stop 68 and is released from stop 69; 29, a long chat of two university
friends, a long one of a brother at sea and his pregnant sister and an ordinary one of two bookshop colleagues, was held
out for stop 69 and is released from stop 70; 30, a long chat of language-and-running-app strangers writing long
messages, a long one of a grandfather and his granddaughter and an ordinary one of two community-radio volunteers, was
held out for stop 70 and is released from stop 71; 31, a long chat of two cooking-school friends, a long one of
siblings sharing their father's care and an ordinary one of two charity-ride organisers, was held out for stop 71
and is released from stop 72; 32, a long chat of a bus mechanic and a retired piano teacher met on a
language-exchange app, a long one of cousins organising an aunt's surprise 70th and an ordinary one of two
community-radio volunteers, was held out for stop 72 and is released from stop 73; 33, a long chat of a
beekeeper and her lorry-driver brother-in-law restoring a cottage, a long one of two rowing-crew members before
a regatta and an ordinary one of two allotment neighbours, was held out for stop 73 and is released from stop
74; 34, a long chat of a retired locksmith moving flat and his granddaughter on a year abroad, a long one of two
repair-café volunteers, one training a rescue greyhound, and an ordinary one of two colleagues sharing a car
and a Spanish class, was held out for stop 74 and is released from stop 75; 35, a long chat of a retired
postman tracing his family history and his nephew, a junior doctor on night shifts, a long one of two flatmates,
one starting a bread stall, the other through a job application, and an ordinary one of two junior-football
parents, was held out for stop 75 and is released from stop 76)."""
EMBEDDINGS = "local:all-MiniLM-L6-v2"
CATEGORIES = (1, 2, 3, 4)
HISTORY, BACKGROUND = 8, 10  # the ingestion defaults: history_messages, extraction_top_k
OVERWRITE_JACCARD = 0.3  # an UPDATE whose old and new texts share less of their content stems overwrote a fact
INVENTED = ROOT / "benchmarks" / "data" / "invented_chats"
"""The invented chats measured by default (batch 1); ``--chats`` names another folder, such as batch 2 or 3."""


@functools.cache
def arguments() -> argparse.Namespace:
    """The command line (``--help`` prints it and measures nothing); other scripts' flags are left alone."""
    parser = argparse.ArgumentParser(description="Formation recall on the development data (see the module docstring).")
    parser.add_argument("dataset", nargs="?", default="both",
                        help="locomo, realtalk, both (default), or invented (the folder --chats names)")
    parser.add_argument("--half", choices=["tuning", "report", "both"], default=None,
                        help="default: tuning, or every conversation --only names; the report half is "
                             "measured only when asked for")
    parser.add_argument("--only", help="comma list of conversation ids")
    parser.add_argument("--chats", default=str(INVENTED),
                        help="invented only: the folder of invented chats (RealTalk format), a path from the "
                             "current folder or from the repository root; default benchmarks/data/invented_chats "
                             "(batch 1); benchmarks/data/invented_chats_2 is batch 2, benchmarks/data/invented_chats_3 "
                             "batch 3 (held out at stop 43, written apart from the rules)")
    parser.add_argument("--drafts", action="store_true", help="admission and split only (fast), no store")
    parser.add_argument("--work", default=str(ROOT / ".bench-stores" / "formation"))
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--filler-only", action="store_true")
    parser.add_argument("--source", help="reuse the stores another source tree (this hash) ingested")
    parser.add_argument("--rules", help="formation_loco.py only: the rules whose name holds these words")
    parser.add_argument("--unmarked", action="store_true",
                        help="formation_loco.py only: also count each conversation copied without end marks")
    return parser.parse_known_args()[0]


def option(name: str, default: str | None = None) -> str | None:
    """A flag's value from the command line, else ``default`` (also for other scripts' own flags)."""
    known = vars(arguments()).get(name.lstrip("-").replace("-", "_"))
    if known is not None:
        return str(known)
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv[:-1] else default


def chats_folder(given: str) -> Path:
    """The folder of invented chats ``--chats`` names: as given, else under the repository root."""
    path = Path(given).expanduser()
    found = next((p for p in (path, ROOT / path) if p.is_dir()), None)
    if found is None:
        raise SystemExit(f"formation.py: --chats {given}: no such folder (give a path from here or from {ROOT})")
    return found.resolve()


DATA = Path(option("--data", str(ROOT.parent / "shared" / "data")) or "")
SETS = {"locomo": DATA / "locomo" / "locomo-dev6.json", "realtalk": DATA / "realtalk",
        "invented": chats_folder(option("--chats", str(INVENTED)) or str(INVENTED))}
FORMAT = {"locomo": "locomo", "realtalk": "realtalk", "invented": "realtalk"}
"""The file format of each set: the invented chats are RealTalk chats."""


def half_of(kind: str, conv_id: str) -> str:
    """'tuning' or 'report' for the dev data; the invented chats are a group of their own, never tuned on."""
    if kind == "invented":
        return "invented"
    return "tuning" if any(conv_id == t or conv_id.startswith(t) for t in TUNING[kind]) else "report"


def held_out(kind: str, store: str) -> bool:
    """Whether a store of formation.py's work tree (``<kind>/<conversation>``) is one a script must never read.

    The dev data's report half (``half_of``), an invented chat of a batch not released (a store is named
    'Invented<batch>_...', 'Invented_...' for batch 1), or a chat of the question corpus's check half ('AskedC<n>_...').
    """
    if kind in TUNING:
        return half_of(kind, store.removesuffix(".done")) == "report"
    batch = re.match(r"Invented(\d*)_", store)
    if kind == "invented" and re.match(r"AskedC\d+_", store):
        return True  # the question corpus's check half (benchmarks/data/question_chats/check)
    return kind == "invented" and batch is not None and (batch[1] or "1") not in RELEASED_BATCHES


def _group(half: str) -> str:
    """How a pooled row is named: 'tuning half', 'report half' or 'invented chats'."""
    return "invented chats" if half == "invented" else f"{half} half"


def _order(conv: Conversation) -> Callable[[str], int]:
    """A sort key putting turn ids in the conversation's order (D2:1 before D10:1)."""
    position = {m.turn_id: i for i, m in enumerate(conv.messages)}
    return lambda turn: position.get(turn, len(position))


def _said(conv: Conversation, turn: str) -> str:
    """'D3:4 Wren: text' for one turn of an invented chat."""
    message = next(m for m in conv.messages if m.turn_id == turn)
    return f"{turn} {message.speaker}: {message.text!r}"


@functools.cache
def source_hash() -> str:
    """A short hash of dmem's Python source at start: stores built by other code are never reused."""
    if given := option("--source"):
        return given
    digest = hashlib.sha1()
    for path in sorted((ROOT / "dmem").rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()[:10]


def store_for(kind: str, conv: Conversation) -> Path:
    """The conversation's store, ingested once by the offline engine for this source tree."""
    path = Path(option("--work", str(ROOT / ".bench-stores" / "formation")) or "") / source_hash() / kind
    name = conv.conversation_id
    if kind == "invented":  # the invented chats get edited: a changed chat is ingested again
        name += "-" + hashlib.sha1(conv.model_dump_json().encode()).hexdigest()[:8]
    store, done = path / name, path / f"{name}.done"
    if not done.exists():
        started = time.perf_counter()
        with Memory(store, embeddings=EMBEDDINGS) as mem:
            messages = [m.model_copy(update={"seq": m.seq + 1}) for m in conv.messages]
            mem.add(messages, user_id=conv.conversation_id, conversation_id=conv.conversation_id,
                    speaker_namespaces=speaker_namespaces(conv))
        done.write_text(f"{time.perf_counter() - started:.0f}s")
    return store


def reason_family(reason: str) -> str:
    """A reason without its quoted words or question: 'rejected: hedged statement'."""
    return re.sub(r"\s*\(.*$", "", reason).replace("'s question", "").strip()


@dataclass
class Figures:
    """What one conversation (or a pooled group of them) measured."""

    turns: int = 0
    memories: int = 0
    evidence: int = 0
    formed: int = 0
    missing: int = 0
    linked: int = 0
    """Memories (or drafts) naming a turn of another speaker than their last source turn: the question answered."""
    updates: int = 0
    """Lifecycle UPDATEs in the stores' history (full mode)."""
    overwrites: int = 0
    """UPDATEs whose new text shares under OVERWRITE_JACCARD of the old text's content stems: another fact."""
    recall: dict[str, list[float]] = field(default_factory=dict)
    unformed: Counter[str] = field(default_factory=Counter)
    unformed_turns: list[tuple[str, str]] = field(default_factory=list)
    """(reason family, 'turn speaker: text -- verdict') per unformed evidence turn; printed for invented chats."""
    missed: list[str] = field(default_factory=list)
    """Formed evidence turns System 1 (hybrid) did not retrieve, with their question; printed for invented chats."""

    def add(self, other: Figures) -> None:
        self.turns += other.turns
        self.memories += other.memories
        self.evidence += other.evidence
        self.formed += other.formed
        self.missing += other.missing
        self.linked += other.linked
        self.updates += other.updates
        self.overwrites += other.overwrites
        for key, values in other.recall.items():
            self.recall.setdefault(key, []).extend(values)
        self.unformed.update(other.unformed)
        self.unformed_turns.extend(other.unformed_turns)
        self.missed.extend(other.missed)

    def row(self, name: str) -> str:
        r = {k: f"{statistics.mean(v):.3f}" for k, v in self.recall.items() if v}
        return (f"{name:<22}{self.turns:>6}{self.memories / max(self.turns, 1):>9.3f}{self.evidence:>6}"
                f"{self.missing:>6}{self.formed / max(self.evidence, 1):>8.3f}{r.get('ceiling', '-'):>7}"
                f"{r.get('dense', '-'):>8}"
                f"{r.get('hybrid', '-'):>8}{r.get('hybrid+missing', '-'):>10}")


HEADER = (f"{'conversation':<22}{'turns':>6}{'mem/turn':>9}{'evid':>6}{'miss':>6}{'formed':>8}{'S1 max':>7}"
          f"{'S1 dns':>8}"
          f"{'S1 hyb*':>8}{'hyb+miss':>10}")


def recall(qa: QAItem, found: set[str], count_missing: bool) -> float:
    """The share of a question's evidence turns among ``found`` (its missing ids counted when asked)."""
    total = len(qa.evidence) + (len(qa.missing_evidence) if count_missing else 0)
    return sum(e in found for e in qa.evidence) / total


def linked(records: list[MemoryRecord], speakers: dict[str, str]) -> int:
    """How many records name a turn of another speaker than their last source turn (a question they answer)."""
    return sum(1 for r in records if r.source_turn_ids
               and any(speakers.get(t) != speakers.get(r.source_turn_ids[-1]) for t in r.source_turn_ids))


def drafted(conv: Conversation) -> tuple[list[MemoryRecord], set[str], dict[str, tuple[bool, str]]]:
    """--drafts: facts drafted by offline admission + split; (the facts, source turns, verdict by turn)."""
    decider = OfflineDecider(HashEmbeddings())
    facts: list[tuple[MemoryRecord, set[str]]] = []
    verdicts: dict[str, tuple[bool, str]] = {}
    position = {m.turn_id: i for i, m in enumerate(conv.messages)}
    for exchange in iter_exchanges(conv.messages, 2):
        start = position[exchange[0].turn_id]
        history = conv.messages[max(0, start - HISTORY): start]
        words = set(content_words(" ".join(m.text for m in exchange)))
        background = [r for r, _ in sorted(facts, key=lambda f: -len(words & f[1]))[:BACKGROUND]]
        admission = decider.admit(exchange, history, background).value
        admitted = {v.turn_id: v for v in admission.verdicts}
        verdicts.update({t: (v.admit, v.reason) for t, v in admitted.items()})
        ok = [m for m in exchange if admitted[m.turn_id].admit]
        asked = [m for m in exchange[: exchange.index(ok[0])]] if ok else []
        for d in decider.split(ok, [*history, *asked], background, admission).value.facts if ok else []:
            record = MemoryRecord(id=str(len(facts)), namespace="n", text=d.text, source_turn_ids=d.source_turn_ids,
                                  created_at=conv.messages[0].timestamp, updated_at=conv.messages[0].timestamp)
            facts.append((record, set(content_words(d.text))))
    return [r for r, _ in facts], {t for r, _ in facts for t in r.source_turn_ids}, verdicts


def measure_drafts(conv: Conversation) -> Figures:
    questions = [q for q in conv.qa if q.category in CATEGORIES]
    evidence = {e for q in questions for e in q.evidence}
    missing = {e for q in questions for e in q.missing_evidence} - evidence
    facts, sources, verdicts = drafted(conv)
    fig = Figures(turns=len(conv.messages), memories=len(facts), evidence=len(evidence),
                  formed=len(evidence & sources), missing=len(missing),
                  linked=linked(facts, {m.turn_id: m.speaker for m in conv.messages}))
    fig.recall["ceiling"] = [recall(q, sources, False) for q in questions if q.evidence]
    for turn in sorted(evidence - sources, key=_order(conv)):
        admitted, reason = verdicts[turn]
        family = "admitted, no fact drafted" if admitted else reason_family(reason)
        fig.unformed[family] += 1
        fig.unformed_turns.append((family, f"{_said(conv, turn)} -- {reason}"))
    return fig


def measure(kind: str, conv: Conversation) -> Figures:
    namespaces = list(speaker_namespaces(conv).values())
    questions = [q for q in conv.qa if q.category in CATEGORIES]
    evidence = {e for q in questions for e in q.evidence}
    missing = {e for q in questions for e in q.missing_evidence} - evidence
    with Memory(store_for(kind, conv), embeddings=EMBEDDINGS, read_only=True) as mem:
        svc = mem.services
        records = [r for ns in namespaces for r in svc.store.vectors.list(ns)]
        sources = {t for r in records for t in r.source_turn_ids}
        verdicts = {d.turn_id: d for ns in namespaces for d in svc.store.history.admissions(ns)}
        updated = [(e.old_text or "", e.new_text or "") for ns in namespaces for e in svc.store.history.entries(ns)
                   if e.operation == Operation.UPDATE]
        fig = Figures(turns=len(conv.messages), memories=len(records), evidence=len(evidence),
                      formed=len(evidence & sources), missing=len(missing),
                      linked=linked(records, {m.turn_id: m.speaker for m in conv.messages}),
                      updates=len(updated), overwrites=sum(jaccard(old, new) < OVERWRITE_JACCARD
                                                           for old, new in updated))
        for turn in sorted(evidence - sources, key=_order(conv)):
            d = verdicts.get(turn)
            family = (reason_family(d.reason) if d and not d.admitted else
                      "admitted, no live memory" if d else "no admission recorded")
            fig.unformed[family] += 1
            fig.unformed_turns.append((family, f"{_said(conv, turn)} -- {d.reason if d else 'no verdict'}"))
        fig.recall["ceiling"] = [recall(q, sources, False) for q in questions if q.evidence]
        for qa in (q for q in questions if q.evidence):
            fig.recall.update({k: fig.recall.get(k, []) for k in ("dense", "hybrid", "hybrid+missing")})
            asked = asked_by_speaker_names(svc, qa.question, namespaces)  # as ``retrieve`` asks it
            retrieved: dict[str, tuple[list[tuple[MemoryRecord, float]], int]] = {}  # by mode, for the trace
            for mode in ("dense", "hybrid"):
                retrieved[mode] = retrieved_memories(_mode(svc, mode), asked, namespaces)
                found = {t for r, _ in retrieved[mode][0] for t in r.source_turn_ids}
                fig.recall[mode].append(recall(qa, found, False))
                if mode == "hybrid":
                    fig.recall["hybrid+missing"].append(recall(qa, found, True))
                    fig.missed.extend(f"{_said(conv, t)} <- {qa.question!r}"
                                      for t in qa.evidence if t in sources and t not in found)
            trace_figures(svc, qa, asked, retrieved[svc.context.retrieval_mode], fig)
    return fig


def trace_figures(svc: Services, qa: QAItem, asked: str,
                  retrieved: tuple[list[tuple[MemoryRecord, float]], int], fig: Figures) -> None:
    """Precision and recall of the System 1 answer's trace: the turns the answer drew on (as ``Answer`` has
    it), every source turn of the memories used (before a linked question's turn was cited only when
    needed), and every memory retrieved. ``asked``: the question as ``retrieve`` passes it on; ``retrieved``: its
    memories in ``svc``'s retrieval mode and how many are the same-K ones (``retrieved_memories``), which the
    answer reads first, as the ``answer`` node has it."""
    hits, core = retrieved
    memories = [r for r, _ in hits]
    draft = svc.decider.answer(asked, [m.render() for m in memories], core=core).value
    every = list(dict.fromkeys(t for m in memories for t in m.source_turn_ids))
    ids = [m.id for m in memories]
    drew = answer_trace(svc.store.transcript, draft, ids, memories) or every
    used = cited_turns(draft.used, ids, memories) or every
    gold = set(qa.evidence)
    for name, trace in (("drew", drew), ("used", used), ("retrieved", every)):
        hit = len(gold & set(trace))
        fig.recall.setdefault(f"{name} P", []).append(hit / len(set(trace)) if trace else 0.0)
        fig.recall.setdefault(f"{name} R", []).append(hit / len(gold))


def _mode(svc: Services, mode: str) -> Services:
    import dataclasses

    return dataclasses.replace(svc, context=svc.context.with_overrides(retrieval_mode=mode))


def report_dataset(kind: str, wanted_half: str) -> None:
    dataset = load_dataset(FORMAT[kind], SETS[kind])  # type: ignore[arg-type]
    only = option("--only")
    convs = [c for c in dataset.conversations
             if (wanted_half == "both" or kind == "invented" or half_of(kind, c.conversation_id) == wanted_half)
             and (not only or c.conversation_id in only.split(","))]
    halves: dict[str, Figures] = {}
    print(f"\n{kind} (source {source_hash()}): formed = share of existing evidence turns that source a memory")
    print(HEADER)
    for conv in convs:
        started = time.perf_counter()
        fig = measure_drafts(conv) if arguments().drafts else measure(kind, conv)
        half = half_of(kind, conv.conversation_id)
        halves.setdefault(half, Figures()).add(fig)
        print(fig.row(f"{conv.conversation_id[:15]} ({half[0]})") + f"  {time.perf_counter() - started:.0f}s",
              flush=True)
    for half, fig in halves.items():
        print(fig.row(_group(half)))
    for half, fig in halves.items():
        if fig.recall.get("used P"):
            t = {k: statistics.mean(v) for k, v in fig.recall.items()}
            print(f"{_group(half)}, System 1 answer trace vs gold evidence (existing ids): turns drawn on "
                  f"P {t['drew P']:.3f} R {t['drew R']:.3f}; every source turn of the memories used "
                  f"P {t['used P']:.3f} R {t['used R']:.3f}; every memory retrieved P {t['retrieved P']:.3f} "
                  f"R {t['retrieved R']:.3f}")
    for half, fig in halves.items():
        print(f"{_group(half)}, memories naming the other speaker's question they answer: {fig.linked} "
              f"({fig.linked / max(fig.memories, 1):.1%})")
    for half, fig in halves.items():
        if fig.updates:
            print(f"{_group(half)}, lifecycle UPDATEs: {fig.updates}, of which {fig.overwrites} replaced a text "
                  f"sharing under {OVERWRITE_JACCARD:.0%} of its content stems (another fact overwritten)")
    for half, fig in halves.items():
        print(f"{_group(half)}, evidence turns that formed nothing ({sum(fig.unformed.values())}): "
              + "; ".join(f"{n} {why}" for why, n in fig.unformed.most_common()))
    if kind == "invented":
        print_invented_turns(halves["invented"])


def print_invented_turns(fig: Figures) -> None:
    """The invented chats' unformed evidence turns by reason, and formed evidence System 1 missed."""
    for family, _ in fig.unformed.most_common():
        print(f"\nunformed, {family}:")
        print("\n".join(f"  {line}" for why, line in fig.unformed_turns if why == family))
    if fig.missed:
        print(f"\nformed but not retrieved by System 1 ({len(fig.missed)} evidence turns of questions):")
        print("\n".join(f"  {line}" for line in fig.missed))


def filler_rate() -> None:
    """Admission rate of the invented filler corpus, alone and as a reply to the turn before it."""
    corpus = json.loads((ROOT / "benchmarks" / "data" / "filler.json").read_text())["turns"]
    decider = OfflineDecider(HashEmbeddings())
    admitted = []
    for i, item in enumerate(corpus):
        prior = [Message(conversation_id="f", turn_id=f"q{i}", speaker="Ana", text=item["before"], seq=0)] \
            if item["before"] else []
        turn = Message(conversation_id="f", turn_id=f"t{i}", speaker="Bo", text=item["text"], seq=1)
        verdict = decider.admit([turn], prior, []).value.verdicts[0]
        if verdict.admit:
            admitted.append(f"{item['text']!r} ({verdict.reason})")
    print(f"\nfiller admission rate: {len(admitted)}/{len(corpus)} = {len(admitted) / len(corpus):.3f}"
          + ("" if not admitted else "; admitted: " + ", ".join(admitted)))


def _judged(turns: list[dict], speaker: str, other: str) -> Iterator[tuple[dict, bool, list[str]]]:
    """Each invented line of a corpus, said by ``speaker`` after ``other``'s turn before it: (line, admitted, facts)."""
    decider = OfflineDecider(HashEmbeddings())
    for i, item in enumerate(turns):
        prior = [Message(conversation_id="g", turn_id=f"q{i}", speaker=other, text=item["before"], seq=0)]
        turn = Message(conversation_id="g", turn_id=f"t{i}", speaker=speaker, text=item["text"], seq=1)
        verdict = decider.admit([turn], prior, []).value.verdicts[0]
        facts = [f.text for f in decider.split([turn], prior, []).value.facts] if verdict.admit else []
        yield item, verdict.admit, facts


def corpus_rate(name: str, label: str) -> None:
    """Admission of an invented chat corpus (benchmarks/data/<name>.json), each line after the other's turn.

    Personal lines should be admitted and their fact name the speaker; lines of the same register that are
    no fact about the speaker should not. Batch 1 was written with the rules, batch 2 after they were
    frozen: printed apart. telegraphic.json: 'Dog has been sick all week' against 'Kids love candy';
    chat_register.json: 'usually run on sundays lol' against 'you're so sweet' or 'so sleepy'; reusable.json:
    the speaker's world without "I" ('the plumber comes thursday at 8am') against news, generic truths and
    remarks on the listener (its 'personal' means worth keeping).
    """
    corpus = json.loads((ROOT / "benchmarks" / "data" / f"{name}.json").read_text())
    counts: Counter[tuple[int, bool, str]] = Counter()
    wrong: list[str] = []
    for item, admit, facts in _judged(corpus["turns"], corpus["speaker"], corpus["other"]):
        key = (item["batch"], item["personal"])
        counts[(*key, "all")] += 1
        counts[(*key, "admitted")] += admit
        counts[(*key, "named")] += any(corpus["speaker"] in f for f in facts)
        if admit != item["personal"]:
            wrong.append(f"{'missed' if item['personal'] else 'admitted'} {item['text']!r}")
    for batch in sorted({b for b, _, _ in counts}):
        for personal, kind in ((True, "personal facts"), (False, "not personal facts")):
            n, admitted = counts[(batch, personal, "all")], counts[(batch, personal, "admitted")]
            print(f"{label} batch {batch}, {kind}: admitted {admitted}/{n} = {admitted / max(n, 1):.3f}, "
                  f"a fact naming the speaker {counts[(batch, personal, 'named')]}/{n}")
    print(f"{label}, wrong verdicts: " + ("; ".join(wrong) or "none"))


def circle_rate(batches: tuple[int, ...] = (1, 2)) -> None:
    """Admission of invented snippets about the people of the speaker's life (benchmarks/data/circle.json).

    The last turn names someone the turns before introduced, by pronoun or name, and says no 'I' of its own:
    about the speaker's person it should be admitted with a fact naming them ('Ilse's dad'); about the
    listener's person, a stranger, someone public or nobody named it should not. Batch 2 is held out.
    """
    corpus = json.loads((ROOT / "benchmarks" / "data" / "circle.json").read_text())
    decider = OfflineDecider(HashEmbeddings())
    counts: Counter[tuple[int, bool, str]] = Counter()
    wrong: list[str] = []
    for i, item in enumerate(i for i in corpus["items"] if i["batch"] in batches):
        prior = [Message(conversation_id="c", turn_id=f"c{i}.{j}", speaker=who, text=said, seq=j)
                 for j, (who, said) in enumerate(item["before"])]
        turn = Message(conversation_id="c", turn_id=f"c{i}", speaker=corpus["speaker"], text=item["text"],
                       seq=len(prior))
        admit = decider.admit([turn], prior, []).value.verdicts[0].admit
        facts = [f.text for f in decider.split([turn], prior, []).value.facts] if admit else []
        key = (item["batch"], item["personal"])
        counts[(*key, "all")] += 1
        counts[(*key, "admitted")] += admit
        named = bool(item.get("has")) and any(item["has"] in f for f in facts)
        counts[(*key, "named")] += named
        if admit != item["personal"] or (admit and item["personal"] and not named):
            wrong.append(f"{'missed' if item['personal'] else 'admitted'} {item['text']!r} {facts}")
    for batch in sorted({b for b, _, _ in counts}):
        for personal, kind in ((True, "about the speaker's person"), (False, "about someone else or nobody")):
            n, admitted = counts[(batch, personal, "all")], counts[(batch, personal, "admitted")]
            print(f"people of the speaker's life batch {batch}, {kind}: admitted {admitted}/{n} = "
                  f"{admitted / max(n, 1):.3f}" + (f", a fact naming them {counts[(batch, True, 'named')]}/{n}"
                                                   if personal else ""))
    print("people of the speaker's life, wrong verdicts: " + ("; ".join(wrong) or "none"))


def question_fact_rate() -> None:
    """Admission of invented questions (benchmarks/data/question_facts.json), after a turn that asks nothing.

    Questions that carry a fact ('Did you finish the game I lent you?', "How's your new puppy settling in?")
    should be admitted and drafted as a statement naming the person the fact is about ("Ines lent Olek the
    puzzle game"); generic, phatic and rhetorical ones ('What do you do for fun?', 'Any plans?') should not be
    admitted. Batch 1 was written with the rules, batch 2 after they were frozen: printed apart; batches 4-5
    (stop 56) hold questions carrying the asker's own fact, the rules chosen on batch 4 and reported on batch 5.
    """
    corpus = json.loads((ROOT / "benchmarks" / "data" / "question_facts.json").read_text())
    counts: Counter[tuple[int, bool, str]] = Counter()
    wrong: list[str] = []
    for item, admit, facts in _judged(corpus["turns"], corpus["asker"], corpus["listener"]):
        person = corpus.get(item["about"] or "", "")
        key = (item["batch"], item["carries"])
        counts[(*key, "all")] += 1
        counts[(*key, "admitted")] += admit
        counts[(*key, "stated")] += bool(person) and any(f.startswith(person) and not is_asked(f) for f in facts)
        counts[(*key, "asked")] += any(is_asked(f) for f in facts)
        if admit != item["carries"]:
            wrong.append(f"{'missed' if item['carries'] else 'admitted'} {item['text']!r}")
    for batch in sorted({b for b, _, _ in counts}):
        for carries, name in ((True, "carrying a fact"), (False, "carrying none")):
            n, admitted = counts[(batch, carries, "all")], counts[(batch, carries, "admitted")]
            stated, asked = counts[(batch, carries, "stated")], counts[(batch, carries, "asked")]
            print(f"questions batch {batch}, {name}: admitted {admitted}/{n} = {admitted / max(n, 1):.3f}"
                  + (f", a statement naming the right person {stated}/{n}, kept as asked {asked}/{n}"
                     if carries else ""))
    print("questions, wrong verdicts: " + ("; ".join(wrong) or "none"))


def main() -> None:
    args = arguments()
    if args.dataset not in ("locomo", "realtalk", "both", "invented"):
        raise SystemExit(f"formation.py: dataset must be locomo, realtalk, both or invented, not {args.dataset!r}")
    if args.dataset == "invented" and not args.filler_only:
        report_dataset("invented", "invented")
    elif not args.filler_only and not SETS["locomo"].is_file():
        print(f"skipped: {DATA} not found (benchmarks read ../shared/data)")
    elif not args.filler_only:
        half = args.half or ("both" if args.only else "tuning")
        for kind in ("locomo", "realtalk") if args.dataset == "both" else (args.dataset,):
            report_dataset(kind, half)
    filler_rate()
    corpus_rate("telegraphic", "telegraphic chat")
    circle_rate()
    corpus_rate("chat_register", "casual chat")
    corpus_rate("reusable", "reusable content")
    question_fact_rate()
    reply_links.report()


if __name__ == "__main__":
    main()
