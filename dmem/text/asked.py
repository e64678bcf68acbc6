"""Whether a turn replies to the question the other speaker asked just before it.

Both decision engines judge an utterance together with the question it answers: the question's
turn becomes a source of the facts its reply forms, and a fragment reply ("Yes, twice") is stated
with the question. A turn counts as that question when it asks a real one (not a greeting such as
"How are you?", not a tag such as "..., you know?"; chat that drops the question mark still asks: "whats
the band") and the reply takes it up: it shares a topic
word with the question's turn, opens with a yes or a no to a yes/no question, speaks of the speaker in its
first sentence when the question asks about them ("What do you cook for the twins?" -> "We mostly bake flatbread"),
or (off by default) is at most ``REPLY_MAX_WORDS`` words long. The rules are about the form of chat, never
about a particular conversation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from dmem.text.answers import answer_kind, is_kind_asked
from dmem.text.lexical import content_stems
from dmem.text.verbs import irregular_past
from dmem.text.words import FIRST_PERSON, SECOND_PERSON_ASKED, WH_ANYWHERE, wordset

# A reply of at most this many words, right after a real question, answers it whatever it says. 0 = off: on the
# tuning half (leave one conversation out, 6 / 12 / 20 tried) it linked more replies and formed no evidence turn.
REPLY_MAX_WORDS = 0
# Chat drops the question mark ("what's the band", "ever been to one"): a sentence with no end mark that opens
# as a question and has at least this many words is one. 0 = off (only '?' marks a question). Chosen leaving one
# conversation out on the tuning half counted as written and as a copy without end marks (formation_loco.py
# --unmarked): 4 in three folds of six (the RealTalk ones), 2 in two (3 ties with it), 5 in one.
UNMARKED_MIN_WORDS = 4
_SENTENCE = re.compile(r"(?P<body>[^.!?\n]+)(?P<mark>[.!?]+|\n|$)")
# Lead-ins before a question: greetings, "and", "so", and chat's "also", "but", "ok", "wait", "lol", "omg", "btw" ...,
# each with a name after it or not ("hey Mia, did you ..."). The one room for them: every rule that reads how a
# question opens skips them with ``LEAD_INS`` (``embedded``, ``confirmed``, ``chains``), and the rules that read a
# statement's subject skip ``LEAD_WORDS`` with their own interjections (``markers``, ``embedded``).
LEAD_WORDS = (r"(?:hi|hey|hello|hiya|oh|so|and|also|but|well|anyway|anyways|btw|ok|okay|wait|lol|lmao|omg|ha(?:ha)+|"
              r"um+|hm+|yo|good\s+morning|morning)")
LEAD_INS = rf"(?:{LEAD_WORDS}\b[,!.]?\s*(?:\w+[,!]\s*)?)*"
# Questions that greet or keep the talk going: their reply says how one is, not a fact the question asks for.
_GREETING = re.compile(
    rf"^\s*{LEAD_INS}(?:how\s+(?:are|r)\s+(?:you|u|ya)(?:\s+(?:doing|today|guys|feeling))*"
    r"|how\s+(?:are|r)\s+things|how(?:'s|\s+is)\s+(?:it|everything|life)\s+(?:going|been)?"
    r"|how\s+(?:have|ve)\s+you\s+been|what(?:'s|s|\s+is)\s+up|sup|what(?:'s|\s+is)\s+new"
    r"|how(?:'s|\s+is|\s+was|\s+has)\s+(?:your|ur|the)\s+(?:day|week|weekend|morning|evening|night|afternoon)"
    r"(?:\s+(?:been|going|so\s+far))*"
    r"|(?:you|u)\s+(?:ok|okay|good|there)|are\s+you\s+(?:ok|okay|there|still\s+there))\W*\?+\s*$", re.I)
# A statement with a question mark tagged on: "It's just great, you know?", "Crazy, right?".
_TAG = re.compile(r"(?:^|[,\s])(?:you\s+know|right|isn't\s+it|ain't\s+it|don't\s+you\s+think|huh|eh|no|yeah|"
                  r"really|seriously|lol|haha|too|see)\W*\?+\s*$", re.I)
# An exclamation with a question mark: "How cute is that puppy??", "how cool is that" (not "how old is she").
_EXCLAIMS = re.compile(rf"^\s*{LEAD_INS}how\s+(?!old|long|far|many|much|often|big|tall|late|early|soon|come)[a-z]+\s+"
                       r"(?:is|are|was|were)\s+(?:that|this|those|these)\b", re.I)
# Auxiliaries that open a question (``_W_AUX`` adds chat's "r"), and their negated forms with or without the
# apostrophe: of what was done or is so ("didnt u move"), and of the modals ("won't you", "can't we").
AUXILIARIES = "do|does|did|have|has|had|are|is|was|were|will|would|can|could|should"
NEGATED = r"(?:didn'?t|don'?t|doesn'?t|isn'?t|aren'?t|wasn'?t|weren'?t|haven'?t|hasn'?t)"
NEGATED_MODALS = r"(?:won'?t|can'?t|wouldn'?t|couldn'?t|shouldn'?t)"
_W_AUX = rf"(?:{AUXILIARIES}|r)"
_W_NEG = rf"(?:{NEGATED}|{NEGATED_MODALS})"
_W_SUBJECT = r"(?:you|u|ya|y'all|your|ur|he|she|they|we|it|there|anyone|anybody)"
# A yes/no question: an auxiliary first ("did you", "didnt u"), or a tail offering one answer to confirm after a
# wh-question ("where u living now, still with ur mum", "... or the flat") or alone ("or nah").
_YES_NO_QUESTION = re.compile(rf"^\s*{LEAD_INS}(?:{AUXILIARIES}|ever|any|anything|got|{_W_NEG}\s+{_W_SUBJECT}|"
                              r"r\s+(?:u|you|ya|they|we)|still|or)\b", re.I)
# Verbs after "did the party ..." that make it ask ("did the party go well"), not a dropped "I" ("did the dishes").
_BASE_VERBS = ("go|come|get|like|love|enjoy|work|turn|end|happen|say|call|text|reply|answer|show|arrive|sell|start|"
               "finish|help|make|win|lose|pass|fix|find|hear|see|know|want|need|look|feel|taste|sound|mind|agree|"
               "give|take|send|buy|pay|move|stay|leave|accept|approve|open|close|last|cost|fit|grow|hurt|heal")
# Words after an opening auxiliary that are no subject: "Is very cold here" (a dropped "it", not a question),
# "was kinda still there", "is so getting old".
_W_NOT_SUBJECT = (r"(?:a|an|the|my|our|his|her|their|so|too|very|really|also|just|not|kinda|sorta|pretty|quite|"
                  r"super|always|never|now|still|probably|definitely|totally|literally|actually|only|all|gonna|going|"
                  r"getting|coming|been|being|done|over|back|out|in|on|at|up|off|here|there|fine|ok|okay|good|bad)")
# A wh-word that heads a clause, not a question: a subject and its verb straight after it ("WHAT she gave me a fiver",
# "why he left is a mystery"), or a "which" that goes on from the sentence before ("Which would mean a steady ...").
# Without its mark a wh-question needs an auxiliary ("what did she give you") or a wh-subject ("who is coming"); chat's
# dropped auxiliary before an -ing ("where she going") or after "you" ("what you doing", "what you think") still asks.
# Shorter than ``UNMARKED_MIN_WORDS`` ("what I mean", "who she is") it says too little to be told: left as it was.
_WH_CLAUSE = re.compile(rf"^\s*{LEAD_INS}(?:(?:what|who|whom|why|how|which|whose)\s+(?:i|he|she|we|they|it)\s+"
                       r"(?!(?:r|gonna|going|at|up|not)\b)(?![a-z]+ing\b)[a-z]"
                       r"|which\s+(?:(?:would|will|could|might|should|must)\s+)?(?:mean|means|meant|explains|explained|"
                       r"is\s+why|was\s+why|makes\s+sense|made\s+sense)\b)", re.I)
# A short question chat asks with no mark: "whos mirela", "what breed", "which one", "whens the party" (two or three
# words after its lead-ins; not "what a day", "what if", "who knows", "how cute", nor "whats that", a reaction), and
# an asking word alone or with its measure and one word ("where", "how long", "how long off": after the other's news,
# ``terse_asked`` reads the same; not "how much fun", "how far lol").
_W_ASKING_WORD = re.compile(rf"^\s*{LEAD_INS}(?:(?:where|when|why)"
                            r"|how\s+(?:long|far|much|many|often|old)(?:\s+(?!fun\b|lol\b|haha\w*|lmao\b)[a-z]+)?)"
                            r"\s*$", re.I)
_W_SHORT_QUESTION = re.compile(
    rf"^\s*{LEAD_INS}(?:(?:who|where|when|which|whose)(?:'s|s\b|\s+(?:is|are|r|was|were)\b)"
    r"|what(?:'s|s|\s+is|\s+was)\s+(?!that\b|this\b|it\b|up\b|wrong\b|new\b)\w"
    r"|(?:what|which|whose)\s+(?!a\b|an\b|if\b|about\b|else\b|the\b|ever\b|now\b|happened\b|up\b|for\b)[a-z]+"
    r"(?:\s+(?:one|ones|kind|type|size|colou?r|time|day|brand|model|song|book|show))?\s*$)", re.I)
W_SHORT_MAX_WORDS = 3
# Most words of a question that asks the listener with "you" dropped ("why portuguese?", "favourite town lived in?"):
# a longer one says whom it asks about. Chosen on invented batch 20 (stop 61), as ``terse_asked``'s 4.
W_DROPPED_YOU_MAX_WORDS = 4
# Most words of a reply's opening check of its own before its yes ("the 19th? yes, ..."): a longer question asks.
W_ECHO_MAX_WORDS = 3
# A pronoun of anyone: a question naming one asks about them, not the listener with "you" dropped.
_W_ANYONE = re.compile(r"\b(?:i|me|my|mine|we|us|our|he|she|they|him|her|them|his|hers|their|it|its|this|that|"
                       r"these|those|there)\b", re.I)
# A sentence of lead words alone ("hmm.", "oh!", "well,"): a reply's opening before what it says.
_LEAD_SENTENCE = re.compile(rf"^\s*(?:{LEAD_WORDS}\W*)+?[.!?\n]+\s*", re.I)
# Nouns in -ing, not a verb after "is the ..." ("is the best thing about it", "was the wedding"): closed-class.
_ING_NOUNS = (r"(?:(?:some|any|no|every)?thing|morning|evening|wedding|meeting|building|ceiling|king|ring|spring|"
              r"string|pudding|feeling|painting|clothing|parking|ending|opening|offering|setting|filling|icing|"
              r"lightning|stuffing|seasoning|earring|swing|wing|sibling|darling|duckling|dumpling|sting)")
# How a question opens: a wh-word with a verb after it ("what's", "where did", "how many"), a wh-word with its
# noun ("what games did you", "which one is it"), "who" with a past verb ("who won") or a present one and more
# ("who goes in goal", "who takes the van"; not "who knows", "who cares", "who says", "who needs 10 jars": said
# to shrug), a verb before a
# subject ("did you", "is it", "are they"), "is"/"are" before a named subject and an -ing verb ("is the new guy
# starting this week", h65g), or chat's short forms ("ever been", "got any", "any plans").
_UNMARKED_QUESTION = re.compile(
    rf"^\s*{LEAD_INS}(?:(?:what|where|when|who|which|why|how)(?:'s|'re|'d|'ve|s\b|\s+(?:{_W_AUX}|about|else|kind|"
    r"sort|type|made|makes|got)\b)"
    rf"|(?:what|which|whose|how\s+many|how\s+much)(?:\s+[\w'-]+){{1,3}}?\s+(?:{AUXILIARIES})"
    r"\s+(?:you|u|ya|they|he|she|we|it|i)\b"
    r"|who\s+(?!knows\b|cares\b)[a-z]+(?:ed|ote|ade|on|ew|ang|ought|ave)\b"
    r"|who\s+(?!knows\b|cares\b|says\b|does\b|needs\b)[a-z]+[^s\W]s\s+(?=\w)"
    r"|(?:is|are|was|were)\s+(?:the|his|her|their|our|ur|your)\s+(?:[\w'-]+\s+){0,2}?"
    rf"(?!{_ING_NOUNS}\b)[a-z]{{2,}}ing\b"
    r"|how\s+(?:many|much|long|often|come|far|old)\b"
    r"|what\s+happened\s+(?:to|with|at|in|after|there|next|then)\b"
    r"|(?:did|does|do|will|would|can|could)\s+(?:the|that|this|his|her|their|my|our|ur)\s+(?:[\w'-]+\s+){1,3}?"
    rf"(?:{_BASE_VERBS})\b"
    rf"|(?:{_W_AUX}|{_W_NEG})\s+{_W_SUBJECT}\b"
    r"|(?:didn'?t|doesn'?t|don'?t|hasn'?t|haven'?t|won'?t)\s+(?:the|that|this|ur|your|his|her|their)\s+[a-z]"
    r"|(?:what|where|when|how|why)\s+(?:u|you|ya|they|we)\s+[a-z]+ing\b"
    rf"|{_W_AUX}\s+(?!{_W_NOT_SUBJECT}\b)[a-z][\w'-]*\s+"
    r"(?:still|ever|already|gonna|going|coming|getting|even)\b(?=\s+\w)"
    r"|(?:is|are|was|were|can|could|will|would|should)\s+(?:that|this)\b"
    r"|(?:ever\s+(?!since\b)|got\s+any\s+|any\s+|anything\s+|anyone\s+)\w+)", re.I)
# A sentence that ends on "or" ("should i bring food or", "u coming or"), unless it is a statement's hedge.
_W_OR_TAIL = re.compile(r"\bor(?:\s+(?:nah|no|not))?\W*$", re.I)
_OR_STATEMENT = re.compile(r"^\s*(?:i|i'm|im|we|it|it's|its|that|this)\b", re.I)
# After a comma or 'and' these open a relative clause ("..., which has a garden"), not a question ("who", "where"
# and "when" ask there only with a verb right after them, which a relative clause lacks: "..., where we ate").
_RELATIVE = re.compile(r"^\s*(?:which|whom|whose)\b", re.I)
_YES_NO = re.compile(r"^\W*(?:(?:oh|ah|um+|hm+|well|haha|lol)\W+)?"
                     r"(?:yes|yeah|yea|yep|yup|ya|no|nope|nah|not\s+yet|not\s+really|of\s+course|sure|"
                     r"definitely|absolutely|totally|i\s+(?:did|do|have|am|was|will|didn't|don't|haven't|wasn't)|"
                     r"we\s+(?:did|do|have|are|were|didn't|don't|haven't)|i'm\s+not)\b", re.I)
# What an offer asks: "want to", "fancy", "up for", "need a hand" (its yes accepts, it tells nothing).
OFFER_WORDS = r"want|wanna|fancy|up\s+for|like\s+to|mind|need\s+(?:help|a\s+hand|anything)"
"""The words of an offer, as a regex alternation; ``embedded`` adds those of asking for an opinion."""
_OFFERS = re.compile(rf"\b(?:{OFFER_WORDS})\b", re.I)
_FIRST_SENTENCE = re.compile(r"^[^.!?\n]*")
# Words any chat uses whatever its topic: sharing one is no sign that a reply takes up a question.
_CHAT_STEMS = wordset(
    "good great nice fun love like realli thing time day today week lot much way get got go went make made "
    "think know yeah yes oh well sure thank thanks hope feel look sound tri want need awesom amaz cool wow "
    "hey hi hello right also still even just one someth anyth everyth new"
)


# A reply saying 'he', 'she' or 'they' as a subject, and a question that names someone: a name after its first
# word, 'he', 'she', 'they' or one of theirs ("Is Rui still learning the cello?", "does her brother still ...").
_W_THIRD_PERSON = re.compile(r"\b(?:he|she|they)(?:'s|'re|\s+(?!know\b)[a-z])", re.I)
_W_SOMEONE = re.compile(r"(?<=\w)\s+(?:(?!I\b)[A-Z][a-z]+|he|she|they|his|her|their|him|them)\b")
# Words of a reply fragment that reacts instead of answering: "lol", "idk", "no idea", "same", "wow".
_W_REACTION = re.compile(r"^\W*(?:lo+l|lmf?ao|haha\w*|omg|wow|ok(?:ay)?|idk|dunno|no\s+idea|not\s+sure|same|"
                         r"me\s+too|nice|cool|sure|yes|yeah|ya|no|nope|nah|hm+|um+|good\s+question|sorry|brb|"
                         r"one\s+sec)\b", re.I)
# Words of a reply short enough to be a fragment answering a short question.
W_FRAGMENT_MAX_WORDS = 4
# Most words of a hedged answer written as a question ("probably sushi?", "lisbon maybe?"), hedge included: a longer
# line with a mark asks. Chosen on invented batches 19-20 (stop 61), as ``W_FRAGMENT_MAX_WORDS``.
W_HEDGED_MAX_WORDS = 4
# A hedge ("probably", "maybe"): what a hedged answer or a guess says; ``listener_facts`` leaves a guess out by it.
HEDGE = re.compile(r"\b(?:probably|prob|probs|maybe|perhaps|possibly)\b", re.I)


def wh_clause(sentence: str) -> bool:
    """Whether a sentence opening with a wh-word is a statement: its own subject and verb follow straight.

    "WHAT she gave me a fiver", "which would mean a steady wage"; not "what time works for you", "who is coming".
    """
    return len(sentence.split()) >= UNMARKED_MIN_WORDS and bool(_WH_CLAUSE.match(sentence))


def question_sentences(turn: str, bare: bool = True) -> list[str]:
    """Every sentence of a turn that asks, stripped and ending with one '?', in order.

    A sentence asks when it ends with a question mark, or (chat often drops the mark) ends with no mark
    at all and opens as a question does (``UNMARKED_MIN_WORDS``). ``bare``: an asking word alone with no mark
    ("where", "how long off") asks too; the reader of a reply's answer leaves it to ``terse_asked``'s checks.
    """
    found = []
    for m in _SENTENCE.finditer(turn):
        sentence, mark = m["body"].strip(), m["mark"]
        if mark.startswith("?") or (not mark.strip() and (_unmarked_question(sentence)
                                                          or bare and bool(_W_ASKING_WORD.match(sentence)))):
            found.append(f"{sentence}?")
    return found


def asks(text: str) -> bool:
    """Whether a text asks: it ends with '?', or one of its sentences asks (``question_sentences``)."""
    return text.rstrip().endswith("?") or bool(question_sentences(text))


def ends_asking(text: str) -> bool:
    """Whether a text's last sentence asks, with its mark or without ("...so when's the gig", "Yes! Where?")."""
    last = [m[0] for m in _SENTENCE.finditer(text.rstrip()) if m["body"].strip()]
    return bool(last) and bool(question_sentences(last[-1]))


