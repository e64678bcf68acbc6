"""Special categories of personal data, and precise birth dates.

The categories: health, sex life and orientation, religion, finances, ethnicity, political views
and union membership, biometrics and genetics, criminal records, immigration status.

Lexicons name conditions, identities and practices, not neighbouring everyday words: 'a nurse' or
'the race on Sunday' are not flagged, 'diagnosed with asthma' or 'is of Korean descent' are.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dmem.privacy.numbers import Clues

Found = tuple[str, int, int]
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_DATE = (rf"(?:{_DAY}\s+(?:of\s+)?{_MONTH}|{_MONTH}\.?\s+{_DAY}|\d{{4}}-\d{{2}}-\d{{2}}"
         rf"|\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{2,4}})")


def _words(*items: str) -> str:
    return r"\b(?:" + "|".join(i.replace(" ", r"\s+") for i in items) + r")\b"


_LEXICONS: list[tuple[str, re.Pattern[str]]] = [
    ("health", re.compile(_words(
        r"diagnos\w*", "disease", "disorder", "syndrome", "illness", r"chronic(?:ally)? ill", "cancer", r"tumou?rs?",
        r"chemo(?:therapy)?", "radiation therapy", "diabetes", "diabetic", "insulin", "asthma", r"epilep\w*",
        "seizures?", "migraines?", "arthritis", "hiv", "hepatitis", "depression", "depressed", "anxiety",
        "panic attacks?", "bipolar", r"schizophreni\w*", "adhd", "autism", "autistic", "ptsd", "ocd",
        r"anorexi\w*", r"bulimi\w*", "therapist", "therapy sessions?", "psychiatrist", "antidepressants?",
        "medications?", "prescriptions?", "prescribed", "pregnant", "pregnancy", "miscarriage", "ivf",
        "fertility", "surgery", r"hospitali[sz]ed", "in the hospital", "admitted to (?:the )?hospital",
        "emergency room", "blood pressure", "cholesterol", "allerg(?:y|ies|ic)", r"disabilit(?:y|ies)",
        "(?:is|am|are|was|became) disabled", "wheelchair", "rehab", "addiction", "addicted",
        r"alcoholi(?:c|sm)", "sobriety",
        "sober", "dementia", "alzheimer'?s", "parkinson'?s", "heart attack", "concussion", "mental health",
        r"counsel(?:l)?ing", "physical therapy", "dialysis", "transplant", "biopsy", "(?-i:STDs?|STIs?)",
        r"tested positive", "broke (?:her|his|my|their) (?:arm|leg|wrist|ankle|hip|back)"), re.I)),
    ("sexual orientation or gender identity", re.compile(_words(
        "gay", "lesbian", "bisexual", "queer", "pansexual", "asexual", "homosexual", "heterosexual", r"lgbt\w*",
        "transgender", r"trans (?:woman|man|person)", "non-?binary", "genderqueer", "gender identity",
        "sexual orientation", "sexuality", "same-sex", "sex life", "came out (?:as|to)", "coming out (?:as|to)"),
        re.I)),
    ("religion", re.compile(_words(
        r"Christian(?:s|ity)?", r"Catholic(?:s|ism)?", "Protestant", "Evangelical", "Baptist", "Methodist",
        "Lutheran", r"Muslims?", "Islam", "Islamic", "Jewish", "Judaism", "Jews?", r"Hindus?", "Hinduism",
        r"Buddhists?", "Buddhism", r"Sikhs?", "Sikhism", r"Mormons?", "Jehovah's Witness(?:es)?", "Quaker",
        "Amish", "Wiccan", r"Scientolog\w*", "Taoist", "Shinto", "Ramadan", "Yom Kippur", "Passover", "Eid",
        "Lent", "Diwali", "Quran", "Koran", "Torah", "Bible study", "bar mitzvah", "bat mitzvah",
        r"[Aa]theists?", r"[Aa]gnostic", r"[Bb]apti[sz]ed", "kosher", "halal", "prays", "praying", "prayer",
        r"(?:goes|go|went|attends?|attended) (?:to )?(?:church|mass|mosque|synagogue|temple|gurdwara)",
        "converted to", "rabbi", "imam", "pastor", "priest", "religion", "religious", "faith community")),
     ),
    ("addiction or recovery", re.compile(_words(
        "alcoholics anonymous", "narcotics anonymous", "gamblers anonymous", "cocaine anonymous", "al-anon",
        "alateen", r"(?-i:AA|NA|GA) (?:meetings?|group|sponsor|chip)", "twelve-step", "12-step", "smart recovery",
        "in recovery", r"relaps\w*", "detox", "methadone", "suboxone", r"opioids?", "heroin", "cocaine",
        r"meth(?:amphetamine)?", "overdosed?", "sober living", r"(?:days?|weeks?|months?|years?) (?:clean|sober)",
        r"clean (?:for|since) \w+", "my sponsor", "gambling (?:problem|addiction|habit)", "problem gambling",
        "drinking problem", "(?:quit|stopped) drinking", "rehab"), re.I)),
    ("finances", re.compile(_words(
        "salary", "income", r"earns? \$?\d[\d,.]*\w*", r"makes \$\d[\d,.]*\w*", "wages?", "paycheck", "debts?",
        "in debt", "loans?", "mortgage",
        r"ow(?:e|ed|ing)\s+(?:[\w']+\s+){0,3}?(?:[$£€]\s?\d[\d,.]*\w*|\d[\d,.]*\s*(?:k|dollars|euros|pounds|grand|thousand)|money|"
        r"rent|back taxes)",
        r"behind on (?:(?:my|the|our|her|his|their) )?(?:rent|payments?|mortgage|bills|car payments?)",
        "maxed out", "debt collectors?", "collections agency", "sent to collections", "in arrears", "overdue bills",
        "defaulted on", "repossessed", "payday loan", "evicted", "credit card balance", "borrowed \\$?\\d[\\d,.]*\\w*",
        r"bankrupt\w*", "credit score", "net worth", "savings", "bank balance",
        "account balance", "owes", "overdraft", "tax returns?", "inheritance", "alimony", "child support",
        r"401\(k\)", "pension", "investments?", "stock portfolio",
        "financial (?:trouble|problems|difficulties|situation)",
        "unemployed", "laid off", "lost (?:her|his|my|their) job", "welfare", "food stamps",
        r"\$\d[\d,.]*\s*(?:k|K|thousand|million)?\s*(?:a|per|each) (?:year|month|week|hour)",
        r"\d[\d,.]*\s*(?:k|thousand|million)?\s*(?:dollars|euros|pounds|francs|kroner|yen|rupees)\s*(?:a|per|each) "
        r"(?:year|month|week|hour)", "take-home pay", r"(?:my|her|his|their|our) (?:pay|paycheque|pay cheque)"), re.I)),
    ("ethnicity", re.compile(_words(
        "ethnicity", "ethnic (?:background|origin|group|minority)", "racial", "ancestry", r"Hispanic",
        r"Latin[oax]", "African[- ]American",
        "Asian[- ]American", "Native American", "Indigenous", "Aboriginal", "biracial", "multiracial",
        "mixed[- ]race", "Caucasian", r"Black (?:woman|man|person|people|family|community)",
        r"(?:person|people|woman|man) of colou?r", "Romani",
        r"(?:of|has) [A-Z][a-z]+(?:[- ][A-Z][a-z]+)? (?:descent|heritage|ancestry|origin)"))),
    ("political views", re.compile(_words(
        "Democrats?", "Democratic Party", "Republicans?", "Republican Party", "Labour", "Tory", "Tories",
        "Conservative Party", "Green Party", "Liberal Democrats?", "GOP",
        "(?:votes?|voted|voting) (?:for|against) (?:the )?[A-Z]\\w+", "political views", "politically",
        r"(?:is|am|are|as|identifies as) an? (?:liberal|conservative|progressive|socialist|communist|libertarian|"
        r"anarchist|nationalist|feminist)", "left-wing", "right-wing", "campaigned for", "protested against",
        "union member", "trade union", "joined the union", "party member", "member of the [A-Z]\\w+ Party"))),
    ("biometric or genetic data", re.compile(_words(
        "fingerprints?", "iris scan", "retina scan", "voiceprint", "voice print", "palm print",
        "facial recognition", "dna", "genetic tests?", "genetic testing", "genome", "23andme", "ancestrydna",
        "brca", "genetic predisposition", "blood type", "biometrics?"), re.I)),
    ("criminal record", re.compile(_words(
        "arrested", "convicted", "criminal record", "on probation", "on parole", "served time", "in prison",
        "in jail", "felony", "misdemeanou?r", "pleaded guilty", "dui"), re.I)),
    ("immigration status", re.compile(_words(
        "immigration status", "undocumented", "visa status", "green card", "asylum", "refugee", "deported",
        "work permit", "residence permit"), re.I)),
    ("date of birth", re.compile(
        rf"\b(?:(?:date of birth|d\.?o\.?b\.?|birth ?date)(?:\s*(?:is|was|:)\s*(?:the\s+)?{_DATE}(?:,?\s+\d{{4}})?)?"
        rf"|born (?:on )?(?:the )?{_DATE}(?:,?\s+\d{{4}})?|born in (?:\d{{4}}|{_MONTH})"
        rf"|birthday is (?:on )?(?:the )?{_DATE}|birth ?date)\b", re.I)),
]


def find(c: Clues) -> Iterator[Found]:
    """Every special-category mention in a prepared text, as (kind, start, end)."""
    for kind, pattern in _LEXICONS:
        for m in pattern.finditer(c.text):
            yield kind, m.start(), m.end()
