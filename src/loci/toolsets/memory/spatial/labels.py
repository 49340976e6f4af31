"""Names for regions: the words that set a region apart from the others (class-based TF-IDF).

Each region's memories are read as one document; a word weighs its frequency in the region
times `log(1 + A / f)`, where `A` is the mean word count of a region and `f` the word's count
over all regions, so words every region uses score low however often they appear.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

#: Words in a label.
LABEL_WORDS = 3
#: Words of at least three letters (digits and symbols say little about a topic).
_WORD = re.compile(r"\b[^\W\d_]{3,}\b")
#: English function words: frequent everywhere, they name no subject.
_STOP_TEXT = """
about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each else even
ever every few for from further get gets got had has have having he her here hers herself
him himself his how however if in into is it its itself just let like made make many may
me might more most much must my myself never no nor not now of off often on once one only
or other others our ours ourselves out over own really same say says said see seem she
should since so some still such than that the their theirs them themselves then there
these they this those though through thus to too under until up upon us use used uses
using very want was we well were what when where whether which while who whom whose why
will with within without would yes yet you your yours yourself yourselves
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())


def region_labels(
    contents: Sequence[str], labels: npt.NDArray[np.int64], count: int
) -> list[list[str]]:
    """The distinctive words of each region 0..count-1, most distinctive first."""
    if count == 0:
        return []
    vocabulary: dict[str, int] = {}
    per_region: list[Counter[str]] = [Counter() for _ in range(count)]
    for text, region in zip(contents, labels, strict=True):
        if region >= 0:
            words = [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]
            per_region[int(region)].update(words)
    for counter in per_region:
        for word in counter:
            vocabulary.setdefault(word, len(vocabulary))
    if not vocabulary:
        return [[] for _ in range(count)]
    counts = np.zeros((count, len(vocabulary)))
    for region, counter in enumerate(per_region):
        for word, times in counter.items():
            counts[region, vocabulary[word]] = times
    names = np.array(list(vocabulary), dtype=np.str_)
    weights = _ctfidf(counts)
    return [_top_words(w, c, names) for w, c in zip(weights, counts, strict=True)]


def _ctfidf(counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    region_totals = counts.sum(axis=1, keepdims=True)
    term_frequency = counts / np.maximum(region_totals, 1.0)
    average_words = float(region_totals.mean())
    idf = np.log(1.0 + average_words / np.maximum(counts.sum(axis=0), 1.0))
    return np.asarray(term_frequency * idf, dtype=np.float64)


def _top_words(
    weights: npt.NDArray[np.float64], counts: npt.NDArray[np.float64], words: npt.NDArray[np.str_]
) -> list[str]:
    order = np.argsort(-weights, kind="stable")
    return [str(words[i]) for i in order[:LABEL_WORDS] if counts[i] > 0]
