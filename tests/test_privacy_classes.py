"""The detector's broader classes, each with invented examples, and public look-alikes it must leave alone.

Codes written with separators, credentials introduced by 'with password' and the like, debts,
answers to security questions, recovery and addiction groups, and a deployment's own terms and
patterns (the ``privacy_terms`` / ``privacy_patterns`` settings).
"""

from __future__ import annotations

from typing import Any

import pytest

from dmem.errors import ConfigError
from dmem.privacy.detect import detect, personal_kinds, secret_values
from dmem.privacy.redact import TraceRedactor
from dmem.state.context import Context, build_context
from dmem.state.privacy_terms import vocabulary
from dmem.state.schemas import Scope
from dmem.testing import FakeChatModel
from tests.collector import Collector

CLASSES: list[tuple[str, str, str]] = [
    # codes written with separators
    ("The code for the shed padlock is 38-16.", "PIN or code", "38-16"),
    ("Our gate code is 5.5.0.2, press hash after.", "PIN or code", "5.5.0.2"),
    ("The safe in the hallway opens with the combination 3-9-1-7.", "PIN or code", "3-9-1-7"),
    ("The alarm code at the studio is 7 dash 3 dash 9 dash 1.", "PIN or code", "7 dash 3 dash 9 dash 1"),
    # credentials introduced by 'with password', 'passcode', ...
    ("I log into the school portal with password quillfeather9.", "password or key", "quillfeather9"),
    ("I protected the archive using the passcode 8812.", "password or key", "8812"),
    ("Yesterday I set my password to bluefinch77.", "password or key", "bluefinch77"),
    ("Unlock the tablet with PIN 6390 if it asks.", "PIN or code", "6390"),
    # debts
    ("I still owe my cousin 4,000 dollars from the wedding.", "finances", ""),
    ("We are three months behind on rent.", "finances", ""),
    ("I maxed out two store cards over the holidays.", "finances", ""),
    ("A debt collector keeps calling about the old gym contract.", "finances", ""),
    # answers to security questions
    ("My mother's maiden name is Okonjo.", "security answer", "Okonjo"),
    ("The answer to my security question is Pemberley.", "security answer", "Pemberley"),
    ("My childhood nickname was Sprocket.", "security answer", "Sprocket"),
    ("The street I grew up on was Alder Row.", "security answer", "Alder Row"),
    # recovery and addiction groups
    ("I go to Narcotics Anonymous on Wednesday nights.", "addiction or recovery", ""),
    ("My AA sponsor called me after the party.", "addiction or recovery", ""),
    ("I have been 200 days clean as of today.", "addiction or recovery", ""),
    ("My brother joined Gamblers Anonymous in March.", "addiction or recovery", ""),
]

PUBLIC = [
    "The server answered with error code 503.",
    "The dress code for the gala is black tie.",
    "Use the discount code at checkout for ten percent off.",
    "I owe you one for driving me to the station.",
    "The password manager syncs across my devices.",
    "She reset the router with a paperclip.",
    "My first concert was loud and wonderful.",
    "The recovery of the housing market was slow.",
    "The book club meets every second Thursday.",
    "The team scored 3-1 in the final.",
    "The museum code of conduct asks for quiet.",
    "We set the table for twelve guests.",
]


@pytest.mark.parametrize(("sentence", "kind", "value"), CLASSES)
def test_each_class_is_detected(sentence: str, kind: str, value: str) -> None:
    assert kind in personal_kinds(sentence), detect(sentence)
    if value:
        assert value in secret_values(sentence)


@pytest.mark.parametrize("sentence", PUBLIC)
def test_public_look_alikes_are_not_flagged(sentence: str) -> None:
    assert detect(sentence) == []


def test_a_deployment_adds_terms_and_patterns() -> None:
    extra = vocabulary(("Larkspur Clinic", "Project Nightjar"), (r"\bEMP-\d{6}\b",))
    text = "I had an appointment at the larkspur  clinic; my badge is EMP-204481."
    assert detect(text) == []
    found = detect(text, extra)
    assert [d.kind for d in found] == ["deployment term", "deployment pattern"]
    assert secret_values(text, extra) == ["larkspur  clinic", "EMP-204481"]
    assert detect("The Larkspur Clinical trial", extra) == []  # whole words only


