"""Deterministic deictic grounding: a table of exact outputs, idempotency, and place deixis."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from dmem.grounding.deixis import absolute_dates, ground_place, ground_time

MON = datetime(2023, 5, 8, 13, 56)  # Monday 8 May 2023, the paper's LoCoMo example
JAN31 = datetime(2023, 1, 31, 9, 0)  # Tuesday, month end
JAN15 = datetime(2023, 1, 15, 9, 0)  # Sunday, first month of a year
LEAP_MAR1 = datetime(2024, 3, 1, 8, 0)  # Friday after a leap day
LEAP_FEB28 = datetime(2024, 2, 28, 8, 0)
PLAIN_FEB28 = datetime(2023, 2, 28, 8, 0)
NYE = datetime(2023, 12, 31, 20, 0)  # Sunday, last day of a year
NEW_YEAR = datetime(2024, 1, 1, 10, 0)  # Monday
DEC15 = datetime(2023, 12, 15, 10, 0)
LEAP_DAY = datetime(2024, 2, 29, 10, 0)

CASES = [
    # (text, anchor, grounded text, event date)
    ("I went to a sourdough baking workshop yesterday", MON,
     "I went to a sourdough baking workshop on 7 May 2023", date(2023, 5, 7)),
    ("Yesterday I went to the beach", MON, "On 7 May 2023 I went to the beach", date(2023, 5, 7)),
    ("Yesterday was fun", MON, "7 May 2023 was fun", date(2023, 5, 7)),
    ("I'm free today", MON, "I'm free on 8 May 2023", date(2023, 5, 8)),
    ("Let's meet tonight", MON, "Let's meet on the night of 8 May 2023", date(2023, 5, 8)),
    ("I ran this morning", MON, "I ran on the morning of 8 May 2023", date(2023, 5, 8)),
    ("I have a meeting this afternoon", MON, "I have a meeting on the afternoon of 8 May 2023", date(2023, 5, 8)),
    ("We ate out this evening", MON, "We ate out on the evening of 8 May 2023", date(2023, 5, 8)),
    ("I slept badly last night", MON, "I slept badly on the night of 7 May 2023", date(2023, 5, 7)),
    ("I called her yesterday morning", MON, "I called her on the morning of 7 May 2023", date(2023, 5, 7)),
    ("I arrived the day before yesterday", MON, "I arrived on 6 May 2023", date(2023, 5, 6)),
    ("I fly out tomorrow", MON, "I fly out on 9 May 2023", date(2023, 5, 9)),
    ("She leaves the day after tomorrow", MON, "She leaves on 10 May 2023", date(2023, 5, 10)),
    ("pacemaker fitted day after tomorrow", MON, "pacemaker fitted on 10 May 2023", date(2023, 5, 10)),
    ("she got home day before yesterday", MON, "she got home on 6 May 2023", date(2023, 5, 6)),
    ("I was sick last week", MON, "I was sick in the week of 1 May 2023", date(2023, 5, 1)),
    ("I was sick LAST WEEK", MON, "I was sick in the week of 1 May 2023", date(2023, 5, 1)),
    ("I'm busy this week", MON, "I'm busy in the week of 8 May 2023", date(2023, 5, 8)),
    ("I'm going to Paris next week", MON, "I'm going to Paris in the week of 15 May 2023", date(2023, 5, 15)),
    ("I moved last month", MON, "I moved in April 2023", date(2023, 4, 1)),
    ("It rained a lot this month", MON, "It rained a lot in May 2023", date(2023, 5, 1)),
    ("I'm switching to Android next month.", MON, "I'm switching to Android in June 2023.", date(2023, 6, 1)),
    ("I graduated last year", MON, "I graduated in 2022", date(2022, 1, 1)),
    ("Last year was hard", MON, "2022 was hard", date(2022, 1, 1)),
    ("I ran a marathon this year", MON, "I ran a marathon in 2023", date(2023, 1, 1)),
    ("I retire next year", MON, "I retire in 2024", date(2024, 1, 1)),
    ("We camped last weekend", MON, "We camped on the weekend of 6 May 2023", date(2023, 5, 6)),
    ("We camp this weekend", MON, "We camp on the weekend of 13 May 2023", date(2023, 5, 13)),
    ("We camp next weekend", MON, "We camp on the weekend of 20 May 2023", date(2023, 5, 20)),
    ("I got it 3 days ago", MON, "I got it on 5 May 2023", date(2023, 5, 5)),
    ("I started two weeks ago", MON, "I started in the week of 24 April 2023", date(2023, 4, 24)),
    ("I adopted him six months ago", MON, "I adopted him in November 2022", date(2022, 11, 1)),
    ("I moved here a year ago", MON, "I moved here in 2022", date(2022, 1, 1)),
    ("I saw it a couple of days ago", MON, "I saw it on 6 May 2023", date(2023, 5, 6)),
    ("I left twelve days ago", MON, "I left on 26 April 2023", date(2023, 4, 26)),
    ("The results come in 3 days", MON, "The results come on 11 May 2023", date(2023, 5, 11)),
    ("I start in two weeks", MON, "I start in the week of 22 May 2023", date(2023, 5, 22)),
    ("We move in a month", MON, "We move in June 2023", date(2023, 6, 1)),
    # "in <n> <units>" measuring a stretch of time, not a moment ahead, stays as said
    ("He read the paper without glasses for the first time in ten years", MON,
     "He read the paper without glasses for the first time in ten years", None),
    ("We haven't been back in two years", MON, "We haven't been back in two years", None),
    ("It rained twice in three days", MON, "It rained twice in three days", None),
    ("The wettest May in 40 years", MON, "The wettest May in 40 years", None),
    ("No rush, we move in a month", MON, "No rush, we move in June 2023", date(2023, 6, 1)),
    ("First time abroad and we fly in 3 days", MON, "First time abroad and we fly on 11 May 2023", date(2023, 5, 11)),
    ("I saw him last Friday", MON, "I saw him on 5 May 2023", date(2023, 5, 5)),
    ("I see him next Friday", MON, "I see him on 12 May 2023", date(2023, 5, 12)),
    ("I see him this Friday", MON, "I see him on 12 May 2023", date(2023, 5, 12)),
    ("I saw him last Monday", MON, "I saw him on 1 May 2023", date(2023, 5, 1)),
    ("I see him next Monday", MON, "I see him on 15 May 2023", date(2023, 5, 15)),
    # Capitalized weekday abbreviations after last/this/next; 'this past' is 'last'
    ("I saw him last Fri", MON, "I saw him on 5 May 2023", date(2023, 5, 5)),
    ("I joined a group last Tues.", MON, "I joined a group on 2 May 2023.", date(2023, 5, 2)),
    ("See you next Thurs", MON, "See you on 11 May 2023", date(2023, 5, 11)),
    ("The sun was out last sun", MON, "The sun was out last sun", None),
    ("We camped this past weekend", MON, "We camped on the weekend of 6 May 2023", date(2023, 5, 6)),
    ("I was busy this past week", MON, "I was busy in the week of 1 May 2023", date(2023, 5, 1)),
    ("I grew a lot in the past year", MON, "I grew a lot in the past year", None),
    ("I went to the game on Saturday", MON, "I went to the game on 6 May 2023", date(2023, 5, 6)),
    ("I will go to the game on Saturday", MON, "I will go to the game on 13 May 2023", date(2023, 5, 13)),
    ("I saw her a few days ago", MON, "I saw her a few days before 8 May 2023", date(2023, 5, 8)),
    ("I've been sad since yesterday", MON, "I've been sad since 7 May 2023", date(2023, 5, 7)),
    ("Yesterday's party was great", MON, "7 May 2023's party was great", date(2023, 5, 7)),
    ("I recently moved", MON, "I recently moved", None),
    ("I've had my Jeep Wrangler for three years.", MON, "I've had my Jeep Wrangler for three years.", None),
    ("We married on 12 June 2015", MON, "We married on 12 June 2015", date(2015, 6, 12)),
    # Month ends, year boundaries and leap years
    ("I start a new job next month", JAN31, "I start a new job in February 2023", date(2023, 2, 1)),
    ("We move in 1 month", JAN31, "We move in February 2023", date(2023, 2, 1)),
    ("I moved last month", JAN15, "I moved in December 2022", date(2022, 12, 1)),
    ("I was sick last week", JAN15, "I was sick in the week of 2 January 2023", date(2023, 1, 2)),
    ("It snowed yesterday", LEAP_MAR1, "It snowed on 29 February 2024", date(2024, 2, 29)),
    ("I fly tomorrow", LEAP_FEB28, "I fly on 29 February 2024", date(2024, 2, 29)),
    ("I fly tomorrow", PLAIN_FEB28, "I fly on 1 March 2023", date(2023, 3, 1)),
    ("I'm off next week", NYE, "I'm off in the week of 1 January 2024", date(2024, 1, 1)),
    ("I moved last year", NEW_YEAR, "I moved in 2023", date(2023, 1, 1)),
    ("I saw her last Sunday", NEW_YEAR, "I saw her on 31 December 2023", date(2023, 12, 31)),
    ("We travel next month", DEC15, "We travel in January 2024", date(2024, 1, 1)),
    ("I bought it a year ago", LEAP_DAY, "I bought it in 2023", date(2023, 1, 1)),
]


@pytest.mark.parametrize(("text", "anchor", "expected", "event"), CASES, ids=[c[0] for c in CASES])
def test_ground_time_table(text: str, anchor: datetime, expected: str, event: date | None) -> None:
    grounded = ground_time(text, anchor)
    assert grounded.text == expected
    assert (grounded.event_time.date() if grounded.event_time else None) == event


@pytest.mark.parametrize(("text", "anchor", "expected", "event"), CASES, ids=[c[0] for c in CASES])
def test_grounding_is_idempotent(text: str, anchor: datetime, expected: str, event: date | None) -> None:
    once = ground_time(text, anchor)
    twice = ground_time(once.text, anchor + timedelta(days=40))  # a later anchor must change nothing
    assert twice.text == once.text
    assert twice.spans == []
    assert twice.event_time == once.event_time


def test_papers_example_reports_its_span_and_date() -> None:
    grounded = ground_time("I went to a sourdough baking workshop yesterday", MON)
    assert grounded.spans == [("yesterday", "on 7 May 2023")]
    assert grounded.event_time == datetime(2023, 5, 7)


def test_first_expression_sets_event_time_and_all_are_replaced() -> None:
    grounded = ground_time("I flew home yesterday and I fly back next week", MON)
    assert grounded.text == "I flew home on 7 May 2023 and I fly back in the week of 15 May 2023"
    assert grounded.event_time == datetime(2023, 5, 7)
    assert [s[0] for s in grounded.spans] == ["yesterday", "next week"]


def test_event_time_keeps_the_anchor_timezone() -> None:
    tz = timezone(timedelta(hours=2))
    grounded = ground_time("I went yesterday", MON.replace(tzinfo=tz))
    assert grounded.event_time == datetime(2023, 5, 7, tzinfo=tz)


def test_word_boundaries_protect_longer_words() -> None:
    text = "Todays lastweek nextmonth yesterdays"
    assert ground_time(text, MON).text == text


def test_the_last_week_is_a_duration_not_a_date() -> None:
    assert ground_time("I worked hard in the last week", MON).text == "I worked hard in the last week"


def test_absolute_dates_in_several_formats() -> None:
    found = [d for _, d in absolute_dates("On May 7, 2023 and 2023-05-09, then in June 2023 and in 2021")]
    assert found == [date(2023, 5, 7), date(2023, 5, 9), date(2023, 6, 1), date(2021, 1, 1)]


@pytest.mark.parametrize(
    ("text", "location", "expected"),
    [
        ("I live here", "Lisbon", "I live in Lisbon"),
        ("The food here is great", "Lisbon", "The food in Lisbon is great"),
        ("It's a long way from here", "Lisbon", "It's a long way from Lisbon"),
        ("It's sunny over here", "Lisbon", "It's sunny in Lisbon"),
        ("Here is a photo of my dog", "Lisbon", "Here is a photo of my dog"),
        ("I went there last year", "Lisbon", "I went there last year"),
        ("There are hills here", "Lisbon", "There are hills in Lisbon"),
        ("I live here", None, "I live here"),
        ("Where's the nearest shop? Somewhere near here", "Lisbon", "Where's the nearest shop? Somewhere near Lisbon"),
    ],
)
def test_ground_place(text: str, location: str | None, expected: str) -> None:
    assert ground_place(text, location) == expected


def test_ground_place_is_idempotent() -> None:
    once = ground_place("I live here and work here", "Porto")
    assert once == "I live in Porto and work in Porto"
    assert ground_place(once, "Porto") == once
