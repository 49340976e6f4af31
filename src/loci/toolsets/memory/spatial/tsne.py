"""t-SNE in numpy: a 2-D layout that keeps each memory's nearest neighbours near it.

Exact gradients (maps hold at most a few hundred memories, where the O(n^2) form is fastest),
perplexity-calibrated affinities, early exaggeration, momentum and per-coordinate gains: the
method of van der Maaten and Hinton (2008) with scikit-learn's defaults. Written here rather than
imported for the size of the install: scikit-learn with SciPy would add about 164 MB to it for
two algorithms (this and `hdbscan`) of about 320 lines; the tests hold both against
scikit-learn's, which is a development dependency only.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatMatrix = npt.NDArray[np.float32]

PERPLEXITY = 30.0
ROUNDS = 500
EXAGGERATION, EXAGGERATED_ROUNDS = 12.0, 250
MOMENTUM_EARLY, MOMENTUM_LATE = 0.5, 0.8
MIN_GAIN = 0.01
#: Bisection steps that calibrate each memory's neighbourhood width to the perplexity.
CALIBRATION_STEPS = 64


def tsne(vectors: FloatMatrix, perplexity: float = PERPLEXITY, seed: int = 0) -> FloatMatrix:
    """2-D coordinates for `vectors` (unit rows; at least 2 of them)."""
    n = vectors.shape[0]
    # Calibrated in float64; the descent runs in float32 (half the memory traffic, same maps).
    affinities = _affinities(_cosine_distances(vectors), min(perplexity, (n - 1) / 3))
    joint = affinities.astype(np.float32)
    points = _start(vectors, seed).astype(np.float32)
    step_size = max(n / EXAGGERATION / 4.0, 50.0)
    velocity = np.zeros_like(points)
    gains = np.ones_like(points)
    for round_number in range(ROUNDS):
        early = round_number < EXAGGERATED_ROUNDS
        weight = EXAGGERATION if early else 1.0
        gradient = _gradient(points, joint * np.float32(weight))
        same_sign = np.sign(gradient) == np.sign(velocity)
        gains = np.maximum(np.where(same_sign, gains * 0.8, gains + 0.2), MIN_GAIN)
        momentum = MOMENTUM_EARLY if early else MOMENTUM_LATE
        velocity = (momentum * velocity - step_size * gains * gradient).astype(np.float32)
        points = points + velocity
    return points


def _cosine_distances(vectors: FloatMatrix) -> npt.NDArray[np.float64]:
    rows = np.asarray(vectors, dtype=np.float64)
    distances = np.clip(1.0 - rows @ rows.T, 0.0, 2.0)
    np.fill_diagonal(distances, 0.0)
    return distances


def _affinities(distances: npt.NDArray[np.float64], perplexity: float) -> npt.NDArray[np.float64]:
    """Symmetric joint probabilities whose rows each have the given perplexity."""
    n = distances.shape[0]
    target = np.log(perplexity)
    low, high = np.zeros(n), np.full(n, np.inf)
    beta = np.ones(n)
    off_diagonal = _nearest(distances, min(n - 1, int(3 * perplexity) + 1))
    for _ in range(CALIBRATION_STEPS):
        conditional = _conditional(distances, beta, off_diagonal)
        entropy = -np.sum(conditional * np.log(np.maximum(conditional, 1e-12)), axis=1)
        too_wide = entropy > target  # raise beta: a narrower neighbourhood
        low = np.where(too_wide, beta, low)
        high = np.where(too_wide, high, beta)
        beta = np.where(np.isinf(high), beta * 2.0, (low + high) / 2.0)
    conditional = _conditional(distances, beta, off_diagonal)
    joint = (conditional + conditional.T) / (2.0 * n)
    return np.asarray(np.maximum(joint, 1e-12), dtype=np.float64)


def _nearest(distances: npt.NDArray[np.float64], count: int) -> npt.NDArray[np.bool_]:
    """Each row's `count` nearest other rows."""
    apart = distances + np.diag(np.full(distances.shape[0], np.inf))
    nearest = np.argpartition(apart, count - 1, axis=1)[:, :count]
    mask = np.zeros(distances.shape, dtype=bool)
    np.put_along_axis(mask, nearest, True, axis=1)
    return mask


def _conditional(
    distances: npt.NDArray[np.float64], beta: npt.NDArray[np.float64], mask: npt.NDArray[np.bool_]
) -> npt.NDArray[np.float64]:
    # Squared distances, as t-SNE's Gaussian kernel takes them; shifted by each row's nearest
    # so the exponentials never all underflow.
    squared = distances**2
    shifted = squared - np.where(mask, squared, np.inf).min(axis=1, keepdims=True)
    kernel = np.exp(-shifted * beta[:, None]) * mask
    return np.asarray(kernel / np.maximum(kernel.sum(axis=1, keepdims=True), 1e-12))


def _start(vectors: FloatMatrix, seed: int) -> npt.NDArray[np.float64]:
    """The first two principal components, scaled to a standard deviation of 1e-4 (as
    scikit-learn's `init="pca"`), so the layout is the same on every run."""
    centred = np.asarray(vectors, dtype=np.float64) - vectors.mean(axis=0)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    components = components[:2]
    # A singular vector's sign is arbitrary: each is turned to its largest loading positive.
    largest = components[np.arange(len(components)), np.abs(components).argmax(axis=1)]
    points = centred @ (components * np.sign(largest)[:, None]).T
    if points.shape[1] < 2:
        points = np.random.default_rng(seed).normal(size=(vectors.shape[0], 2))
    scale = float(np.std(points[:, 0])) or 1.0
    return np.asarray(points / scale * 1e-4, dtype=np.float64)


def _gradient(points: FloatMatrix, affinities: FloatMatrix) -> FloatMatrix:
    squared = np.sum(points**2, axis=1)
    closeness = 1.0 / (
        1.0 + np.maximum(squared[:, None] + squared[None, :] - 2 * points @ points.T, 0)
    )
    np.fill_diagonal(closeness, 0.0)
    similarity = closeness / np.sum(closeness)
    pull = (affinities - np.maximum(similarity, 1e-12)) * closeness
    return np.asarray(4.0 * (pull.sum(axis=1)[:, None] * points - pull @ points), dtype=np.float32)