def _unmarked_question(sentence: str) -> bool:
    """Whether a sentence with no end mark opens as a question, or its part after its last comma or 'and' does.

    "whats the band called", "sounds familiar, what is it called"; not "what a morning", "how cool is that".
    """
    if not UNMARKED_MIN_WORDS or wh_clause(sentence):
        return False
    parts = [p for p in (sentence.rsplit(",", 1)[-1], re.split(r"\s+and\s+", sentence)[-1]) if not _RELATIVE.match(p)]
    if _W_SHORT_QUESTION.match(sentence) and len(sentence.split()) <= W_SHORT_MAX_WORDS + 2:
        return True
    if len(sentence.split()) >= 3 and _W_OR_TAIL.search(sentence) and not _OR_STATEMENT.match(sentence):
        return True  # "should i bring food or": an alternative left open
    return any(len(part.split()) >= UNMARKED_MIN_WORDS and _UNMARKED_QUESTION.match(part)
               for part in [sentence, *parts])


def real_questions(turn: str) -> list[str]:
    """The question sentences of a turn that ask something: greetings, tag questions and exclamations left out."""
    found = question_sentences(turn)
    return [q for q in found if q.strip(" ?") and not _GREETING.match(q) and not _TAG.search(q)
            and not _EXCLAIMS.match(q)]


