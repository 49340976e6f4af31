"""What statements claim, and when two contradict: the same kind of fact of the same subject
with another value, never a plan, a stay, an addition, another person or another attribute."""

from __future__ import annotations

import pytest

from loci.toolsets.memory.facts.claims import ME, claims
from loci.toolsets.memory.facts.contradictions import contradiction, restated

CONTRADICTIONS = [
    ("Dana lives in Berlin.", "Dana moved to Lisbon in September."),
    ("User lives in Berlin.", "Lisbon has been home since September."),
    ("I work at Google as a data engineer.", "I joined Stripe last month."),
    ("The billing service runs on Python 3.10.", "We upgraded the billing service to Python 3.12."),
    ("Marco is vegetarian.", "Marco went vegan this year."),
    ("Lena has two cats.", "Lena adopted another cat, so she has three cats now."),
    ("Tom drinks coffee every morning.", "Tom no longer drinks coffee."),
    ("Aiko is single.", "Aiko got engaged to Kenji."),
    ("The team's standup meeting is at 9:30.", "Standup moved to 10:00 starting this week."),
    ("Zoe is 29 years old.", "Zoe turned 31 in June."),
    ("Grace's phone number is 555-0142.", "Grace has a new phone number: 555-0199."),
    ("My dentist is Dr. Alvarez.", "My dentist is now Dr. Chen."),
    ("Our SLA promises 99.9% uptime.", "The SLA now promises 99.95% uptime."),
    ("The team has 6 engineers.", "The team grew to 9 engineers."),
    ("Hugo rides his bike to work.", "Hugo takes the train to work since he moved."),
    ("Our main branch is called master.", "Our main branch was renamed to main."),
    ("Ana: I live in Oslo.", "Ana: I moved to Rome."),
    ("Wendy's job is head of marketing at Loop.", "Wendy is now the CEO of Loop."),
    ("Kai drinks coffee every morning.", "Kai quit coffee."),
    ("Kai lives in Berlin.", "Kai no longer lives in Berlin; he moved to Leipzig."),
    ("Kai works at Google as an engineer.", "Kai works at Google as a product manager now."),
]

NOT_CONTRADICTIONS = [
    ("Priya lives in Toronto.", "Priya is in Rome for two weeks on holiday."),
    ("Hana lives in Osaka.", "Hana is thinking about moving to Tokyo next year."),
    ("Elif lives in Istanbul.", "Elif will move to Ankara in the spring."),
    ("Noah works at Shopify.", "Emma works at Spotify."),
    ("Noah works at Shopify.", "Noah also works weekends at a bakery."),
    ("Kai works at Microsoft.", "Kai's sister works at Amazon."),
    ("Bruno is a pescatarian.", "Bruno's wife is vegan."),
    ("The quarterly report is due on March 31.", "The annual report is due on December 15."),
    ("The office opens at 8:00.", "The office is on the fourth floor."),
    ("Felix plays the guitar.", "Felix started learning the piano too."),
    ("Liam lives in Boston.", "Liam's parents live in Phoenix."),
    ("Sofia is 40.", "Sofia's son is 12 years old."),
    ("Dana lives in Berlin.", "Dana works as a nurse at the Charité hospital."),
    ("Carlos drives a blue Toyota Corolla.", "Carlos plans to buy an electric car next year."),
    ("Our database is PostgreSQL 13.", "Our cache is Redis 6."),
    # Seen in chats: small talk, events and identifiers are no facts that change.
    ("John: I'm here for you.", "John: I'm always down for something new."),
    ("Tim: Your support means a lot to me.", "Tim: Your support means a lot."),
    ("Mel: I'm lucky to have my husband and kids.", "Mel: Marrying my partner was the best."),
    ("Task 5 is done.", "Task 6 is done."),
    ("fact number 1", "fact number 2"),
    ("I went to the beach on Monday.", "I went to the beach on Friday."),
    ("Ana: I live in Oslo.", "Bo: I live in Rome."),
    ("Tim: I'm a big believer in reading.", "Tim: I'm a teacher."),
    # Past, interviews and negations say nothing of what is now.
    ("Kai works at Google.", "Kai had an interview at Apple yesterday."),
    ("Kai works at Google.", "Kai used to work at IBM."),
    ("Kai lives in Berlin.", "Kai doesn't live in Munich anymore."),
]


@pytest.mark.parametrize(("old", "new"), CONTRADICTIONS)
def test_a_changed_fact_contradicts_the_old_one(old: str, new: str) -> None:
    reason = contradiction(new, old)
    assert reason is not None and reason.strip()


@pytest.mark.parametrize(("old", "new"), NOT_CONTRADICTIONS)
def test_what_adds_or_is_about_something_else_does_not(old: str, new: str) -> None:
    assert contradiction(new, old) is None


def test_the_reason_names_both_values() -> None:
    reason = contradiction("Dana moved to Lisbon.", "Dana lives in Berlin.")
    assert reason is not None and "berlin" in reason and "lisbon" in reason


def test_claims_read_subjects_kinds_and_values() -> None:
    (home,) = [c for c in claims("Dana lives in Berlin.") if c.kind == "home"]
    assert (home.subject, home.value) == ("dana", "berlin")
    assert {c.subject for c in claims("I live in Austin.")} == {ME}
    assert {c.subject for c in claims("Kai's sister works at Amazon.")} == {"kai's sister"}
    assert claims("Priya will move to Montreal next year.") == ()  # a plan claims nothing
    assert claims("") == ()


def test_a_restatement_differs_only_in_its_values() -> None:
    assert restated("My dentist is now Dr. Chen.", "My dentist is Dr. Alvarez.") is not None
    assert restated("Sam lives in Chicago.", "Dana lives in Berlin.") is None  # another subject
    assert restated("Dana lives in Berlin.", "Dana lives in Berlin, Germany.") is None
    long_text = "Dana lives in Berlin. " * 20
    assert restated(long_text.replace("Berlin", "Rome"), long_text) is None  # not one sentence
