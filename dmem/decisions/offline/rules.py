"""Lexicons and patterns of the offline decision engine (English; other languages pass through).

Each pattern's first matched span is quoted in reasons, so verdicts say which words decided them.
"""

from __future__ import annotations

import re

from dmem.text.asked import wh_clause
from dmem.text.words import wordset

_I = re.I


def words(*items: str) -> str:
    """A word-bounded alternation of phrases (spaces match any whitespace)."""
    return r"\b(?:" + "|".join(i.replace(" ", r"\s+") for i in items) + r")\b"


# Admission: reject ---------------------------------------------------------------------------
HEDGE = re.compile(words("might", "maybe", "perhaps", "not sure", "probably", "possibly", "someday", "some day",
                         "i think", "i guess", "i believe", "i suppose")
                   + r"|\bcould\b(?!n't|\s+not)"
                   r"|\b(?:i'm|i\s+am|we're|i've\s+been)\s+(?:\w+\s+)?thinking\s+(?:about|of)\b", _I)
TRANSIENT = re.compile(
    words("rented", "rental", "renting", "borrowed", "borrowing", "for the trip", "for the road trip",
          "for the weekend", "for the day", "right now", "at the moment", "today i feel", "i'm feeling",
          "i am feeling", "for now", "currently stuck")
    + r"|\bi'?m\s+(?:so\s+|really\s+|a\s+bit\s+)?(?:tired|hungry|bored|exhausted|sleepy|sick today|late)\b"
    # Tired said the chat way, its subject dropped: "so sleepy", "exhausted rn", "dead tired".
    r"|\b(?:so+|super|really|dead|totally|completely|absolutely)\s+(?:tired|sleepy|exhausted|knackered|drained)\b"
    r"|\b(?:tired|sleepy|exhausted|knackered|drained)\s+(?:rn|today|tonight|this\s+morning)\b",
    _I,
)
# "£800 for the weekend", "$40 for the day": a price's term, not a passing state; blanked before ``TRANSIENT``.
PRICE_TERM = re.compile(r"(?:[£$€]\s?\d[\d,.]*k?|\d[\d,.]*\s?(?:quid|pounds|euros|dollars))\s+"
                        r"(?:each\s+|a\s+head\s+|per\s+person\s+)?for\s+the\s+(?:weekend|day|trip|week|night)\b", _I)
PHATIC = re.compile(
    words("hi", "hey", "hello", "hiya", "thanks", "thank you", "thx", "lol", "haha", "hahaha", "good morning",
          "good night", "good evening", "how are you", "how's it going", "what's up", "bye", "goodbye",
          "see you", "see ya", "take care", "talk soon", "catch you later", "nice to meet you",
          "good to see you", "great to hear from you", "you too", "no problem"),
    _I,
)
EMOTION = re.compile(
    words("that's great", "that is great", "that's awesome", "awesome", "so happy for you", "wow", "amazing",
          "congrats", "congratulations", "that sounds", "sounds great", "sounds fun", "so proud of you",
          "good for you", "so glad", "so cool", "that's cool", "love that", "love it", "so sweet",
          "that's so", "how exciting", "incredible", "beautiful", "lovely", "i'm sorry", "so sorry", "aww"),
    _I,
)
VAGUE_WORDS = wordset(
    "life things thing stuff ok okay fine good great nice bad well busy much lot lots pretty kind "
    "sort way ways time times day days taking take care doing going getting having making been anyway "
    "everything something nothing same usual"
)
INTERJECTIONS = wordset(
    "sure yes yeah yep yup yea no nope nah hmm hm um uh oh ah aw aww ooh okay ok absolutely definitely totally "
    "agreed exactly indeed true right cool nice great awesome amazing fun wow omg haha lol yay woohoo damn "
    # chat's exclamations of relief, disgust, pain, surprise or hushing: interjections are a closed class, and
    # each of these says how the speaker feels, never what happened (h57g)
    "phew whew shush shh hush oops whoops ugh yikes meh ouch eek hmph ew eww oof gosh jeez sheesh pfft welp argh"
)
FIRST_PERSON = re.compile(words("i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "we",
                                "we're", "we've", "our", "ours", "us"), _I)
