"""Three-way merge of an ordered list of ids (sibling pages, blocks, files): who placed what, where.

Each side's list is compared with the base: the longest run of base items a side kept in the same
relative order is what it left in place (`stable_items`); everything else in its list it *placed*
(added, moved in from elsewhere, or moved within the list). The merged order is then:

- the **anchors**: items both sides left in place, in base order (consistent with both sides);
- after each anchor (or at the start), the items each side placed there, in that side's order. When
  both sides placed items after the same anchor, the two runs are interleaved around the items both
  placed (an identical insert or move on both sides) and otherwise concatenated, the run whose first
  id sorts first coming first. The rule is symmetric, so merge(base, A, B) == merge(base, B, A).

An item both sides placed at different spots (after different anchors, or in a different order among
the items both placed) is reported as contested: for pages "moved to different places". See
docs/merge.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field


def stable_items(base: Sequence[str], side: Sequence[str], prefer: Collection[str] = ()) -> set[str]:
    """The base items `side` kept in their relative order: a longest common subsequence of the two
    lists. Several may exist (of [a, b] -> [b, a], did a or b move?): among the longest, the one
    keeping the most `prefer` items is chosen (the items the other side moved: then the two sides do
    not both claim to have moved the same item), then a fixed one."""
    if list(side) == list(base):
        return set(base)  # nothing moved: the whole list is the one longest common subsequence
    in_side, in_base = set(side), set(base)
    common = [x for x in base if x in in_side]
    position = {item: index for index, item in enumerate(common)}
    sequence = [x for x in side if x in in_base]
    # Heaviest increasing subsequence of base positions, in side order: length first, then preferred
    # items. A Fenwick tree over positions gives the best chain ending below a position in O(log n).
    weight_of = {x: len(sequence) + 1 + (1 if x in prefer else 0) for x in sequence}
    size = len(common)
    tree: list[tuple[int, int]] = [(0, -1)] * (size + 1)  # (score, index in sequence)
    previous: list[int] = [-1] * len(sequence)
    score: list[int] = [0] * len(sequence)
    for index, item in enumerate(sequence):
        best, cursor = (0, -1), position[item]  # chains over positions < position[item]
        while cursor > 0:
            best = max(best, tree[cursor])
            cursor -= cursor & -cursor
        score[index], previous[index] = best[0] + weight_of[item], best[1]
        cursor = position[item] + 1
        while cursor <= size:
            tree[cursor] = max(tree[cursor], (score[index], index))
            cursor += cursor & -cursor
    kept: set[str] = set()
    cursor = max(range(len(sequence)), key=lambda i: (score[i], i), default=-1)
    while cursor >= 0:
        kept.add(sequence[cursor])
        cursor = previous[cursor]
    return kept


def moved_items(base: Sequence[str], ours: Sequence[str], theirs: Sequence[str]) -> tuple[set[str], set[str]]:
    """The base items each side moved within the list (kept but out of place), each side's guess
    informed by the other's (see `stable_items`): an item the other side moved, removed or moved
    away is preferably one this side left in place."""
    in_base = set(base)
    first = [in_base - stable_items(base, side) for side in (ours, theirs)]
    return (
        {x for x in ours if x in in_base} - stable_items(base, ours, first[1]),
        {x for x in theirs if x in in_base} - stable_items(base, theirs, first[0]),
    )


@dataclass
class Ordered:
    order: list[str]
    contested: list[str] = field(default_factory=list)  # placed differently by both sides
    replaced: list[str] = field(default_factory=list)  # base items both removed where both inserted


def _runs(side: Sequence[str], keep: Collection[str], anchors: Collection[str],
          placed: Collection[str]) -> tuple[dict[str | None, list[str]], dict[str, str | None]]:
    """The items `side` placed, grouped by the anchor they follow (None: the start of the list)."""
    runs: dict[str | None, list[str]] = {}
    anchor_of: dict[str, str | None] = {}
    anchor: str | None = None
    for item in side:
        if item not in keep:
            continue
        if item in anchors:
            anchor = item
        elif item in placed:
            runs.setdefault(anchor, []).append(item)
            anchor_of[item] = anchor
    return runs, anchor_of


def _combine(ours: list[str], theirs: list[str], contested: list[str]) -> list[str]:
    """Two runs placed after the same anchor, as one: split at the items both placed, each gap's two
    segments concatenated in the order of their first ids."""
    if ours == theirs:
        return list(ours)
    in_theirs, in_ours = set(theirs), set(ours)
    shared = [x for x in ours if x in in_theirs]
    if shared != [x for x in theirs if x in in_ours]:
        contested.extend(sorted(shared))
        return ours + [x for x in theirs if x not in in_ours]

    def segments(run: list[str]) -> list[list[str]]:
        out: list[list[str]] = [[]]
        for item in run:
            if item in in_ours and item in in_theirs:
                out.append([])
            else:
                out[-1].append(item)
        return out

    merged: list[str] = []
    for index, (mine, other) in enumerate(zip(segments(ours), segments(theirs), strict=True)):
        for segment in sorted((s for s in (mine, other) if s), key=lambda s: s[0]):
            merged.extend(segment)
        if index < len(shared):
            merged.append(shared[index])
    return merged


def merge_order(base: Sequence[str], ours: Sequence[str], theirs: Sequence[str],
                keep: Collection[str]) -> Ordered:
    """The merged order of the items in `keep` (what the merge keeps in this list, decided by the
    caller), from the three versions of the list."""
    keep = set(keep)
    if list(ours) == list(base) == list(theirs) and keep == set(base):
        return Ordered(list(base))  # a list neither side touched: most of a large tree
    in_base = set(base)
    moved_ours, moved_theirs = moved_items(base, ours, theirs)
    stable_ours = {x for x in ours if x in in_base and x not in moved_ours}
    stable_theirs = {x for x in theirs if x in in_base and x not in moved_theirs}
    anchors = [x for x in base if x in keep and x in stable_ours and x in stable_theirs]
    anchor_set = set(anchors)
    placed_ours = {x for x in ours if x in keep and x not in stable_ours}
    placed_theirs = {x for x in theirs if x in keep and x not in stable_theirs}
    runs_ours, anchor_ours = _runs(ours, keep, anchor_set, placed_ours)
    runs_theirs, anchor_theirs = _runs(theirs, keep, anchor_set, placed_theirs)
    result = Ordered([])
    for item in sorted(placed_ours & placed_theirs):
        if anchor_ours[item] != anchor_theirs[item]:
            result.contested.append(item)
    removed = {x for x in base if x not in ours and x not in theirs}
    index = {x: i for i, x in enumerate(base)}
    bounds = [-1, *(index[a] for a in anchors), len(base)]
    for position, anchor in enumerate([None, *anchors]):
        if anchor is not None:
            result.order.append(anchor)
        # Base items both sides removed between this anchor and the next, where both inserted
        # something different: with keys derived from content, that is both sides rewriting a block.
        gap = [x for x in base[bounds[position] + 1 : bounds[position + 1]] if x in removed]
        mine, other = runs_ours.get(anchor, []), runs_theirs.get(anchor, [])
        if gap and mine and other and mine != other:
            result.replaced.extend(gap)
        result.order.extend(_combine(mine, other, result.contested))
    result.order = list(dict.fromkeys(result.order))
    # An item neither side placed nor left in place can only come from an inconsistent caller (a
    # conflict already reported elsewhere): keep it rather than lose it.
    result.order += sorted(keep - set(result.order))
    return result
