"""Invented chat for `soak.py` and `memory_growth.py`: two turns a send, each send's turns unique.

``chat`` (the default): seven first-person facts and their replies over invented people and towns and
the months. Every send is unique (so the soak can count lost and duplicated turns by text), yet
the words are a fixed set of 143, all of them used within the first 41 sends: like a real
chat's, the vocabulary stops growing, so a process's per-word structures (the stemmer's cache,
BM25's vocabulary) stop growing with it. Real chat keeps adding a rare word now and then; this is
the bounded end of that.

``unique``: the texts the soak sent before (until 2026-12-02): each send carries a word never seen
before (a name like ``Ing0x123``) and its idempotency key in the reply, so the vocabulary grows by
two words a send for as long as the run lasts. Kept to reproduce those figures.
"""

from __future__ import annotations

from typing import Literal

TextKind = Literal["chat", "unique"]

NAMES = ("Tavish", "Orla", "Bennet", "Sunniva", "Caspian", "Ilse", "Rafferty", "Mireille", "Ottoline", "Dariusz",
         "Ysolde", "Fintan", "Liesel", "Anouk", "Barnaby", "Calloway", "Delphine", "Emrys", "Faustine", "Gideon",
         "Hester", "Ignatius", "Jessamy", "Kestrel", "Lorcan", "Maelis", "Niamh", "Osric", "Peregrine", "Quilla",
         "Rosalind", "Sorrel", "Thaddeus", "Ulla", "Vesper", "Wilhelmina", "Xanthe", "Yorick", "Zelda", "Ambrose",
         "Briony")
"""41 invented first names (a prime count: the slots cycle at coprime periods)."""
TOWNS = ("Brackmoor", "Lindhaven", "Oxbridge Vale", "Marrowfield", "Kestwick", "Dunhallow", "Pellerin",
         "Saltcombe", "Ashgrove", "Wyndmere", "Thornbury Cross", "Calderwick", "Elmstead", "Fennick", "Glasswater",
         "Harrowgate Mill", "Ivybridge Row", "Juniper Hollow", "Kingsferry", "Larchmont", "Millbrook", "Northwold",
         "Orchard Bay")
"""23 invented towns."""
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
FACTS = (("My cousin {name} moved to {town} in {month}.", "How is {name} settling into {town} since {month}?"),
         ("I met {name} at the climbing gym in {town} in {month}.",
          "Do you still climb with {name} in {town} after {month}?"),
         ("{name} and I are planning a trip to {town} in {month}.",
          "{town} in {month} sounds lovely, is {name} booking the train?"),
         ("I adopted a beagle named {name} from a shelter in {town} in {month}.",
          "Does {name} like the walks around {town}? {month} is a good time for a puppy."),
         ("My colleague {name} is running a half marathon in {town} in {month}.",
          "Will you cheer for {name} in {town} in {month}?"),
         ("I started a pottery class in {town} with my friend {name} in {month}.",
          "What did you and {name} make in {town} since {month}?"),
         ("My sister {name} opened a bakery in {town} in {month}.",
          "Is the bakery {name} opened in {town} busy since {month}?"))
"""Seven invented first-person facts the offline engine admits, each with an assistant reply."""
SENDS = len(FACTS) * len(NAMES) * len(TOWNS) * len(MONTHS)
"""Distinct ``chat`` sends (79,212): the four periods are coprime, so n and n + SENDS are the first equal pair."""

UNIQUE_FACTS = ("I adopted a beagle named {name}.", "I started a pottery class with my friend {name} on Mondays.",
                "My sister {name} moved to Porto in May.", "I work as a nurse with my colleague {name}.",
                "I joined a chess club called {name}.")
"""The old texts' facts; ``{name}`` is a word never sent before."""


def exchange(kind: TextKind, n: int, sender: str, key: str) -> tuple[str, str]:
    """The user's and the assistant's turn of send ``n`` (n >= 0) of ``sender``, whose idempotency key is ``key``.

    ``chat`` sends are numbered across senders by the caller (``n``), so two senders never send the
    same text; ``unique`` names the sender and ``n`` in a new word and quotes the key.
    """
    if kind == "unique":
        fact = UNIQUE_FACTS[n % len(UNIQUE_FACTS)].format(name=f"{sender.title()}x{n}")
        return fact, f"Thanks for telling me ({key})."
    if n >= SENDS:
        raise ValueError(f"send {n} would repeat an earlier one: the chat texts have {SENDS} distinct sends")
    fact, reply = FACTS[n % len(FACTS)]
    slots = {"name": NAMES[n % len(NAMES)], "town": TOWNS[n % len(TOWNS)], "month": MONTHS[n % len(MONTHS)]}
    return fact.format(**slots), reply.format(**slots)
