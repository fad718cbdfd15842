"""Executes subgraph queries against a `ChainSim`.

Parsing, validation and variable/argument coercion are graphql-core's. Execution has a fast
path (a small executor over plain dict rows, with per-selection plans) because graph-node
style pages of 1000 rows must answer in tens of milliseconds; introspection queries go through
graphql-core's own executor with the same resolvers.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

from graphql.pyutils import Undefined

from graphql import (
    GraphQLError,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    OperationType,
    execute as gql_execute,
    get_named_type,
    parse,
    validate,
)
from graphql.execution.collect_fields import collect_fields, collect_sub_fields
from graphql.execution.values import get_argument_values, get_variable_values
from graphql.language import FragmentDefinitionNode, OperationDefinitionNode, TokenKind

from graphql.type import GraphQLList as _List, GraphQLNonNull as _NonNull
from graphql.utilities import type_from_ast
from graphql.validation import ValidationRule, VariablesInAllowedPositionRule, specified_rules

from devnet.addresses import block_number_from_hash
from devnet.subgraph.entities import STATE_BUILDERS, Context, StateCache, build_stores
from devnet.subgraph.schema import ENTITIES, QUERY_FIELDS, SCHEMA, format_decimal
from devnet.subgraph.store import Predicate, QueryError, page_rows

MAX_FIRST = 1000
MAX_SKIP = 5000

_SINGULAR = {one: entity for entity, (one, _many) in QUERY_FIELDS.items()}
_PLURAL = {many: entity for entity, (_one, many) in QUERY_FIELDS.items()}

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _deployment_id(chain_id: int, seed: int) -> str:
    n = int.from_bytes(b"\x12\x20" + hashlib.sha256(f"devnet-subgraph:{chain_id}:{seed}".encode()).digest(), "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = _B58[r] + out
    return out


_CANONICAL = {"ID": "String", "BigInt": "Int"}


def _compatible(var_type, loc_type) -> bool:
    """Variable usage check of the spec, except that ID/String and Int/BigInt are interchangeable
    (readers declare `$id: String!` or `$ts: Int!` as often as the exact type)."""
    if isinstance(loc_type, _NonNull):
        return isinstance(var_type, _NonNull) and _compatible(var_type.of_type, loc_type.of_type)
    if isinstance(var_type, _NonNull):
        return _compatible(var_type.of_type, loc_type)
    if isinstance(loc_type, _List):
        return isinstance(var_type, _List) and _compatible(var_type.of_type, loc_type.of_type)
    if isinstance(var_type, _List):
        return False
    return _CANONICAL.get(var_type.name, var_type.name) == _CANONICAL.get(loc_type.name, loc_type.name)


class _LenientVariablesInAllowedPosition(ValidationRule):
    def __init__(self, context):
        super().__init__(context)
        self.var_defs: dict = {}

    def enter_operation_definition(self, *_args):
        self.var_defs.clear()

    def enter_variable_definition(self, node, *_args):
        self.var_defs[node.variable.name.value] = node

    def leave_operation_definition(self, operation, *_args):
        for usage in self.context.get_recursive_variable_usages(operation):
            var_def = self.var_defs.get(usage.node.name.value)
            if not var_def or not usage.type:
                continue
            var_type = type_from_ast(self.context.schema, var_def.type)
            if var_type is None:
                continue
            loc_type = usage.type
            if isinstance(loc_type, _NonNull) and not isinstance(var_type, _NonNull):
                has_default = (var_def.default_value is not None
                               and type(var_def.default_value).__name__ != "NullValueNode")
                if has_default or usage.default_value is not Undefined:
                    loc_type = loc_type.of_type
            if not _compatible(var_type, loc_type):
                self.report_error(GraphQLError(
                    f"Variable '${usage.node.name.value}' of type '{var_type}' used"
                    f" in position expecting type '{usage.type}'.", [var_def, usage.node]))


RULES = [r for r in specified_rules if r is not VariablesInAllowedPositionRule] + [_LenientVariablesInAllowedPosition]


_INT32 = range(-(1 << 31), 1 << 31)


def _shape(doc) -> tuple | None:
    """What validation can see of a parsed query, with its 32-bit Int literals abstracted.

    Readers inline block numbers and epochs, so nearly every query text is new while its shape
    repeats. Validation depends on such a literal only through its kind, its 32-bit range (Int)
    and its equality with other literals (OverlappingFieldsCanBeMerged compares arguments), so
    each Int literal in range becomes the index of its first distinct value; every other token
    is kept as is (string literals can be invalid BigInt/BigDecimal values)."""
    if doc.loc is None:
        return None
    out: list = []
    ints: dict[str, int] = {}
    tok = doc.loc.start_token
    while tok is not None:
        if tok.kind is TokenKind.INT and int(tok.value) in _INT32:
            out.append(ints.setdefault(tok.value, len(ints)))
        elif tok.kind is not TokenKind.COMMENT:
            out.append((tok.kind, tok.value))
        tok = tok.next
    return tuple(out)


class _DocCache:
    """Parsed and validated documents by query text (LRU), and the shapes known valid (LRU).

    A text whose shape already validated cleanly skips validation (the dominant cost of a
    query). Only successes are shared: errors carry the text's own locations and values, so a
    failing text is always validated by itself."""

    def __init__(self, size: int = 512, shapes: int = 512):
        self.size = size
        self.items: OrderedDict[str, tuple] = OrderedDict()
        self.shapes_size = shapes
        self.valid_shapes: OrderedDict[tuple, None] = OrderedDict()

    def get(self, query: str):
        hit = self.items.get(query)
        if hit is not None:
            self.items.move_to_end(query)
            return hit
        try:
            doc = parse(query)
        except GraphQLError as exc:
            hit = (None, [exc])
        else:
            hit = (doc, self._validate(doc))
        self.items[query] = hit
        if len(self.items) > self.size:
            self.items.popitem(last=False)
        return hit

    def _validate(self, doc) -> list:
        shape = _shape(doc)
        if shape is not None and shape in self.valid_shapes:
            self.valid_shapes.move_to_end(shape)
            return []
        errors = validate(SCHEMA, doc, RULES)
        if not errors and shape is not None:
            self.valid_shapes[shape] = None
            if len(self.valid_shapes) > self.shapes_size:
                self.valid_shapes.popitem(last=False)
        return errors


def _err(message: str, **extra) -> dict:
    out = {"message": message}
    out.update(extra)
    return out


class SubgraphService:
    def __init__(self, sim):
        self.sim = sim
        self.stores = build_stores(sim)
        self.deployment = _deployment_id(sim.chain_id, sim.seed)
        self._docs = _DocCache()
        self.states = StateCache()

    # -- public --------------------------------------------------------------------------------
    def warm(self) -> None:
        for name in ("Swap", "PoolHourData", "TokenHourData"):
            self.stores[name].warm()

    def execute(self, query: str, variables: dict | None = None, operation_name: str | None = None,
                lag_blocks: int = 0) -> dict:
        if not isinstance(query, str) or not query.strip():
            return {"errors": [_err("Must provide a query string.")]}
        doc, errors = self._docs.get(query)
        if errors:
            return {"errors": [e.formatted for e in errors]}
        ops = [d for d in doc.definitions if isinstance(d, OperationDefinitionNode)]
        if operation_name:
            ops = [o for o in ops if o.name and o.name.value == operation_name]
            if not ops:
                return {"errors": [_err(f"Unknown operation named '{operation_name}'.")]}
        elif len(ops) > 1:
            return {"errors": [_err("Must provide operation name if query contains multiple operations.")]}
        op = ops[0]
        if op.operation != OperationType.QUERY:
            return {"errors": [_err("Only queries are supported.")]}
        head = self.indexed_head(lag_blocks)
        if "__schema" in query or "__type" in query:
            return self._execute_slow(doc, op, variables, head)
        fragments = {d.name.value: d for d in doc.definitions if isinstance(d, FragmentDefinitionNode)}
        coerced = get_variable_values(SCHEMA, op.variable_definitions or [], variables or {})
        if isinstance(coerced, list):
            return {"errors": [e.formatted for e in coerced]}
        runner = _Runner(self, fragments, coerced, head)
        try:
            data = runner.run(op)
        except QueryError as exc:
            return {"errors": [_err(str(exc))]}
        except GraphQLError as exc:
            return {"errors": [exc.formatted]}
        return {"data": data}

    def head_meta(self, lag_blocks: int = 0) -> dict:
        return self.meta(self.indexed_head(lag_blocks))

    def indexed_head(self, lag_blocks: int = 0) -> int:
        """The block the subgraph has indexed up to: the chain head, minus the chain's persistent
        indexing lag (`ChainParams.subgraph_lag_seconds`, never below the start block), minus a
        `lag` fault's blocks."""
        sim = self.sim
        head = sim.head()
        lag_s = sim.params.subgraph_lag_seconds
        if lag_s > 0:
            head = max(head - lag_s // sim.block_time, min(head, sim.genesis_block))
        return max(head - max(int(lag_blocks), 0), 0)

    # -- resolution ----------------------------------------------------------------------------
    def meta(self, block: int) -> dict:
        sim = self.sim
        return {
            "block": {"number": block, "timestamp": sim.block_ts(block), "hash": sim.block_hash(block),
                      "parentHash": sim.block_hash(block - 1)},
            "deployment": self.deployment,
            "hasIndexingErrors": False,
        }

    def resolve_block(self, arg: dict | None, head: int) -> int:
        if not arg:
            return head
        if arg.get("hash"):
            n = block_number_from_hash(self.sim.chain_id, self.sim.seed, arg["hash"])
            if n is None:
                raise QueryError("Failed to decode `block.hash` value: `no block with that hash found`")
        elif arg.get("number") is not None:
            n = int(arg["number"])
        elif arg.get("number_gte") is not None:
            n = int(arg["number_gte"])
            if n <= head:
                n = head
        else:
            return head
        if n > head:
            raise QueryError(
                f"Failed to decode `block.number` value: `subgraph {self.deployment} has only indexed up to "
                f"block number {head} and data for block number {n} is therefore not yet available`")
        if n < 0:
            raise QueryError(f"Failed to decode `block.number` value: `{n}` is not a valid block number")
        return n

    def root(self, name: str, args: dict, head: int) -> tuple[Any, Context | None]:
        block = self.resolve_block(args.get("block"), head)
        if name == "_meta":
            return self.meta(block), None
        ctx = Context(self, block)
        entity = _SINGULAR.get(name)
        if entity is not None:
            return ctx.entity(entity, str(args["id"]).lower()), ctx
        entity = _PLURAL[name]
        first = args.get("first", 100)
        skip = args.get("skip", 0)
        if first is None:
            first = 100
        if skip is None:
            skip = 0
        if not isinstance(first, int) or not isinstance(skip, int):
            raise QueryError("`first` and `skip` must be integers")
        if not 0 <= first <= MAX_FIRST:
            raise QueryError(f"The `first` argument must be between 0 and {MAX_FIRST}, but is {first}")
        if not 0 <= skip <= MAX_SKIP:
            raise QueryError(f"The `skip` argument must be between 0 and {MAX_SKIP}, but is {skip}")
        pred = Predicate(entity, args.get("where"))
        order_by = args.get("orderBy")
        desc = args.get("orderDirection") == "desc"
        if entity in STATE_BUILDERS:
            rows = page_rows(entity, ctx.state(entity).values(), pred, order_by, desc, first, skip)
        else:
            rows = self.stores[entity].query(ctx, pred, order_by, desc, first, skip)
        return rows, ctx

    # -- introspection (graphql-core's executor) -------------------------------------------------
    def _execute_slow(self, doc, op, variables, head) -> dict:
        holder = _SlowContext(self, head)
        result = gql_execute(SCHEMA, doc, root_value=None, context_value=holder,
                             variable_values=variables, operation_name=op.name.value if op.name else None,
                             field_resolver=_slow_resolver)
        out: dict = {}
        if result.errors:
            out["errors"] = [e.formatted for e in result.errors]
        out["data"] = result.data
        return out


class _SlowContext:
    def __init__(self, svc: SubgraphService, head: int):
        self.svc = svc
        self.head = head
        self.ctx: Context | None = None


def _slow_resolver(source, info, **args):
    holder: _SlowContext = info.context
    name = info.field_name
    if info.parent_type.name == "Query":
        try:
            value, ctx = holder.svc.root(name, args, holder.head)
        except QueryError as exc:
            raise GraphQLError(str(exc)) from None
        holder.ctx = ctx
        return value
    value = source.get(name) if isinstance(source, dict) else getattr(source, name, None)
    named = get_named_type(info.return_type)
    if isinstance(named, GraphQLObjectType) and isinstance(value, str) and holder.ctx is not None:
        return holder.ctx.entity(named.name, value)
    return value


# -- fast executor -------------------------------------------------------------------------------
_SCALAR, _BIGINT, _BIGDEC, _OBJECT, _TYPENAME = range(5)


class _Runner:
    def __init__(self, svc: SubgraphService, fragments, variables, head: int):
        self.svc = svc
        self.fragments = fragments
        self.variables = variables
        self.head = head
        self._plans: dict[tuple, list] = {}

    def run(self, op) -> dict:
        fields = collect_fields(SCHEMA, self.fragments, self.variables, SCHEMA.query_type, op.selection_set)
        data: dict = {}
        qtype = SCHEMA.query_type
        for key, nodes in fields.items():
            node = nodes[0]
            name = node.name.value
            if name == "__typename":
                data[key] = "Query"
                continue
            fdef = qtype.fields[name]
            args = get_argument_values(fdef, node, self.variables)
            value, ctx = self.svc.root(name, args, self.head)
            data[key] = self.complete(fdef.type, value, nodes, ctx)
        return data

    def plan(self, otype: GraphQLObjectType, nodes) -> list:
        key = (otype.name, id(nodes[0]))
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        plan = []
        sub = collect_sub_fields(SCHEMA, self.fragments, self.variables, otype, nodes)
        for rkey, fnodes in sub.items():
            name = fnodes[0].name.value
            if name == "__typename":
                plan.append((rkey, name, _TYPENAME, otype.name, None))
                continue
            fdef = otype.fields[name]
            named = get_named_type(fdef.type)
            if isinstance(named, GraphQLObjectType):
                plan.append((rkey, name, _OBJECT, fdef.type, fnodes))
            elif named.name == "BigInt":
                plan.append((rkey, name, _BIGINT, None, None))
            elif named.name == "BigDecimal":
                plan.append((rkey, name, _BIGDEC, None, None))
            else:
                plan.append((rkey, name, _SCALAR, None, None))
        self._plans[key] = plan
        return plan

    def complete(self, gtype, value, nodes, ctx):
        if isinstance(gtype, GraphQLNonNull):
            gtype = gtype.of_type
        if value is None:
            return None
        if isinstance(gtype, GraphQLList):
            inner = gtype.of_type
            return [self.complete(inner, v, nodes, ctx) for v in value]
        plan = self.plan(gtype, nodes)
        out = {}
        for rkey, name, mode, extra, fnodes in plan:
            if mode == _TYPENAME:
                out[rkey] = extra
                continue
            v = value.get(name)
            if v is None:
                out[rkey] = None
            elif mode == _BIGDEC:
                out[rkey] = format_decimal(v)
            elif mode == _BIGINT:
                out[rkey] = str(v)
            elif mode == _SCALAR:
                out[rkey] = v
            else:
                if isinstance(v, str):
                    v = ctx.entity(get_named_type(extra).name, v) if ctx is not None else None
                out[rkey] = self.complete(extra, v, fnodes, ctx)
        return out


__all__ = ["SubgraphService", "ENTITIES", "MAX_FIRST", "MAX_SKIP"]