# The speaker's feeling about the listener's news ("I'm so glad you got the flat", "sorry your train was late", "it's
# great that your sister could come", "I hope you enjoy Lisbon"): the news is the listener's, told in their own turn,
# and the feeling is no fact of the speaker's. Only while what follows the feeling says nothing of the speaker's own
# (``FIRST_PERSON``): "so glad you came to my party" tells the party.
LISTENER_REACTION = re.compile(
    r"^\W*(?:(?:oh|aw+|well|and|but|so|honestly|really)[\s,!]+)*(?:"
    r"(?:i(?:'m| am| was|'d be)?\s+)?(?:(?:so|really|very|truly|just|genuinely|super)\s+)*"
    r"(?:glad|happy|pleased|thrilled|delighted|relieved|sorry|sad|proud|hope|hoping)"
    r"|(?:it's|it is|that's|that is)\s+(?:(?:so|really|very|just)\s+)?(?:great|wonderful|nice|good|amazing|lovely|"
    r"fantastic|awesome|cool|sad|a shame)"
    r")\s+(?:(?:that|to hear|to see|to know|for|of|about|how)\s+(?:that\s+)?)?"
    r"(?:you|your|you're|you've|you'll|you'd|ur|u)\b", _I)
# An opinion ranking something named: "the lake trail has the best views", "fresh pasta is way better than
# dried". The speaker's view though it says no "I"; advice to the listener ('you') is not one.
OPINION = re.compile(r"\b(?:is|are|was|were|has|have|had|makes?|serves?)\s+(?:\w+\s+)?(?:the\s+(?:best|worst|greatest)|"
                     r"(?:way\s+|much\s+|far\s+|so\s+much\s+)?(?:better|worse|tastier|nicer)\s+than|overrated|"
                     r"underrated)\b", _I)
QUESTION_START = re.compile(
    r"^\s*(?:what|when|where|who|whom|whose|why|how|which|do|does|did|is|are|was|were|can|could|will|"
    r"would|should|have|has)\b", _I)
# Without a question mark, an opening auxiliary asks only before its subject ("will you come", "is Maya in"):
# "Will do!", "Have a great trip", "Is what it is", "DO NOT tell mum" and "Can't wait" (n't) tell or bid.
_SUBJECT = (r"(?:i|you|u|ya|we|they|he|she|it|there|this|that|these|those|the|my|your|ur|his|her|their|our|any|"
            r"anyone|anybody|someone|somebody|everyone|everybody|y'all|(?-i:[A-Z][a-z]+))\b")
_AUX_ASKS = re.compile(rf"^\s*(?:do|does|did|is|are|was|were|can|could|will|would|should|have|has)\s+{_SUBJECT}", _I)
# ... and a wh-word asks unless it opens an exclamation ("What a day") or a clause of time or place ("When it
# comes to cooking, ...", "When you visit, try ...", "When spending time there, ...").
_WH_TELLS = re.compile(r"^\s*(?:(?:what|how)\s+an?\b|(?:when|where|whenever|wherever)\s+"
                       r"(?:i|you|u|we|they|he|she|it|[a-z]+ing)\b(?!\s+(?:do|does|did|is|are|was|were)\b))", _I)


def opens_question(text: str) -> bool:
    """Whether a clause opens as a question (``QUESTION_START``); without a '?' only when its first word asks.

    That is an auxiliary before its subject, or a wh-word opening no exclamation, no clause of time or place and no
    clause with its own subject and verb (``asked.wh_clause``: "WHAT she gave me a fiver").
    """
    m = QUESTION_START.match(text)
    if m is None:
        return False
    if "?" in text:
        return True
    if re.match(r"n't|n\u2019t|'|\u2019", text[m.end():]):
        return False
    if m.group(0).strip().lower() in ("what", "when", "where", "who", "whom", "whose", "why", "how", "which"):
        return not _WH_TELLS.match(text) and not wh_clause(text)
    return bool(_AUX_ASKS.match(text))
ASSISTANT_SPEAKERS = frozenset({"assistant", "system", "ai", "bot"})

# Categories --------------------------------------------------------------------------------
_ASSISTANT_VERBS = (r"(?:call|reply|answer|use|tell|remind|respond|write|send|suggest|recommend|show|ask|mention|"
                    r"bring\s+up|give\s+me|book|schedule|format|include|add)")
