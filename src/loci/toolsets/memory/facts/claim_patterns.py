"""The words and patterns `claims` reads statements with: hedges, kinds of fact, subjects.

Each pattern is written for a kind of fact people and agents state about themselves, others
and things (a home, an employer, a role, a diet, a relationship, counts, ages, versions,
contact details, favourites, habits, a thing's value and its changes).
"""

from __future__ import annotations

import re

NAME = r"[A-Z][\w&.-]*(?:\s+(?:[A-Z][\w&.-]*|\d+))*"
NUMBER = r"\d+(?:[.,:]\d+)*"
#: A value runs to the end of its clause; a full stop inside a number or after a title's
#: abbreviation ("99.9%", "Dr. Chen") does not end it.
_TITLE_STOP = "|".join(f"(?<=\\b{t})" for t in ("Dr", "Mr", "Ms", "Mrs", "St", "Jr"))
VALUE = r"(?P<v>(?:[^.;]|\.(?=\d)|(?:" + _TITLE_STOP + r")\.)+)"
SHORT_VALUE = r"(?P<v>(?:[^.;,]|\.(?=\d)|(?:" + _TITLE_STOP + r")\.)+)"
COUNT_WORDS = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve"
]  # fmt: skip
MONTHS = "january february march april may june july august september october november december"
DAYS = "monday tuesday wednesday thursday friday saturday sunday"
TIME_WORDS = frozenset((MONTHS + " " + DAYS).split())

PLAN = re.compile(
    r"\b(used to|grew up|formerly|previously|back then|interview(?:ed)? (?:at|with|for)|"
    r"applied (?:to|for|at)|will|'ll|going to|plans? to (?=[a-z])|planning|"
    r"thinking (about|of)|considering|hopes? to|"
    r"wants? to|would like|might|may move|intends? to|someday|one day)\b",
    re.I,
)
TEMPORARY = re.compile(
    r"\b(for (a|an|one|two|three|four|a few|\d+|the) (day|days|week|weeks|month|months|"
    r"weekend|summer|winter|holidays?)|visiting|on (holiday|vacation)|trip|temporarily|"
    r"for now|this weekend)\b",
    re.I,
)
ADDITIVE = re.compile(
    r"\b(also|too|as well|in addition|additionally|another job|second job)\b", re.I
)
NEGATION = re.compile(
    r"\b(no longer|not anymore|any ?more|doesn't|does not|don't|do not|isn't|is not|"
    r"stopped|quit|gave up|never|gave away|sold)\b",
    re.I,
)

RELATIONSHIP = {
    "single": "single",
    "dating": "dating",
    "girlfriend": "dating",
    "boyfriend": "dating",
    "partner": "dating",
    "engaged": "engaged",
    "fiance": "engaged",
    "fiancé": "engaged",
    "fiancee": "engaged",
    "fiancée": "engaged",
    "married": "married",
    "wife": "married",
    "husband": "married",
    "divorced": "divorced",
    "separated": "separated",
    "widowed": "widowed",
}
DIETS = {
    "vegan": "vegan",
    "vegetarian": "vegetarian",
    "pescatarian": "pescatarian",
    "keto": "keto",
    "paleo": "paleo",
    "carnivore": "meat",
    "omnivore": "meat",
    "meat": "meat",
}
#: People a possessive names ("Kai's sister"): their facts are not their relative's.
RELATIVES = frozenset({
    "sister", "brother", "son", "daughter", "mother", "father", "mom", "dad", "parent",
    "parents", "child", "children", "kid", "kids", "friend", "colleague", "boss",
    "manager", "cousin", "aunt", "uncle", "grandmother", "grandfather", "neighbor",
    "neighbour", "roommate", "team"
})  # fmt: skip
CHILD_WORDS = frozenset({
    "kid", "kids", "child", "children", "son", "sons", "daughter", "daughters", "baby",
    "babies"
})  # fmt: skip
HOLDINGS = (
    "kids|children|child|sons?|daughters?|babies|cats?|dogs?|pets?|cars?|bikes?|horses?|"
    "rabbits?|birds?|fish|employees|people|projects|users|seats|members|servers|rooms"
)
ROLE_END = (
    r"(?:\w{2,}(?:er|or|ist|ian|ant|ent|eer|ee|ect|ef|ive|ard|wife|man|woman|smith|wright)|"
    r"nurse|principal|lead|intern|student|ceo|cto|cfo|vp|head of \w+|doctor|chef|cook|"
    r"pilot|judge|coach|tutor|clerk|guard|poet|nanny|vet|dentist|surgeon|medic)"
)

