"""Bradley-Terry ratings of players from games between them, on the Elo scale.

A game is scored for the player of the scenario's first side: 1 a win, 0 a loss, 1/2 a
draw (a draw is half a win each way). Games are grouped in cells, one a pairing (a
scenario, the player of its first side, the player of its second); the chance that the
first side's player wins a game of a cell is logistic in a linear predictor `x . theta`,
where `x` is the cell's row of a design (`Design`) and `theta` the ratings in logits.

The fit maximises the log-likelihood with a weak normal prior on every parameter (its
standard deviation `PRIOR_ELO`): without it a player that won or lost every game it
played has no finite maximum-likelihood rating, and with it such a rating is finite but
says only "far above" or "far below" (`Rating.record` tells which). The prior is loose
enough that a rating the games do pin down moves by a point or two. Newton's method
with step halving; the penalised log-likelihood is strictly concave, so it converges.

Intervals are bootstrap percentile intervals: each cell's games are resampled with
replacement (the design kept: every pairing keeps its number of games), the model refit,
and the 2.5th and 97.5th percentiles of each anchored rating taken.

Goodness of fit is the deviance of the model against the saturated one (a free chance
per cell) with its chi-squared p-value on (cells - free parameters) degrees of freedom,
and each cell's observed score beside the predicted one. Draws scored 1/2 make a cell's
score vary less than a binomial's, so the p-value errs on the side of a good fit; with a
few games a cell the chi-squared reference is rough.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from math import erfc, exp, log, pi, sqrt

import numpy as np
from numpy.typing import NDArray

#: Elo points a logit: a difference of 400 is odds of 10 to 1
ELO = 400 / log(10)
#: the prior's standard deviation on each parameter, in Elo points
PRIOR_ELO = 1000.0
#: bootstrap resamples unless told
BOOTSTRAP = 1000
#: the confidence of the intervals
CONFIDENCE = 0.95

Vector = NDArray[np.float64]
Matrix = NDArray[np.float64]


@dataclass(frozen=True)
class Cell:
    """The games of one pairing: in `scenario`, `first` played its first side and
    `second` its second; `scores` the first side's player's score in each game."""

    scenario: str
    first: str
    second: str
    scores: tuple[float, ...]

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def score(self) -> float:
        return float(sum(self.scores))


@dataclass(frozen=True)
class Design:
    """A model: its parameters' names and a row a cell (`x`, the linear predictor's
    coefficients); `anchor` turns fitted parameters into reported ones (shifted so
    that the anchor player stands at 0)."""

    names: list[str]
    rows: Matrix
    anchor: Callable[[Vector], Vector]


class Record(StrEnum):
    """What the games say of a rating: a finite estimate, or a player that won (lost)
    every game that rating played, whose estimate is set by the prior."""

    MIXED = "mixed"
    ALL_WON = "all won"
    ALL_LOST = "all lost"


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    score: float
    record: Record


@dataclass(frozen=True)
class CellFit:
    """A pairing's observed score rate beside the model's, and the Pearson residual."""

    scenario: str
    first: str
    second: str
    games: int
    observed: float
    predicted: float
    residual: float


@dataclass(frozen=True)
class Fit:
    ratings: list[Rating]
    deviance: float
    df: int
    p_value: float | None
    cells: list[CellFit]
    resamples: int


def log_sigmoid(eta: Vector) -> Vector:
    result: Vector = -np.logaddexp(0.0, -eta)
    return result


def sigmoid(eta: Vector) -> Vector:
    result: Vector = np.exp(log_sigmoid(eta))
    return result


def objective(rows: Matrix, games: Vector, scores: Matrix, theta: Matrix,
              prior: float) -> Vector:
    """The penalised log-likelihood of each row of `theta` (with `scores` its row)."""
    eta = theta @ rows.T
    fitted = scores * log_sigmoid(eta) + (games - scores) * log_sigmoid(-eta)
    result: Vector = fitted.sum(axis=1) - (theta * theta).sum(axis=1) / (2 * prior * prior)
    return result


def maximise(rows: Matrix, games: Vector, scores: Matrix, prior: float = PRIOR_ELO / ELO,
             start: Vector | None = None, tolerance: float = 1e-9,
             max_steps: int = 100) -> Matrix:
    """The parameters (logits) that maximise the penalised log-likelihood, a row for each
    row of `scores` (the cells' scores of one sample of games): all fitted at once."""
    samples, size = scores.shape[0], rows.shape[1]
    theta = np.zeros((samples, size)) if start is None else np.tile(start, (samples, 1))
    ridge = np.eye(size) / (prior * prior)
    current = objective(rows, games, scores, theta, prior)
    for _ in range(max_steps):
        chance = sigmoid(theta @ rows.T)
        gradient = (scores - games * chance) @ rows - theta / (prior * prior)
        weight = games * chance * (1 - chance)
        hessian = np.einsum("bc,ci,cj->bij", weight, rows, rows) + ridge
        step = np.linalg.solve(hessian, gradient[..., None])[..., 0]
        length = np.ones(samples)
        while True:  # halve a step until it does not go downhill
            trial = theta + length[:, None] * step
            value = objective(rows, games, scores, trial, prior)
            worse = (value < current - 1e-12) & (length > 1e-6)
            if not worse.any():
                break
            length[worse] /= 2
        moved = float(np.max(np.abs(length[:, None] * step)))
        theta, current = trial, value
        if moved < tolerance:
            break
    return theta


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-squared with `df` degrees of freedom (closed forms of the
    regularised upper incomplete gamma function at integer and half-integer order)."""
    if df < 1:
        raise ValueError("a chi-squared distribution has at least one degree of freedom")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = exp(-half)
        for i in range(1, df // 2):
            term *= half / i
            total += term
    else:
        total = erfc(sqrt(half))
        term = exp(-half) * sqrt(half) * 2 / sqrt(pi)  # h^(1/2) e^-h / Gamma(3/2)
        for i in range(1, (df - 1) // 2 + 1):
            total += term
            term *= half / (i + 0.5)
    return min(1.0, max(0.0, total))


def deviance(games: Vector, scores: Vector, chance: Vector) -> float:
    """Twice the log-likelihood ratio of the saturated model (each cell's own rate)."""
    losses = games - scores
    with np.errstate(divide="ignore", invalid="ignore"):
        won = np.where(scores > 0, scores * np.log(scores / (games * chance)), 0.0)
        lost = np.where(losses > 0, losses * np.log(losses / (games * (1 - chance))), 0.0)
    return float(2 * (won + lost).sum())


def _records(design: Design, cells: Sequence[Cell]) -> list[tuple[int, float, Record]]:
    """Each parameter's games, the score of the side it rates, and its record."""
    out = []
    for j in range(len(design.names)):
        games, score = 0, 0.0
        for i, cell in enumerate(cells):
            sign = design.rows[i, j]
            if sign > 0:
                games, score = games + cell.games, score + cell.score
            elif sign < 0:
                games, score = games + cell.games, score + cell.games - cell.score
        record = (Record.ALL_WON if games and score == games
                  else Record.ALL_LOST if games and score == 0 else Record.MIXED)
        out.append((games, score, record))
    return out


def resampled_scores(cells: Sequence[Cell], resamples: int,
                     rng: np.random.Generator) -> Matrix:
    """Each cell's score in each resample (its games drawn again with replacement)."""
    out = np.empty((resamples, len(cells)))
    for i, cell in enumerate(cells):
        scores = np.asarray(cell.scores, dtype=float)
        picks = rng.integers(0, len(scores), size=(resamples, len(scores)))
        out[:, i] = scores[picks].sum(axis=1)
    return out


def fit(design: Design, cells: Sequence[Cell], resamples: int = BOOTSTRAP,
        seed: int = 0, confidence: float = CONFIDENCE) -> Fit:
    """The model's anchored ratings in Elo points with bootstrap intervals, and its fit."""
    games = np.array([c.games for c in cells], dtype=float)
    scores = np.array([c.score for c in cells])
    theta = maximise(design.rows, games, scores[None, :])[0]
    estimate = design.anchor(theta) * ELO
    if resamples:
        draws = resampled_scores(cells, resamples, np.random.default_rng(seed))
        fitted = maximise(design.rows, games, draws, start=theta)
        boot = np.array([design.anchor(t) for t in fitted]) * ELO
    else:
        boot = estimate[None, :]
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
    ratings = [Rating(name, float(estimate[j]), float(low[j]), float(high[j]), n, s, r)
               for j, (name, (n, s, r)) in enumerate(
                   zip(design.names, _records(design, cells), strict=True))]
    chance = sigmoid(design.rows @ theta)
    dev = deviance(games, scores, chance)
    df = len(cells) - int(np.linalg.matrix_rank(design.rows))
    spread = np.sqrt(games * chance * (1 - chance))
    residual = (scores - games * chance) / spread
    fits = [CellFit(c.scenario, c.first, c.second, c.games, c.score / c.games,
                    float(chance[i]), float(residual[i])) for i, c in enumerate(cells)]
    return Fit(ratings, dev, df, chi2_sf(dev, df) if df > 0 else None, fits, resamples)


def _index(names: Sequence[str]) -> dict[str, int]:
    return {name: i for i, name in enumerate(names)}


def overall_design(cells: Sequence[Cell], players: Sequence[str], scenarios: Sequence[str],
                   anchor: str) -> Design:
    """One rating a player over every scenario and side, and an advantage of each
    scenario's first side: logit P(first side's player wins) = r[first] - r[second] +
    h[scenario]. Reported with the anchor player at 0."""
    where = _index(players)
    sides = {s: len(players) + i for i, s in enumerate(scenarios)}
    rows = np.zeros((len(cells), len(players) + len(scenarios)))
    for i, cell in enumerate(cells):
        rows[i, where[cell.first]] += 1
        rows[i, where[cell.second]] -= 1
        rows[i, sides[cell.scenario]] = 1
    at = where[anchor]

    def anchored(theta: Vector) -> Vector:
        out = theta.copy()
        out[:len(players)] -= theta[at]
        return out

    names = [*players, *(f"{s}: first side's advantage" for s in scenarios)]
    return Design(names, rows, anchored)


def by_side_design(cells: Sequence[Cell], players: Sequence[str], sides: tuple[str, str],
                   anchor: str) -> Design:
    """In one scenario, a rating for each player as each side: logit P(first side's
    player wins) = R[first, side 1] - R[second, side 2]. Equal ratings are an even game
    whatever the sides, so a side's advantage shows in every player's two ratings.
    Reported with the mean of the anchor player's two ratings at 0."""
    where = _index(players)
    n = len(players)
    rows = np.zeros((len(cells), 2 * n))
    for i, cell in enumerate(cells):
        rows[i, where[cell.first]] += 1
        rows[i, n + where[cell.second]] -= 1
    at = where[anchor]

    def anchored(theta: Vector) -> Vector:
        result: Vector = theta - (theta[at] + theta[n + at]) / 2
        return result

    names = [*(f"{p} as {sides[0]}" for p in players), *(f"{p} as {sides[1]}" for p in players)]
    return Design(names, rows, anchored)


def connected(cells: Sequence[Cell], players: Sequence[str]) -> bool:
    """Whether the by-side ratings of one scenario are tied together by games: the graph
    of (player, side) linked by the games between them is connected (with two players
    alone it is not, so their side ratings are not identified)."""
    parent = {(p, k): (p, k) for p in players for k in (0, 1)}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        while parent[node] != node:
            node = parent[node]
        return node

    for cell in cells:
        if cell.games:
            parent[root((cell.first, 0))] = root((cell.second, 1))
    return len({root(node) for node in parent}) == 1