def topic_stems(text: str, names: Iterable[str] = ()) -> set[str]:
    """Content stems that say what a turn is about: no names of the people talking, no chat fillers."""
    skip = {s for n in names for s in content_stems(n)}
    return {s for s in content_stems(text) if s not in skip and s not in _CHAT_STEMS and not s.isdigit()}


def opens_yes_no(reply: str) -> bool:
    """Whether a reply opens with a yes or a no ('Yeah, ...', 'Nope', 'I did ...')."""
    return bool(_YES_NO.match(reply))


def asks_yes_no(question: str) -> bool:
    """Whether a question asks for a yes or a no.

    An auxiliary first, a tail to confirm ('..., still the cafe'), or an elliptical check (``elliptical_check``), of
    the whole or of its tail after a comma ('whose wedding again, your cousin Merrit's?').
    """
    tail = question.rsplit(",", 1)[-1]
    return bool(_YES_NO_QUESTION.match(question) or _YES_NO_QUESTION.match(tail)) or elliptical_check(question) \
        or (tail != question and elliptical_check(tail))  # "whose wedding again, your cousin Merrit's?"


def elliptical_check(question: str) -> bool:
    """A question with no wh-word anywhere and a topic of its own: it checks a yes or a no ('the blue one?').

    Not one turning the question back ("and you?"): a topic word is needed besides the people; nor an offer
    ("want to call later?"), whose yes accepts it and tells nothing.
    """
    body = question.strip(" ?!.")
    return bool(body) and not WH_ANYWHERE.search(body) and not _OFFERS.search(body) \
        and bool(topic_stems(SECOND_PERSON_ASKED.sub(" ", body)))


