"""Invented short personal facts, like the memories dmem forms, for embedding benchmarks.

Every sentence comes from a template and fillers written here (no benchmark data), drawn by a
seeded generator, so a run can rebuild the same sentences. The variety (about 40 templates over a
few dozen people, places, foods, hobbies, jobs and times) gives many near-duplicates per topic, as a
long-lived user's memories have.
"""

from __future__ import annotations

import numpy as np

PEOPLE = ["Ines", "Tomas", "Mirela", "Kofi", "Ana", "Jorge", "Lena", "Ravi", "Odile", "Piotr", "Sade", "Hugo",
          "Yuki", "Marta", "Elif", "Bruno", "Nadia", "Sven", "Amara", "Felix", "Chiara", "Dmitri", "Leila",
          "Oscar", "Priya", "Tariq", "Vera", "Wim", "Zoe", "Ilya"]
RELATIONS = ["sister", "brother", "mother", "father", "cousin", "best friend", "neighbour", "manager",
             "daughter", "son", "partner", "grandmother", "uncle", "colleague", "flatmate"]
PLACES = ["Lisbon", "Kyoto", "Nairobi", "Oslo", "Lima", "Porto", "Krakow", "Hanoi", "Montreal", "Seville",
          "Tbilisi", "Cork", "Busan", "Valparaiso", "Tallinn", "Marrakesh", "Bergen", "Cusco", "Ghent", "Perth"]
FOODS = ["ramen", "lentil soup", "sourdough bread", "spicy curry", "grilled sardines", "mango sticky rice",
         "dark chocolate", "black coffee", "green tea", "mushroom risotto", "falafel", "pho", "cheesecake",
         "oat porridge", "tacos", "dumplings", "paella", "kimchi", "goat cheese", "lemon tart"]
HOBBIES = ["rock climbing", "pottery", "chess", "trail running", "birdwatching", "knitting", "salsa dancing",
           "woodworking", "watercolour painting", "sailing", "baking bread", "photography", "gardening",
           "playing the cello", "learning Japanese", "swimming", "yoga", "cycling to work", "board games",
           "writing short stories"]
JOBS = ["nurse", "software engineer", "primary school teacher", "architect", "chef", "accountant",
        "physiotherapist", "bus driver", "librarian", "data analyst", "carpenter", "translator", "pharmacist",
        "journalist", "electrician", "veterinarian"]
PETS = ["a grey cat", "two goldfish", "an old beagle", "a parrot", "a rescue greyhound", "three hens",
        "a tortoise", "a black labrador", "a hamster", "a kitten"]
TIMES = ["every Monday", "on weekends", "since last spring", "twice a week", "every morning",
         "in the summer", "since 2019", "after work", "most evenings", "once a month", "last year",
         "this winter", "on Sundays", "since childhood"]
HEALTH = ["a peanut allergy", "trouble sleeping", "a sore knee", "lactose intolerance", "mild asthma",
          "back pain", "hay fever", "a gluten intolerance", "migraines", "high blood pressure"]
MUSIC = ["jazz", "old soul records", "Brazilian samba", "film soundtracks", "indie folk", "classical piano",
         "techno", "eighties pop", "opera", "reggae"]

TEMPLATES = [
    "The user loves {food}.", "The user cannot stand {food}.", "The user eats {food} {time}.",
    "The user's {relation} {person} makes great {food}.", "The user is allergic to {food}.",
    "The user took up {hobby} {time}.", "The user goes {hobby} with {person} {time}.",
    "The user wants to get better at {hobby}.", "The user gave up {hobby} {time}.",
    "The user works as a {job}.", "The user's {relation} {person} works as a {job}.",
    "The user used to be a {job} in {place}.", "The user is training to become a {job}.",
    "The user lives in {place}.", "The user grew up in {place}.", "The user is planning a trip to {place}.",
    "The user visited {place} {time}.", "The user's {relation} {person} moved to {place}.",
    "The user has {pet}.", "The user's {relation} {person} looks after {pet}.", "The user wants to adopt {pet}.",
    "The user has {health}.", "The user's {relation} {person} has {health}.",
    "The user sees a doctor about {health} {time}.", "The user listens to {music} {time}.",
    "The user's favourite music is {music}.", "The user went to a {music} concert with {person}.",
    "The user's {relation} is called {person}.", "The user met {person} in {place}.",
    "The user calls {relation} {person} {time}.", "The user's birthday dinner was {food} in {place}.",
    "The user and {person} share a love of {hobby}.", "The user's {relation} {person} lives in {place}.",
    "The user is saving money for a trip to {place}.", "The user prefers {food} to {food2}.",
    "The user learned {hobby} from {relation} {person}.", "The user feels stressed about work as a {job}.",
    "The user's {relation} {person} is a {job} in {place}.", "The user plays {music} while {hobby}.",
    "The user stopped eating {food} because of {health}.",
]
FIELDS = {"food": FOODS, "food2": FOODS, "hobby": HOBBIES, "job": JOBS, "place": PLACES, "person": PEOPLE,
          "relation": RELATIONS, "pet": PETS, "time": TIMES, "health": HEALTH, "music": MUSIC}


def fact_sentences(n: int, seed: int) -> list[str]:
    """``n`` invented personal facts, the same ones for the same seed."""
    rng = np.random.default_rng(seed)
    out = []
    for t in rng.integers(len(TEMPLATES), size=n):
        template = TEMPLATES[int(t)]
        fills = {key: values[int(rng.integers(len(values)))] for key, values in FIELDS.items()
                 if "{" + key + "}" in template}
        out.append(template.format(**fills))
    return out