USER_RULE = re.compile(rf"^\s*(?:please\s+)?(?:always|never|don't|do\s+not|stop)\s+{_ASSISTANT_VERBS}\b"
                       rf"|\byou\s+(?:should|must)\s+(?:always|never)\b|\bplease\s+{_ASSISTANT_VERBS}\s+me\b", _I)
ERROR_LEARNING = re.compile(words("actually", "that's wrong", "that is wrong", "i meant", "you got it wrong",
                                  "that's not right", "not what i said", "correction", "i didn't mean"), _I)
PROCEDURAL = re.compile(
    r"\b(?:i|we)\s+(?:just\s+)?(?:searched|installed|set\s+up|booked|downloaded|configured|updated|"
    r"uninstalled|ordered|subscribed|signed\s+up|registered|looked\s+up|looked\s+for|backed\s+up|"
    r"reset|enabled|disabled)\b|\bideas\s+for\b", _I)
PREFERENCE = re.compile(
    words("like", "likes", "love", "loves", "hate", "hates", "prefer", "prefers", "favorite", "favourite",
          "enjoy", "enjoys", "vegetarian", "vegan", "allergic", "dislike", "dislikes", "can't stand",
          "fan of", "passion", "passionate"), _I)
PERSONA = re.compile(
    words("i'm a", "i am a", "i'm an", "i am an", "i work", "i live", "years old", "i'm from", "my name",
          "identify as", "transgender", "married", "single", "my job", "vegetarian", "vegan", "i have a",
          "i've had", "i own", "my family")
    + r"|\bmy\s+(?:son|daughter|wife|husband|mom|mother|dad|father|sister|brother|kids|children|"
    r"partner|boyfriend|girlfriend|friend|friends)\b", _I)
EVENT = re.compile(
    words("yesterday", "today", "tonight", "tomorrow", "last week", "last month", "last year",
          "next week", "next month", "next year", "ago", "last weekend", "this weekend", "went",
          "visited", "adopted", "graduated", "got married", "moved", "started", "finished", "joined",
          "attended")
    + r"|\b(?:i|we)\s+(?:just\s+|recently\s+|finally\s+)?(?:\w+ed|met|bought|won|ran|took|made|got|had|"
    r"saw|went|gave|found|left|began|came|built|wrote|read|did)\b", _I)

# "He is seven", "my niece just turned 12": the age of someone close.
AGE = re.compile(r"\b(?:he|she|they|my\s+\w+|(?-i:[A-Z]\w+))\s+(?:is|are|was|turned|turns|just\s+turned)\s+"
                 r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen)"
                 r"(?:\s+years?\s+old)?\b(?!\s+of\b)", _I)

# Admission: admit, in precedence order (label, pattern) ------------------------------------
# A part of the speaker's body that is bad or sore ("my knee's been bad all day", "my back is playing up again"): a
# complaint of their health however few its words. Not one that only hurts ("my hand hurts from writing"), nor how
# they look ("my hair's a mess").
SORE_PART = (r"\bmy\s+(?:left\s+|right\s+|bad\s+)?(?:knees?|back|ankles?|wrists?|shoulders?|hips?|neck|stomach|"
             r"legs?|foot|feet|arms?|hands?)(?:'s|\s+(?:is|was|has|are|were|have))?\s+(?:been\s+|still\s+|really\s+|"
             r"so\s+|bad\s+)*(?:bad|sore|aching|playing\s+up|acting\s+up|swollen|stiff|giving\s+out|worse)\b")
