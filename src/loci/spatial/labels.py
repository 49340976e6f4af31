"""Names for regions: the words that set a region apart from the others (class-based TF-IDF).

Each region's memories are read as one document; a word weighs its frequency in the region
times `log(1 + A / f)`, where `A` is the mean word count of a region and `f` the word's count
over all regions, so words every region uses score low however often they appear.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

#: Words in a label.
LABEL_WORDS = 3
#: Words of at least three letters (digits and symbols say little about a topic).
WORD_PATTERN = r"(?u)\b[^\W\d_]{3,}\b"


def region_labels(
    contents: Sequence[str], labels: npt.NDArray[np.int64], count: int
) -> list[list[str]]:
    """The distinctive words of each region 0..count-1, most distinctive first."""
    from sklearn.feature_extraction.text import CountVectorizer

    if count == 0:
        return []
    documents = [
        " ".join(contents[int(i)] for i in np.flatnonzero(labels == region))
        for region in range(count)
    ]
    vectorizer = CountVectorizer(stop_words="english", token_pattern=WORD_PATTERN, lowercase=True)
    try:
        counts = vectorizer.fit_transform(documents).toarray().astype(np.float64)
    except ValueError:  # nothing but stop words and numbers
        return [[] for _ in range(count)]
    words = vectorizer.get_feature_names_out()
    weights = _ctfidf(counts)
    return [
        _top_words(row, counts_row, words) for row, counts_row in zip(weights, counts, strict=True)
    ]


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