def reply_answers(question_turn: str, reply: str, names: Iterable[str] = (), right_after: bool = True) -> bool:
    """Whether ``reply`` answers a real question of ``question_turn`` (said just before, by the other speaker).

    ``names`` are the speakers' names (a vocative shares no topic). ``right_after``: nothing was said between them;
    only then does a reply about its speaker answer a question that dropped "you" ("why portuguese?": a message in
    between, "same time!", answered it).
    """
    questions = real_questions(question_turn)
    if not questions or not reply.strip():
        return False
    if reply.rstrip().endswith("?") and len(reply.split()) <= 4:
        return hedged_answer(question_turn, reply)  # "why?", "and you?" ask back; "probably sushi?" answers
    names = list(names)
    if len(reply.split()) <= REPLY_MAX_WORDS:
        return True
    if any(asks_yes_no(q) for q in questions) and (_YES_NO.match(reply) or _YES_NO.match(_past_echo(reply))):
        return True  # "the 19th? yes, i'm free then": the yes after the reply's own check answers
    first = _FIRST_SENTENCE.match(_without_lead(reply.strip()))  # "hmm. I think I'd say Tarbury": past the "hmm"
    asks_listener = any(SECOND_PERSON_ASKED.search(q) for q in questions) \
        or right_after and all(_you_dropped(q) for q in questions)
    if asks_listener and first \
            and (FIRST_PERSON.search(first[0]) or _subject_dropped(first[0])):
        return True
    if first and (_third_person_answer(questions, first[0])
                  or "?" not in question_turn and _fragment_answer(questions, first[0], names)):
        return True
    return bool(topic_stems(question_turn, names) & topic_stems(reply, names))