HOME = [
    re.compile(
        r"\b(?:lives?|living|lived|resides?|residing|based|settled|moved|moves|moving|"
        r"relocated|relocates|relocating)\b(?:\s+back)?\s+(?:in|to|into|at)\s+(?P<v>" + NAME + ")"
    ),
    re.compile(r"(?P<v>" + NAME + r")\s+(?:has been|is|became)\s+(?:\w+\s+)?home\b"),
    re.compile(r"\bhome is (?:now )?(?:in )?(?P<v>" + NAME + ")"),
]
EMPLOYER = [
    re.compile(
        r"\b(?:works?|working|worked|employed|job)\b(?:\s+now)?\s+(?:at|for|by|with)\s+"
        r"(?P<v>" + NAME + r"|the\s+(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*(?=\s+as\b|[.,;]|$))"
    ),
    re.compile(r"\b(?:joined|joins|hired by|started at|starting at)\s+(?P<v>" + NAME + ")"),
    re.compile(r"\b(?:an?|the)\s+(?:[\w-]+\s+){0,2}?" + ROLE_END + r" at (?P<v>" + NAME + ")"),
]
#: "works as a nurse", "is a teacher", "became the principal", "promoted to senior developer":
#: after "is" or "became" only with an article ("I'm here for you" names no role).
ROLE = re.compile(
    r"\b(?:(?:works?|working)\b(?:\s+(?:at|for)\s+[\w&.' -]{1,40}?)?\s+as(?:\s+(?:an?|the))?|"
    r"(?:is|am|'m|are|became|becomes|become)"
    r"\s+(?:now\s+)?(?:an?|the)|promoted to(?:\s+(?:an?|the))?)\s+"
    r"(?P<v>(?:[a-z-]+\s+){0,2}?" + ROLE_END + r")\b",
    re.I,
)
#: A relationship's state said of the subject: "is single", "got engaged to", "are married",
#: "married Tom", "divorced".
RELATIONSHIP_STATE = [
    re.compile(
        r"\b(?:is|am|'m|are|got|became|now|still)\s+(?:now\s+|happily\s+|newly\s+)?"
        r"(?P<v>single|married|engaged|divorced|separated|widowed|dating)\b",
        re.I,
    ),
    re.compile(r"\b(?P<v>married|engaged)(?:\s+to)?\s+[A-Z]"),
    re.compile(r"\b(?P<v>divorced|broke up|split up)\b", re.I),
]
COUNT = re.compile(
    r"\b(?:has|have|had|owns?|with)\s+(?:now\s+)?(?:\w+\s+)?(?P<v>\d+|"
    + "|".join(COUNT_WORDS)
    + r")\s+(?:[a-z]+\s+)?(?P<thing>"
    + HOLDINGS
    + r"|[a-z]{3,}s)\b",
    re.I,
)
AGE = re.compile(
    r"\b(?:is|am|'m|turned|turns|just turned|aged)\s+(?P<v>\d{1,3})"
    r"(?=\s+years?\s+old\b|\s+(?:in|on|last|this|today|yesterday|now|again|already)\b"
    r"|\s*[.,;!]|\s*$)",
    re.I,
)
#: A product and its version: the name has a capital ("Python 3.12", "iOS 18", "React 17").
VERSION = re.compile(
    r"\b(?P<thing>[A-Za-z]*[A-Z][A-Za-z+#-]*)\s+(?:version\s+|v)?(?P<v>\d+(?:\.\d+)*)\b"
)
PHONE = re.compile(r"\bphone(?: number)?\b[^\d+]{0,20}(?P<v>\+?\d[\d ().-]{4,}\d)", re.I)
EMAIL = re.compile(r"(?P<v>[\w.+-]+@[\w-]+\.[\w.-]+\w)")
ADDRESS = re.compile(r"\baddress (?:is|:)\s*(?:now\s+)?" + VALUE, re.I)
FAVORITE = re.compile(
    r"\bfavou?rite (?P<thing>\w+(?: \w+)?) (?:is|are)(?: now)? " + SHORT_VALUE, re.I
)
VEHICLE = re.compile(
    r"\b(?:drives?|driving|rides?|riding)\s+(?:an?|the|his|her|their|my)\s+" + SHORT_VALUE,
    re.I,
)
#: How someone gets somewhere: "rides his bike to work", "takes the train to school".
WAY = re.compile(
    r"\b(?P<verb>rides?|takes?|drives?|walks?|cycles?|bikes?|commutes?|goes)\s+"
    r"(?:(?:his|her|their|my|the|a|an|by)\s+)?(?P<means>[a-z]+\s+)?(?:to|into)\s+"
    r"(?P<place>work|school|the office|office|class|college|university)\b",
    re.I,
)
HABIT = re.compile(
    r"\b(?P<verb>drink|drinks|drinking|smoke|smokes|smoking|eat|eats|eating|play|plays|"
    r"playing|use|uses|using|like|likes|love|loves|enjoy|enjoys)\b(?:\s+(?P<obj>[a-z][\w-]*))?",
    re.I,
)
#: "quit coffee", "gave up smoking": a habit ended, whatever its verb.
QUIT = re.compile(r"\b(?:quit|gave up|stopped|stops|quits)\s+(?P<obj>[a-z][\w-]*)", re.I)
#: "prefers tea over coffee": a liking for coffee ended.
PREFERS = re.compile(
    r"\bprefers?\s+(?P<a>[a-z][\w-]*)\s+(?:over|to|instead of|rather than)\s+(?P<b>[a-z][\w-]*)",
    re.I,
)
#: Verbs of liking, one habit whichever is used.
LIKING = {"love": "like", "enjoy": "like"}
#: Words a role pattern reads that name no occupation ("a mother of two", "a big believer").
NOT_ROLES = (RELATIVES - {"manager", "boss"}) | {
    "man", "woman", "human", "person", "member", "owner", "lover", "reader", "winner",
    "beginner", "believer", "supporter", "survivor", "follower", "listener", "viewer",
    "customer", "user", "fan", "wife", "other", "together", "forever", "never", "ever",
}  # fmt: skip
STUDENT = re.compile(
    r"\b(?:(?:is|am|'m|are)\s+(?:an?\s+)?(?:\w+\s+)?student|stud(?:ies|ying)\s+\w+\s+at|"
    r"enrolled (?:at|in))\b",
    re.I,
)
#: Nouns a number follows to tell one from another, not to give its version ("Task 5").
NUMBERED = frozenset(
    {"model", "street", "road", "room", "task", "sprint", "step", "phase", "chapter", "floor"}
    | {"page", "issue", "ticket", "item", "level", "stage", "part", "season", "episode"}
    | {"week", "day", "gate", "line", "bus", "route", "table", "number", "track", "grade"}
)
#: Nouns of a possessive that name someone's role ("Wendy's job is ...").
JOB_NOUNS = frozenset({"job", "role", "title", "job title", "position", "occupation", "profession"})
#: "Ana: I moved to Oslo": a line of a chat, said by the name before the colon.
SPEAKER = re.compile(r"^(?P<name>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?):\s+")
#: Words that point at a thing already named, never a thing's name.
PRONOUNS = frozenset({
    "i", "me", "you", "he", "him", "she", "her", "it", "we", "us", "they", "them", "this",
    "that"
})  # fmt: skip
#: How an agent names the person it works for: "User lives in Berlin", "the user's timezone".
USER = [
    (re.compile(r"^(?:the\s+)?user's\b", re.I), "my"),
    (re.compile(r"^(?:the\s+)?user\b", re.I), "I"),
]
#: Verbs that say a value changed: such a statement contradicts one that gave the value with
#: any verb ("standup is at 9:30" / "standup moved to 10:00").
CHANGE = frozenset({
    "move", "moved", "slip", "slipped", "push", "pushed", "raise", "raised", "lower",
    "lowered", "change", "changed", "increase", "increased", "decrease", "decreased",
    "bump", "bumped", "grow", "grew", "rise", "rose", "fall", "fell", "shift", "shifted",
    "extend", "extended", "cut", "drop", "dropped", "upgrade", "upgraded", "migrate",
    "migrated", "switch", "switched", "rename", "renamed"
})  # fmt: skip
CHANGES = "|".join(sorted(CHANGE))
#: A thing's value: "The office opens at 8:00", "The team has 6 engineers", "The launch date
#: slipped to June 20", "Our SLA promises 99.9% uptime".
THING_STATES = re.compile(
    r"^(?:the|our|my|your|this)\s+(?P<thing>(?:[\w'-]+\s+){0,3}?[\w'-]+?)\s+"
    r"(?:now\s+|still\s+|just\s+)?(?:(?:was|were|got|has been|have been)\s+)?"
    r"(?P<verb>is|are|has|have|grew|rose|fell|went|cut|set|[a-z]+s|[a-z]+ed)\b"
    r"(?:\s+(?:now|still))?\s+(?:(?:at|on|to|every|for|in|by|from \S+ to)\s+)?" + VALUE,
    re.I,
)
#: "Standup moved to 10:00" (no article), "pushed the deadline to April 30", "raised the
#: price of the Pro plan to 15 dollars".
THING_CHANGED = [
    re.compile(
        r"^(?P<thing>[\w' -]+?)\s+(?:was\s+|got\s+)?(?P<verb>" + CHANGES + r")\s+"
        r"(?:to|from \S+ to)\s+" + VALUE,
        re.I,
    ),
    re.compile(
        r"\b(?P<verb>" + CHANGES + r")\s+(?:the\s+)?(?P<thing>[\w' -]+?)\s+to\s+" + VALUE,
        re.I,
    ),
]
#: "Leo's girlfriend is Sara", "My new manager is Luis", "Greta's birthday is on May 3".
OWNED_IS = re.compile(
    r"^(?:[A-Z][\w-]*'s|my|our|your|his|her|their)\s+(?P<noun>(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
    r"(?:is|are)\s+(?:now\s+|still\s+)?(?:on\s+|at\s+|in\s+)?" + SHORT_VALUE,
    re.I,
)
SUBJECT_NAME = re.compile(
    r"^(?P<name>[A-Z][a-z][\w-]*(?:\s+[A-Z][a-z][\w-]*)?)(?:'s\s+(?P<owned>[\w ]+?))?\s"
)
POSSESSIVE = re.compile(r"^(?:my|our)\s+(?P<owned>[\w ]+?)\s", re.I)
TOPIC = re.compile(
    r"^(?:(?:we|i|they|you)\s+\w+\s+(?:the|our|my)\s+|(?:the|our|my|this)\s+)(?P<topic>"
    r"(?:[\w'-]+\s+){0,3}?[\w'-]+?)(?=\s+(?:is|are|was|were|has|have|runs|run|uses|use|"
    r"targets|allows|moved|to|now|happens|got|slipped|on)\b)",
    re.I,
)
LEADING = re.compile(
    r"^(?:(?:these days|nowadays|now|currently|recently|as of \w+( \d+)?|since \w+|"
    r"today|this year|lately),?\s+)+",
    re.I,
)
FIRST_PERSON = re.compile(r"^(?:i|i'm|i've|we|we're|me|my|our)\b", re.I)
#: Words after a verb that are not its object ("quit smoking on New Year's Day").
LINKS = frozenset({
    "on", "in", "at", "for", "with", "every", "since", "after", "before", "and", "but",
    "to", "from", "by"
})  # fmt: skip
STOP = frozenset({
    "the", "a", "an", "of", "our", "my", "your", "their", "his", "her", "its", "this",
    "that", "team's", "new", "old", "current"
})  # fmt: skip
NOT_NAMES = frozenset({
    "The", "We", "Our", "My", "I", "It", "This", "That", "These", "Those", "There", "Here",
    "He", "She", "They", "You", "Now", "Since", "After", "Before", "When", "Today",
    "Yesterday", "Last", "Next", "Every"
})  # fmt: skip