ADMIT_CRITERIA: list[tuple[str, re.Pattern[str]]] = [
    ("instruction on assistant behaviour", USER_RULE),
    ("correction of a prior understanding", ERROR_LEARNING),
    ("stable ownership", re.compile(
        words("i've had", "i have had", "we've had", "i own", "we own", "i bought", "we bought", "i've got",
              "i have got", "i got a new", "my car", "my house", "my home", "my apartment", "my dog",
              "my cat", "my pet") + r"|\bi\s+have\s+(?:a|an|two|three|\d+)\s+\w+", _I)),
    ("preference", re.compile(
        r"\bi\s+(?:really\s+|absolutely\s+|also\s+)?(?:love|like|hate|enjoy|adore|prefer|dislike)\b"
        r"(?!\s+(?:that|it|this|you|those|them)\b)|" + words("my favorite", "my favourite", "can't stand",
                                                            "i'm a fan of", "i'm vegetarian", "i'm vegan",
                                                            "i am vegetarian", "i'm allergic", "i am allergic",
                                                            "i don't eat", "i never eat"), _I)),
    ("role or employment", re.compile(
        words("i work", "i'm working", "i worked", "my job", "my boss", "my company", "my team",
              "i joined", "i teach", "i study", "i'm studying", "i volunteer", "my career")
        + r"|\bi(?:'m|\s+am)\s+(?:a|an)\s+(?!bit\b|little\b|lot\b)\w+", _I)),
    ("attribute of someone close", re.compile(
        AGE.pattern + r"|^\s*(?:he|she|they)\s+(?:really\s+)?(?:loves?|likes?|hates?|enjoys?|"
        r"prefers?|plays?|works?|lives?|stud(?:y|ies)|has|have)\b", _I)),
    ("health", re.compile(words("diagnosed", "allergic", "allergy", "asthma", "diabetes", "surgery",
                                "pregnant", "my doctor", "therapy", "therapist", "injury", "injured",
                                "medication") + "|" + SORE_PART, _I)),
    ("location", re.compile(words("i live", "we live", "i moved", "we moved", "moving to", "i'm from",
                                  "i am from", "i grew up", "my hometown", "relocated"), _I)),
    ("major life event", re.compile(
        words("married", "engaged", "divorced", "adopted", "adopting", "graduated", "born", "passed away",
              "died", "retired", "gave birth", "started", "finished", "went to", "visited", "won",
              "lost my", "got a job", "promoted", "transitioned", "broke up", "joined", "signed up",
              "ran a", "completed", "traveled", "travelled"), _I)),
    ("definitive dated plan", re.compile(
        r"(?:\b(?:i'm|i\s+am|we're|we\s+are|i'll|i\s+will|we'll)\s+(?:\w+ing|going\s+to)|"
        r"(?:^|\bi\s+|\bwe\s+)(?:can't|cannot|can\s+not)\s+wait\s+(?:for|to|till|until))\b.*?"
        r"\b(?:next|tomorrow|tonight|in\s+\w+\s+(?:days?|weeks?|months?|years?)|on\s+\w+day|this\s+"
        r"(?:week|weekend|month|year|\w+day))\b", _I)),
    ("request revealing a need", re.compile(
        r"^\s*(?:please\s+)?(?:find|book|search\s+for|look\s+for|recommend|suggest|get)\s+(?:me\s+)?"
        r"(?:a|an|some|the)\s+.+\b(?:with|without|that|near|for)\b", _I)),
]

# Splitting ---------------------------------------------------------------------------------
LEADING_FILLER = re.compile(r"^(?:(?:yeah|yea|yep|yes|well|so|oh|wow|hey|and|but|btw|anyway|also|plus|haha|lol|"
                            r"ok|okay|right|honestly|guess\s+what|you\s+know\s+what|get\s+this)\b[,!.]?\s+)+", _I)


def after_filler(clause: str) -> tuple[str, str]:
    """The clause's leading filler ("yeah so ") and the rest: a word chat dropped is put back after the filler."""
    filler = LEADING_FILLER.match(clause)
    return (clause[: filler.end()], clause[filler.end():]) if filler else ("", clause)


SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s*;\s*|\n+")
# "Mostly Italian food, have you been there?": a statement and the question tagged onto it.
QUESTION_TAIL = re.compile(r",\s+(?=(?:and\s+|so\s+)?(?:have|has|did|do|does|are|were|was|is|what|how|where|when|"
                           r"which|who|would|will|can|could)\s+you\b[^.!?]*\?\s*$)", _I)
# "My dad and I ...", "Maya and I ...": two people opening a clause as one subject (its verb is plural).
PAIR_SUBJECT = re.compile(r"^(?P<pair>\W*(?:(?:my|our)(?:\s+[\w'-]+){1,2}|(?!(?:and|but|so|then|yes|yeah|oh|well|"
                          r"now|ok|okay|no|sure|wow|haha|lol|hey|hi|also|plus|today|yesterday|tonight)\b)(?-i:[A-Z][a-z]+)))"
                          r"\s+and\s+i(?P<tail>['\u2019](?:ve|m|d|ll))?\b", _I)