def hedged_answer(question_turn: str, reply: str) -> bool:
    """Whether ``reply`` is a hedged answer written as a question to the question of ``question_turn`` before it.

    "probably sushi?" after "favourite food?", "lisbon maybe?" after "where would you move?": one short sentence
    (``W_HEDGED_MAX_WORDS``) with a hedge and a topic word besides it, after a question to the listener that asks for
    more than a yes or a no (or offers two: "tea or coffee?"). Not a question asked back: no wh-word and no "you"
    ("and you?", "why?"), not a reaction ("no idea?", "idk maybe?"), not the hedge alone ("maybe?").
    """
    said = _without_lead(reply.strip())
    if not said.endswith("?") or len(question_sentences(said)) != 1 or len(said.split()) > W_HEDGED_MAX_WORDS:
        return False
    rest = HEDGE.sub(" ", said).strip(" ?!.,")
    if rest == said.strip(" ?!.,") or WH_ANYWHERE.search(said) or SECOND_PERSON_ASKED.search(said) \
            or _W_REACTION.match(rest) or not topic_stems(rest):
        return False
    return any((SECOND_PERSON_ASKED.search(q) or _you_dropped(q)) and _asks_more(q, rest)
               for q in real_questions(question_turn))


def _asks_more(question: str, answer: str) -> bool:
    """Whether a question asks for more than a yes or a no, so a hedged value answers it.

    A wh-question, one offering two ("tea or coffee?"), or a short one with its asking words dropped ("favourite
    food?") that the answer does not echo ("antwerp?" -> "maybe antwerp?" is a hedged yes, ``confirmed``'s).
    """
    if not asks_yes_no(question) or re.search(r"\bor\b", question):
        return True
    tail = question.rsplit(",", 1)[-1]
    return not (_YES_NO_QUESTION.match(question) or _YES_NO_QUESTION.match(tail)) \
        and not topic_stems(question) & topic_stems(answer)


