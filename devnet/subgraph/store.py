"""Collection queries in The Graph's semantics: where filters, ordering, first/skip paging.

Two kinds of collections:
- `EventStore`: append-only records in time order (swaps, votes, bribes, claims, hour and day
  data). Visible at a block when their time is <= the block's timestamp. Indexed by id (sorted,
  for `id_gt` paging), by reference (pool, token, gauge, veNFT) and by time (bisect).
- state collections (pools, tokens, gauges, veNFTs, factories, bundles): small, rebuilt as of
  the requested block and filtered in memory.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any, Callable, Iterable

from devnet.subgraph.schema import ENTITIES, field_kind, is_ref


class QueryError(Exception):
    pass


def _is_address(v) -> bool:
    return isinstance(v, str) and len(v) == 42 and v[:2] in ("0x", "0X")


def _cmp_value(kind: str, v):
    if v is None:
        return None
    if kind == "BigDecimal":
        return float(v)
    if kind in ("ID", "String") and isinstance(v, str):
        return v
    return v


class Predicate:
    """A compiled `where` input: a list of (field, op, value) plus nested and/or."""

    __slots__ = ("terms", "ands", "ors", "entity")

    def __init__(self, entity: str, where: dict | None):
        self.entity = entity
        self.terms: list[tuple[str, str, Any, str]] = []
        self.ands: list[Predicate] = []
        self.ors: list[Predicate] = []
        kinds = {name: (field_kind(t) if not is_ref(t) else "ID") for name, t in ENTITIES[entity]}
        for key, value in (where or {}).items():
            if key == "and":
                self.ands = [Predicate(entity, w) for w in value or []]
                continue
            if key == "or":
                self.ors = [Predicate(entity, w) for w in value or []]
                continue
            field, op = key, "eq"
            for suffix in ("_not_in", "_in", "_not", "_gte", "_lte", "_gt", "_lt", "_contains", "_starts_with"):
                if key.endswith(suffix) and key[: -len(suffix)] in kinds:
                    field, op = key[: -len(suffix)], suffix[1:]
                    break
            kind = kinds[field]
            if kind == "ID" and value is not None:
                value = [v.lower() for v in value] if isinstance(value, list) else value.lower()
            elif kind == "String" and value is not None:  # addresses are stored lower-case
                if isinstance(value, list):
                    value = [v.lower() if _is_address(v) else v for v in value]
                elif _is_address(value):
                    value = value.lower()
            if op in ("in", "not_in"):
                value = {_cmp_value(kind, v) for v in value}
            else:
                value = _cmp_value(kind, value)
            self.terms.append((field, op, value, kind))

    def get(self, field: str, op: str = "eq"):
        for f, o, v, _k in self.terms:
            if f == field and o == op:
                return v
        return None

    def has(self, field: str, op: str = "eq") -> bool:
        return any(f == field and o == op for f, o, _v, _k in self.terms)

    def __call__(self, row: dict) -> bool:
        for field, op, value, kind in self.terms:
            v = row.get(field)
            if kind == "BigDecimal" and v is not None:
                v = float(v)
            if op == "eq":
                if v != value:
                    return False
            elif op == "not":
                if v == value:
                    return False
            elif op == "in":
                if v not in value:
                    return False
            elif op == "not_in":
                if v in value:
                    return False
            elif v is None or value is None:
                return False
            elif op == "gt":
                if not v > value:
                    return False
            elif op == "gte":
                if not v >= value:
                    return False
            elif op == "lt":
                if not v < value:
                    return False
            elif op == "lte":
                if not v <= value:
                    return False
            elif op == "contains":
                if value not in v:
                    return False
            elif op == "starts_with":
                if not v.startswith(value):
                    return False
        for p in self.ands:
            if not p(row):
                return False
        if self.ors and not any(p(row) for p in self.ors):
            return False
        return True


def sort_key(kind: str):
    if kind == "BigDecimal":
        return lambda row, f: (row.get(f) is not None, float(row.get(f) or 0.0))
    return lambda row, f: (row.get(f) is not None, row.get(f) if row.get(f) is not None else 0)


def field_kinds(entity: str) -> dict[str, str]:
    return {name: (field_kind(t) if not is_ref(t) else "ID") for name, t in ENTITIES[entity]}


def page_rows(entity: str, rows: Iterable[dict], pred: Predicate, order_by: str | None, desc: bool,
              first: int, skip: int) -> list[dict]:
    """Filter, sort (field then id) and page an in-memory collection."""
    matched = [r for r in rows if pred(r)]
    order_by = order_by or "id"
    kind = field_kinds(entity).get(order_by, "ID")
    if order_by == "id":
        matched.sort(key=lambda r: r["id"], reverse=desc)
    else:
        key = sort_key(kind)
        matched.sort(key=lambda r: (key(r, order_by), r["id"]), reverse=desc)
    return matched[skip: skip + first]


class EventStore:
    """Append-only, time-ordered records with id, reference and time indexes."""

    def __init__(self, entity: str, source: Callable[[], list], time_of: Callable[[Any], int],
                 id_of: Callable[[Any], str], refs: dict[str, Callable[[Any], str]],
                 view: Callable[[Any, Any], dict], time_fields: tuple[str, ...],
                 period: int | None = None):
        self.entity = entity
        self.source = source
        self.time_of = time_of
        self.id_of = id_of
        self.refs = refs
        self.view = view
        self.time_fields = time_fields
        self.period = period
        self.times: list[int] = []
        self.ref_index: dict[str, dict[str, list[int]]] = {f: {} for f in refs}
        self._ids: list[str] | None = None
        self._id_pos: list[int] | None = None
        self._sub_ids: dict[tuple[str, str], tuple[int, list[str], list[int]]] = {}
        self.n = 0

    def refresh(self) -> None:
        records = self.source()
        n0 = self.n
        if len(records) == n0:
            return
        times, time_of = self.times, self.time_of
        for i in range(n0, len(records)):
            rec = records[i]
            times.append(time_of(rec))
            for field, getter in self.refs.items():
                self.ref_index[field].setdefault(getter(rec), []).append(i)
        self.n = len(records)
        if self._ids is not None:
            if self.n - n0 > 2000:
                self._ids = self._id_pos = None
            else:
                for i in range(n0, self.n):
                    rid = self.id_of(records[i])
                    k = bisect_left(self._ids, rid)
                    self._ids.insert(k, rid)
                    self._id_pos.insert(k, i)

    def _global_ids(self) -> tuple[list[str], list[int]]:
        if self._ids is None:
            records = self.source()[: self.n]
            ids = [self.id_of(r) for r in records]
            order = sorted(range(len(ids)), key=ids.__getitem__)
            self._ids = [ids[i] for i in order]
            self._id_pos = order
        return self._ids, self._id_pos  # type: ignore[return-value]

    def _subset_ids(self, field: str, value: str, subset: list[int]) -> tuple[list[str], list[int]]:
        key = (field, value)
        hit = self._sub_ids.get(key)
        if hit is not None and hit[0] == len(subset):
            return hit[1], hit[2]
        records = self.source()
        pairs = sorted((self.id_of(records[i]), i) for i in subset)
        ids = [p[0] for p in pairs]
        pos = [p[1] for p in pairs]
        self._sub_ids[key] = (len(subset), ids, pos)
        return ids, pos

    def warm(self) -> None:
        """Index everything now (the first id-ordered query would otherwise pay for it)."""
        self.refresh()
        self._global_ids()

    def get(self, rid: str, ctx) -> dict | None:
        self.refresh()
        ids, pos = self._global_ids()
        k = bisect_left(ids, rid)
        if k < len(ids) and ids[k] == rid:
            i = pos[k]
            if self.times[i] <= ctx.ts:
                return self.view(self.source()[i], ctx)
        return None

    def query(self, ctx, pred: Predicate, order_by: str | None, desc: bool, first: int, skip: int) -> list[dict]:
        self.refresh()
        records = self.source()
        times = self.times
        limit_ts = ctx.ts
        want = skip + first
        out: list[dict] = []
        if first == 0:
            return out
        # candidate subset from a reference equality filter
        subset = None
        ref_field = ref_value = None
        for field in self.refs:
            v = pred.get(field)
            if v is not None:
                ref_field, ref_value = field, v
                subset = self.ref_index[field].get(v, [])
                break
            vin = pred.get(field, "in")
            if vin is not None:
                merged: list[int] = []
                for val in vin:
                    merged.extend(self.ref_index[field].get(val, []))
                merged.sort()
                subset = merged
                ref_field, ref_value = field, frozenset(vin)  # any hashable key for _subset_ids
                break

        # time bounds (inclusive) from the time-field filters and the block
        tf = self.time_fields[0]
        lo_t, hi_t = -(1 << 62), limit_ts
        for op, adj in (("gt", 1), ("gte", 0)):
            v = pred.get(tf, op)
            if v is not None:
                lo_t = max(lo_t, int(v) + adj)
        for op, adj in (("lt", -1), ("lte", 0)):
            v = pred.get(tf, op)
            if v is not None:
                hi_t = min(hi_t, int(v) + adj)
        v = pred.get(tf)
        if v is not None:
            lo_t, hi_t = max(lo_t, int(v)), min(hi_t, int(v))
        if lo_t > hi_t:
            return out

        def emit(i: int) -> bool:
            t = times[i]
            if t > hi_t or t < lo_t:
                return False
            row = self.view(records[i], ctx)
            if row is not None and pred(row):
                out.append(row)
            return len(out) >= want

        order_by = order_by or "id"
        if order_by == "id":
            if subset is None:
                ids, pos = self._global_ids()
            else:
                ids, pos = self._subset_ids(ref_field, ref_value, subset)
            lo, hi = 0, len(ids)
            v = pred.get("id", "gt")
            if v is not None:
                lo = max(lo, bisect_right(ids, v))
            v = pred.get("id", "gte")
            if v is not None:
                lo = max(lo, bisect_left(ids, v))
            v = pred.get("id", "lt")
            if v is not None:
                hi = min(hi, bisect_left(ids, v))
            v = pred.get("id", "lte")
            if v is not None:
                hi = min(hi, bisect_right(ids, v))
            v = pred.get("id")
            if v is not None:
                lo, hi = max(lo, bisect_left(ids, v)), min(hi, bisect_right(ids, v))
            rng = range(hi - 1, lo - 1, -1) if desc else range(lo, hi)
            for k in rng:
                if emit(pos[k]):
                    break
            return out[skip:]
        if order_by in self.time_fields:
            if subset is None:
                lo = bisect_left(times, lo_t)
                hi = bisect_right(times, hi_t)
                rng = range(hi - 1, lo - 1, -1) if desc else range(lo, hi)
                for i in rng:
                    if emit(i):
                        break
            else:
                tkey = times.__getitem__
                lo = bisect_left(subset, lo_t, key=tkey)
                hi = bisect_right(subset, hi_t, key=tkey)
                rng = range(hi - 1, lo - 1, -1) if desc else range(lo, hi)
                for k in rng:
                    if emit(subset[k]):
                        break
            return out[skip:]
        # any other ordering: filter everything visible, then sort
        if subset is not None:
            candidates = subset
        else:
            candidates = range(bisect_left(times, lo_t), bisect_right(times, hi_t))
        rows = []
        for i in candidates:
            if times[i] > hi_t or times[i] < lo_t:
                continue
            row = self.view(records[i], ctx)
            if row is not None and pred(row):
                rows.append(row)
        kind = field_kinds(self.entity).get(order_by, "ID")
        key = sort_key(kind)
        rows.sort(key=lambda r: (key(r, order_by), r["id"]), reverse=desc)
        return rows[skip: skip + first]