CLAUSE_JOIN = re.compile(r",?\s+(?:and|but)\s+(?=(?:i|i'm|i've|i'd|i'll|we|we're|we've|my|our)\b)"
                         # a comma splice opening a habit of the speaker's ("right now, I'm always so ...")
                         r"|(?P<splice>,\s+(?=(?:i|i'm|i\s+am)\s+(?:always|usually|often|never)\b))", _I)
# A clause opening with a subordinator ("when I travel, I always ...") is the condition of the clause after its comma.
SUBORDINATE = re.compile(r"^\W*(?:when|whenever|if|because|since|as|while|after|before|once|until|though|although)\b",
                         _I)
# An instruction to remember opens a clause; "I remember going there" is a recollection, not one.
REMEMBER = re.compile(r"(?:^|[,;:]\s*|\s+and\s+|\s+but\s+)(?:please\s+)?(?:also\s+)?remember(?:\s+that)?[\s:,]+",
                      _I)
# "I'm vegetarian, so please remember that when you suggest restaurants": a fact and a rule it sets.
REMEMBER_WHEN = re.compile(r"^(?P<fact>.+?)[,;]?\s+(?:so\s+|and\s+)?(?:please\s+)?(?:remember|keep\s+in\s+mind|"
                           r"bear\s+in\s+mind)\s+(?:that|this|it)\s+(?:when|whenever|if)\s+you\s+(?P<verb>[a-z]+)"
                           r"\s+(?P<obj>[^.!?]+?)\s*[.!]?$", _I)
REQUEST = re.compile(r"^\s*(?:please\s+)?(?:can you\s+)?(?P<verb>find|book|search for|look for|recommend|"
                     r"suggest|get)\s+(?:me\s+)?(?P<obj>.+)$", _I)

# People and relations ------------------------------------------------------------------------
MALE = ("son", "husband", "dad", "father", "brother", "boyfriend", "uncle", "grandpa", "grandfather",
        "nephew", "boy", "stepson", "stepdad")
FEMALE = ("daughter", "wife", "mom", "mother", "sister", "girlfriend", "aunt", "grandma", "grandmother",
          "niece", "girl", "stepdaughter", "stepmom")
NEUTRAL = ("partner", "friend", "child", "kid", "baby", "cousin", "parent", "sibling", "colleague",
           "coworker", "neighbor", "neighbour", "mentor", "roommate")
PLURAL = ("kids", "children", "parents", "friends", "siblings", "grandparents", "cousins", "sons",
          "daughters", "colleagues", "coworkers")
RELATIONS = MALE + FEMALE + NEUTRAL + PLURAL
MUMS = ("mum", "mam", "nan", "gran", "granny")
"""Chat's and British words for a mother or grandmother, which FEMALE spells otherwise: a person's kin and, said bare
("mum's bday thing"), the speaker's own (``named_people``); a role of either's life after a determiner (``roles``)."""
PETS = ("dog", "cat", "puppy", "kitten", "pet", "pets", "dogs", "cats")

