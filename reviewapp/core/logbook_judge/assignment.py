"""The one-to-one pairing with the largest total score (the assignment problem), exactly.

Kuhn–Munkres with potentials, O(n²·m) for n rows and m ≥ n columns: a few milliseconds for the 40 × 40 score
matrices of the largest logbooks. Pairs scoring 0 are "no pair": leaving a row unpaired costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

_INF = float("inf")


def best_assignment(weights: Sequence[Sequence[float]]) -> tuple[float, dict[int, int]]:
    """Row -> column maximizing the sum of `weights[row][col]` (each used once); pairs of weight ≤ 0 are dropped.

    Rows and columns may differ in number; weights must be ≥ 0 (0 meaning "not a pair")."""
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    if rows == 0 or cols == 0:
        return 0.0, {}
    transposed = rows > cols
    matrix = [list(r) for r in weights]
    if transposed:
        matrix = [[matrix[r][c] for r in range(rows)] for c in range(cols)]
        rows, cols = cols, rows
    # Minimize cost = top - weight over a rows x cols matrix (rows <= cols), 1-based with a dummy column 0.
    top = max(max(r) for r in matrix)
    u = [0.0] * (rows + 1)
    v = [0.0] * (cols + 1)
    owner = [0] * (cols + 1)  # column -> row (1-based), 0 = free
    way = [0] * (cols + 1)
    for row in range(1, rows + 1):
        owner[0] = row
        col0 = 0
        least = [_INF] * (cols + 1)
        used = [False] * (cols + 1)
        while True:
            used[col0] = True
            r0 = owner[col0]
            delta = _INF
            col1 = 0
            cost_row = matrix[r0 - 1]
            for col in range(1, cols + 1):
                if used[col]:
                    continue
                cur = (top - cost_row[col - 1]) - u[r0] - v[col]
                if cur < least[col]:
                    least[col] = cur
                    way[col] = col0
                if least[col] < delta:
                    delta = least[col]
                    col1 = col
            for col in range(cols + 1):
                if used[col]:
                    u[owner[col]] += delta
                    v[col] -= delta
                else:
                    least[col] -= delta
            col0 = col1
            if owner[col0] == 0:
                break
        while col0:
            col1 = way[col0]
            owner[col0] = owner[col1]
            col0 = col1
    pairs: dict[int, int] = {}
    total = 0.0
    for col in range(1, cols + 1):
        row = owner[col]
        if row and matrix[row - 1][col - 1] > 0:
            total += matrix[row - 1][col - 1]
            if transposed:
                pairs[col - 1] = row - 1
            else:
                pairs[row - 1] = col - 1
    return total, pairs


def margins(
    weights: Sequence[Sequence[float]],
    pairs: dict[int, int],
    total: float,
    siblings: Mapping[int, Sequence[int]] | None = None,
) -> dict[int, float]:
    """For each paired row: how much the best total drops when that pair is forbidden (its lead over the runner-up
    assignment, which may re-pair other rows too). A column's `siblings` (parts of one split claim) are forbidden
    with it: taking a sibling instead is no rival."""
    out: dict[int, float] = {}
    for row, col in pairs.items():
        forbidden = [list(r) for r in weights]
        for other in (col, *(siblings or {}).get(col, ())):
            forbidden[row][other] = 0.0
        alternative, _ = best_assignment(forbidden)
        out[row] = max(0.0, total - alternative)
    return out
