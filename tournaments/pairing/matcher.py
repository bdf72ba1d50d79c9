"""The maximum-cardinality matcher under the pairing: Edmonds' blossom search, one augmenting path at a time.

Players are vertices, legal games (no rematch, at most 9 stones) are edges; the pairing asks this matcher how many
games a round can hold and which players some maximum matching can leave over.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Sequence


class Matcher:
    """A matching over ``adj`` restricted to the alive vertices, grown and changed by single augmenting paths.

    The pairing needs questions a one-shot matching library does not answer cheaply ("can the rest still be paired
    if u plays v?", "who may be left over?"), and each is one alternating-tree search from a single exposed vertex
    (Edmonds 1965, in the compact base/LCA form): O(V + E) plus blossom contraction over the tree only.
    """

    def __init__(self, adj: list[list[int]]) -> None:
        self.adj = adj
        self.n = len(adj)
        self.mate = [-1] * self.n
        self.alive = [True] * self.n
        self.outer: list[bool] = []

    def search(self, root: int) -> bool:
        """Look for an augmenting path from the exposed ``root``; augment along it if found.

        When none exists, ``self.outer`` marks the vertices reachable from ``root`` by an even alternating path:
        exactly those that some maximum matching leaves exposed instead of ``root``.
        """
        n, adj, mate, alive = self.n, self.adj, self.mate, self.alive
        parent = [-1] * n
        base = list(range(n))
        outer = [False] * n
        outer[root] = True
        tree = [root]
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            marked = set()
            while True:
                a = base[a]
                marked.add(a)
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if b in marked:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, b: int, child: int, blossom: set[int]) -> None:
            while base[v] != b:
                blossom.add(base[v])
                blossom.add(base[mate[v]])
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in adj[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    b = lca(v, to)
                    blossom: set[int] = set()
                    mark_path(v, b, to, blossom)
                    mark_path(to, b, v, blossom)
                    for i in tree:
                        if base[i] in blossom:
                            base[i] = b
                            if not outer[i]:
                                outer[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    tree.append(to)
                    if mate[to] == -1:
                        while to != -1:
                            pv = parent[to]
                            nxt = mate[pv]
                            mate[to] = pv
                            mate[pv] = to
                            to = nxt
                        return True
                    m = mate[to]
                    outer[m] = True
                    tree.append(m)
                    queue.append(m)
        self.outer = outer
        return False

    def greedy(self, forward: list[list[int]]) -> None:
        """The seed's plain walk: each alive unpaired vertex, top down, takes its first alive unpaired candidate."""
        mate, alive = self.mate, self.alive
        for u in range(self.n):
            if not alive[u] or mate[u] != -1:
                continue
            for v in forward[u]:
                if alive[v] and mate[v] == -1:
                    mate[u] = v
                    mate[v] = u
                    break

    def complete(self) -> int:
        """Augment from every exposed alive vertex; returns the matching's size (then maximum, by Berge)."""
        for v in range(self.n):
            if self.alive[v] and self.mate[v] == -1:
                self.search(v)
        return sum(1 for v in range(self.n) if self.alive[v] and self.mate[v] != -1) // 2


def legal_graph(levels: Sequence[int], met: Sequence[set[int]], gap: int) -> tuple[list[list[int]], list[list[int]]]:
    """Forward (lower-ranked, in rank order) and full adjacency of the legal games among ranked players.

    Levels are non-increasing in rank order, so each player's partners within ``gap`` levels form one contiguous
    range below them, already sorted by level gap and then by rank.
    """
    n = len(levels)
    negated = [-x for x in levels]
    forward: list[list[int]] = []
    for i in range(n):
        hi = bisect_right(negated, -levels[i] + gap)
        excluded = met[i]
        forward.append([j for j in range(i + 1, hi) if j not in excluded])
    full: list[list[int]] = [list(f) for f in forward]
    for i, f in enumerate(forward):
        for j in f:
            full[j].append(i)
    return forward, full