# Concept classes: a question about a class matches a line naming a member ("What vehicle" ->
# "Vespa"), and a 'what <class>' question is answered by the member named. One class a line.
CONCEPTS: dict[str, str] = {
    "vehicle": "vehicle vehicles car cars scooter vespa jeep bike bicycle motorbike motorcycle truck van suv "
               "sedan convertible minivan tesla bmw toyota honda ford audi volvo subaru",
    "diet": "diet food vegetarian vegan pescatarian eat eats allergic allergy gluten dairy meat",
    "pet": "pet pets dog dogs cat cats puppy puppies kitten kittens hamster rabbit bunny parrot bird "
           "goldfish turtle guinea pig horse",
    "instrument": "instrument instruments guitar piano violin clarinet drum drums flute saxophone cello "
                  "ukulele trumpet harp keyboard",
    "sport": "sport sports soccer football basketball tennis baseball volleyball golf swimming surfing "
             "cycling climbing skiing snowboarding yoga running hockey",
    "home": "home house apartment flat condo",
}
# Topic families: the words a fact uses for what a question asks in other words ("Where does Maya
# live?" <- "Maya moved to Lisbon"; "What is Kai studying?" <- "Kai started a diploma in design").
# They widen a question's topic like a concept class, but their words are not answers themselves,
# so a 'what <word>' question never answers with a family word.
TOPIC_FAMILIES: dict[str, str] = {
    "residence": "live lives living lived reside resides resident based move moves moved moving relocate "
                 "relocated settle settled home hometown",
    "occupation": "work works worked working job jobs career employer company office profession occupation "
                  "workplace employed hired internship teach teaches taught",
    "study": "study studies studying studied student course courses class classes lesson lessons diploma degree "
             "master masters bachelor phd doctorate university college enrol enroll enrolled major",
    "preference": "like likes love loves enjoy enjoys prefer prefers favourite favorite fan adore adores keen fond "
                  "hobby hobbies pastime",
    "contact": "contact email e-mail mail phone call ring text reach mobile",
}
# A role stated with an agent noun ("is a dentist", "works as a translator") is about work, whatever the job.
ROLE = re.compile(r"\b(?:i'm|i\s+am|is|was|became|works?\s+as|worked\s+as|working\s+as|job\s+as)\s+(?:an?\s+)?"
                  r"(?:[a-z]+\s+)?[a-z]+(?:ist|er|or|ian|ant|eer)\b", _I)
# Phrases where a class member has another sense ('running late', 'a flat tire', 'a great job'):
# they are masked before a line is matched against a class, so they never stand for a member.
OTHER_SENSES = re.compile(
    r"\brunning\s+(?:late|out|low|short|behind|errands|around|away|a|an|the|my|his|her|their|our)\b"
    r"|\bclimbing\s+(?:up\s+)?(?:the\s+)?(?:stairs|steps|ladder)\b"
    r"|\bflat\s+(?:tires?|tyres?|white|screen|rate|fee|out)\b|\bfell\s+flat\b"
    r"|\b(?:computer|laptop|wireless|mechanical)\s+keyboard\b|\bkeyboard\s+(?:shortcuts?|for\s+(?:\w+\s+){0,2}?"
    r"(?:laptop|computer|pc|desk|tablet))\b"
    r"|\b(?:good|great|nice|amazing|awesome|fantastic|excellent|wonderful|brilliant|terrible|bad)\s+job\b"
    r"|\bjob\s+well\s+done\b|\bodd\s+jobs?\b"
    r"|\b(?:did|does|do|didn't|doesn't|don't|won't|will|would|wouldn't|might|may)\s+(?:not\s+)?work\b"
    r"|\bwork(?:s|ed|ing)?\s+out\b|\bworks?\s+of\s+art\b"
    r"|\bearly\s+bird\b|\bdrum(?:s|med|ming)?\s+up\b|\bharp(?:s|ed|ing)?\s+on\b"
    r"|\bhors(?:e|es|ed|ing)\s+around\b|\bpig(?:s|ged|ging)?\s+out\b"
    r"|\bconvertible\s+(?:sofa|couch|bed|crib|table|desk|car\s+seat)s?\b"
    r"|\bhouse\s+(?:music|party|parties|plants?)\b|\bon\s+the\s+house\b|\bbox\s+office\b"
    r"|\b(?:is|are|was|were|be|been)\s+called\b|\b(?:a|an|the|one)(?:\s+[\w-]+){1,3}\s+called\b",
    _I,
)

# Language ------------------------------------------------------------------------------------
_LANG_MARKERS = {
    "en": wordset("the and is i my to of it you that was for with have me we are this"),
    "es": wordset("el los las que y es un una por con para mi yo tengo muy pero su del al está"),
    "fr": wordset("le les des et est une je suis mon ma mes avec pour dans pas j'ai nous très du au"),
    "de": wordset("der die das und ist ich nicht ein eine mit mein meine zu auf für habe bin wir auch"),
}
_LANG_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def detect_language(text: str) -> str:
    """Rough ISO 639-1 code from stopword counts; English unless another language clearly leads."""
    tokens = [t.lower() for t in _LANG_WORD.findall(text)]
    counts = {lang: sum(t in marks for t in tokens) for lang, marks in _LANG_MARKERS.items()}
    best = max(counts, key=lambda lang: counts[lang])
    return best if best != "en" and counts[best] >= 2 and counts[best] > counts["en"] else "en"