def test_the_settings_reach_scope_and_trace_redaction(fake: FakeChatModel, memory_factory: Any,
                                                      langsmith_collector: Collector) -> None:
    mem = memory_factory(fake, privacy_terms=["Project Nightjar"], privacy_patterns=[r"EMP-\d{6}"])
    mem.add([{"speaker": "Ines", "text": "I was moved onto Project Nightjar this week."},
             {"speaker": "Ines", "text": "My staff number is EMP-204481."}], user_id="ines", exchange_size=1)
    stored = mem.get_all(user_id="ines")
    assert len(stored) == 2 and {m.scope for m in stored} == {Scope.USER_PII}
    client = mem.tracing.client("pii")  # the client this memory traces through, at the loopback collector
    assert client.api_url == langsmith_collector.url
    redactor = client._anonymizer
    assert redactor is not None and "Nightjar" not in str(redactor({"text": "Project Nightjar ships soon"}))


def test_settings_accept_lists_and_environment_text() -> None:
    ctx = build_context(environ={"DMEM_PRIVACY_TERMS": "Larkspur Clinic; Project Nightjar"})
    assert ctx.privacy_terms == ("Larkspur Clinic", "Project Nightjar")
    with pytest.raises(ConfigError, match="privacy_patterns"):
        Context(privacy_patterns=["(unclosed"])
    with pytest.raises(ConfigError, match="empty string"):
        Context(privacy_patterns=["x*"])
    with pytest.raises(ConfigError, match="privacy_terms"):
        Context(privacy_terms=[1, 2])


def test_redactor_scrubs_a_deployment_pattern_value_everywhere() -> None:
    redactor = TraceRedactor("pii", extra=vocabulary((), (r"EMP-\d{6}",)))
    redactor({"text": "my badge EMP-204481"})
    assert "204481" not in str(redactor({"reply": "badge EMP 204481 noted"}))


@pytest.mark.parametrize(("sentence", "value"), [
    ("The shared drive uses the password copper-kettle-58.", "copper-kettle-58"),
    ("My seed phrase begins with 'amber lantern delta'.", "amber lantern delta"),
    ("The login code the bank sent me was 604 117.", "604 117"),
    ("The bike lock in the garage is set to 9-0-4-4.", "9-0-4-4"),
    ("My best childhood friend was called Wicket.", "Wicket"),
    ("My date of birth is 11/02/1983.", "11/02/1983"),
])
def test_more_ways_of_giving_a_secret(sentence: str, value: str) -> None:
    assert detect(sentence), sentence
    assert value in secret_values(sentence)


def test_pay_per_month_is_finances() -> None:
    assert "finances" in personal_kinds("After tax my pay is 2,750 pounds a month.")


def test_a_special_category_sentence_gives_its_content_words_a_list_of_categories_does_not() -> None:
    values = secret_values("My cardiologist found a PFO murmur during the checkup and started me on medication.")
    assert "PFO" in values and "murmur" in values
    listing = "Personal data: health, religion, sexual orientation, ethnicity and criminal records are sensitive."
    assert detect(listing) and secret_values(listing) == []


def test_a_rewrite_of_a_special_category_sentence_is_scrubbed() -> None:
    redactor = TraceRedactor("pii")
    redactor({"text": "I was diagnosed with Kallmann syndrome as a teenager."})
    assert "Kallmann" not in str(redactor({"facts": '[{"text": "Ines noted Kallmann"}]'}))


def test_a_value_is_found_again_however_it_is_separated() -> None:
    redactor = TraceRedactor("pii")
    redactor({"text": "My passport number is K4471-90218."})
    assert "90218" not in str(redactor({"reply": "K 4471 90218"}))
    redactor({"text": "Write to me at ines (at) quillmoor (dot) net."})
    assert "quillmoor" not in str(redactor({"reply": "the quillmoor domain"}))