def _without_lead(reply: str) -> str:
    """The reply past its opening sentences of lead words alone ("hmm.", "oh!", "well..."): what it says."""
    while (m := _LEAD_SENTENCE.match(reply)) and m.end() < len(reply):
        reply = reply[m.end():]
    return reply


def _past_echo(reply: str) -> str:
    """The reply past an opening check of its own ("the 19th? yes, i'm free then" -> "yes, i'm free then"), else ''.

    The check is one short sentence (``W_ECHO_MAX_WORDS``) that asks a yes or a no of a topic word of its own
    (``elliptical_check``: no wh-word, no "you"): the replier repeats what they confirm, then confirms it.
    """
    first = re.match(r"\s*([^.!?\n]+\?+)\s*(.+)", reply, re.S)
    if first is None or len(first[1].split()) > W_ECHO_MAX_WORDS or SECOND_PERSON_ASKED.search(first[1]) \
            or not elliptical_check(first[1]):
        return ""
    return first[2]


def _you_dropped(question: str) -> bool:
    """A short question naming no one, asked of the listener with "you" dropped ("why portuguese?", "favourite food?").

    At most ``W_DROPPED_YOU_MAX_WORDS`` words, no pronoun of anyone and no name after its first word: chat asks the
    listener so ("how long?" after their news is ``terse_asked``'s and ``followup``'s too), and a reply right after
    that speaks of its speaker answers it ("my brother married a girl from Braga" gives the reason asked).
    """
    words = question.strip(" ?!.").split()
    return 0 < len(words) <= W_DROPPED_YOU_MAX_WORDS and not _W_ANYONE.search(question) \
        and not _W_SOMEONE.search(question) and not _GREETING.match(question)


def _subject_dropped(first: str) -> bool:
    """Whether a reply opens with a past verb, its "I" dropped ('went to the sea caves', 'finished it friday').

    Asked about themselves ("what did you get up to?"), the replier answers of themselves without saying "I".
    """
    word = m[1] if (m := re.match(r"^\W*([a-z]+)", first.lower())) else ""
    return irregular_past(word) or (word.endswith("ed") and len(word) > 4 and not word.endswith("eed"))


def _third_person_answer(questions: Sequence[str], first: str) -> bool:
    """A question about someone else answered with 'he', 'she' or 'they' as a subject, not one about the listener.

    "Is Dana still in the hospital?" -> "She went home yesterday", "Is Rui still learning the cello?" ->
    "Stopped in May, he's doing drums now".
    """
    return bool(_W_THIRD_PERSON.search(first)) \
        and any(not SECOND_PERSON_ASKED.search(q) and _W_SOMEONE.search(q) for q in questions)


def _fragment_answer(questions: Sequence[str], first: str, names: Sequence[str]) -> bool:
    """A short question chat asked without its mark, answered with a short phrase that asks nothing.

    "whos mirela" -> "my cousin lol", "u driving or" -> "train prob", "why" -> "to show her nan": the phrase names
    something, not only a reaction, and is of the kind asked when the question asks for a kind (a time for "when", a
    place for "where"; an asking word alone with a kind is left to ``crossed``'s far rule, which hears the replier's
    own value in between).
    """
    short = [q for q in questions if len(q.split()) <= W_SHORT_MAX_WORDS + 2
             and (_W_SHORT_QUESTION.match(q.rstrip("?")) or _W_OR_TAIL.search(q.rstrip("?"))
                  or _W_ASKING_WORD.match(q.rstrip("?")) and answer_kind(q) is None)]  # "why"; a kind is ``crossed``'s
    return bool(short) and len(first.split()) <= W_FRAGMENT_MAX_WORDS and not asks(first) \
        and not _W_REACTION.match(first) and bool(topic_stems(first, names)) \
        and all(answer_kind(q) is None or is_kind_asked(q, first) for q in short)
