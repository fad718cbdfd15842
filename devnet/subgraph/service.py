"""Executes subgraph queries against a `ChainSim`.

Parsing, validation and variable/argument coercion are graphql-core's. Execution has a fast
path (a small executor over plain dict rows, with per-selection plans) because graph-node
style pages of 1000 rows must answer in tens of milliseconds; introspection queries go through
graphql-core's own executor with the same resolvers.
"""
from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from typing import Any

import orjson

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
from devnet.timeutil import hour_start
from devnet.subgraph.entities import STATE_BUILDERS, SUBSET_BUILDERS, Context, StateCache, build_stores
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


_MASK_INTS = re.compile(r"(?<![\w.\"-])-?\d+(?![\w.])")
_INT_LITERAL = re.compile(r"-?(?:0|[1-9][0-9]*)")


def _masked(query: str) -> str:
    """The query text with its (likely) Int literals blanked, lengths kept: the template key."""
    return _MASK_INTS.sub(lambda m: "#" * len(m.group()), query)


class _Template:
    """A parsed, valid document whose Int literals differ from text to text (block numbers,
    epochs): a text equal to the template's except inside those literals (same lengths, so the
    same tokens at the same places) reuses the document with its IntValueNodes set to the text's
    values, and skips parsing. Validation is skipped as for any text whose shape is known valid."""

    __slots__ = ("text", "doc", "spans", "nodes", "pieces", "tokens")

    def __init__(self, text: str, doc, nodes: dict[int, Any]):
        self.text = text
        self.doc = doc
        spans, tokens = [], []
        tok = doc.loc.start_token
        while tok is not None:
            if tok.kind is TokenKind.INT:
                spans.append((tok.start, tok.end))
                tokens.append((None, tok.start, tok.end))
            elif tok.kind is not TokenKind.COMMENT:
                tokens.append((tok.kind, tok.value, None))
            tok = tok.next
        self.spans = spans
        self.nodes = [nodes[start] for start, _end in spans]
        pieces, pos = [], 0
        for start, end in spans:
            pieces.append(text[pos:start])
            pos = end
        pieces.append(text[pos:])
        self.pieces = pieces
        self.tokens = tokens

    def literals(self, query: str) -> list[str] | None:
        """The text's Int literals when it is this template with other Int values, else None."""
        if len(query) != len(self.text):
            return None
        values = [query[start:end] for start, end in self.spans]
        for v in values:
            if not _INT_LITERAL.fullmatch(v):
                return None
        rebuilt = [self.pieces[0]]
        for v, piece in zip(values, self.pieces[1:]):
            rebuilt.append(v)
            rebuilt.append(piece)
        return values if "".join(rebuilt) == query else None

    def shape(self, values: list[str]) -> tuple:
        """`_shape` of the text with these literals."""
        out: list = []
        ints: dict[str, int] = {}
        it = iter(values)
        for kind, value, _end in self.tokens:
            if kind is None:
                v = next(it)
                out.append(ints.setdefault(v, len(ints)) if int(v) in _INT32 else (TokenKind.INT, v))
            else:
                out.append((kind, value))
        return tuple(out)

    def assign(self, values: list[str]) -> list[tuple[Any, str]]:
        return list(zip(self.nodes, values))


def _int_nodes(doc) -> dict[int, Any]:
    from graphql.language import Visitor, visit

    found: dict[int, Any] = {}

    class _Collect(Visitor):
        def enter_int_value(self, node, *_args):
            found[node.loc.start] = node

    visit(doc, _Collect())
    return found


class _DocCache:
    """Parsed and validated documents by query text (LRU), the shapes known valid (LRU), and
    document templates by masked text (LRU).

    A text whose shape already validated cleanly skips validation (the dominant cost of a
    query), and a text that is a known template with other Int literals skips parsing too (its
    `assign` sets the shared document's literals before use, under the service's lock). Only
    successes are shared: errors carry the text's own locations and values, so a failing text
    is always parsed and validated by itself."""

    def __init__(self, size: int = 512, shapes: int = 512, templates: int = 256):
        self.size = size
        self.items: OrderedDict[str, tuple] = OrderedDict()
        self.shapes_size = shapes
        self.valid_shapes: OrderedDict[tuple, None] = OrderedDict()
        self.templates_size = templates
        self.templates: OrderedDict[str, _Template] = OrderedDict()

    def get(self, query: str) -> tuple:
        """(document, errors, assignments of Int literals to make before using the document)."""
        hit = self.items.get(query)
        if hit is not None:
            self.items.move_to_end(query)
        else:
            hit = self._from_template(query) or self._parse(query)
            self.items[query] = hit
            if len(self.items) > self.size:
                self.items.popitem(last=False)
        doc, errors, tmpl, values = hit
        return doc, errors, (tmpl.assign(values) if tmpl is not None else None)

    def _from_template(self, query: str):
        key = _masked(query)
        tmpl = self.templates.get(key)
        if tmpl is None:
            return None
        values = tmpl.literals(query)
        if values is None:
            return None
        shape = tmpl.shape(values)
        if shape not in self.valid_shapes:
            return None
        self.templates.move_to_end(key)
        self.valid_shapes.move_to_end(shape)
        return tmpl.doc, [], tmpl, values

    def _parse(self, query: str) -> tuple:
        try:
            doc = parse(query)
        except GraphQLError as exc:
            return None, [exc], None, None
        errors = self._validate(doc)
        if errors or doc.loc is None or "__schema" in query or "__type" in query:
            return doc, errors, None, None
        nodes = _int_nodes(doc)
        if not nodes:
            return doc, errors, None, None
        tmpl = _Template(query, doc, nodes)
        if len(tmpl.nodes) != len(nodes):
            return doc, errors, None, None
        self.templates[_masked(query)] = tmpl
        if len(self.templates) > self.templates_size:
            self.templates.popitem(last=False)
        return doc, errors, tmpl, [query[a:b] for a, b in tmpl.spans]

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


class _AnswerCache:
    """Encoded answers by (query text, variables, operation, indexed head) (LRU, bounded in bytes).

    The snapshot readers send several identical queries per snapshot (governance and market
    assets each read gauges, pools, votes, bribes at the same block). An answer is kept only when
    it has no errors and every block it read lies before the clock's hour (final: the simulation
    generates whole hours ahead, the newest hour is still being filled in, as for `StateCache`);
    the head is part of the key, so a `lag` fault or an advanced clock asks anew."""

    def __init__(self, max_bytes: int = 32 << 20, max_items: int = 512):
        self.max_bytes = max_bytes
        self.max_items = max_items
        self.bytes = 0
        self.items: OrderedDict[tuple, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> bytes | None:
        with self.lock:
            body = self.items.get(key)
            if body is not None:
                self.items.move_to_end(key)
            return body

    def put(self, key: tuple, body: bytes) -> None:
        if len(body) > self.max_bytes // 4:
            return
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.bytes -= len(old)
            self.items[key] = body
            self.bytes += len(body)
            while self.bytes > self.max_bytes or len(self.items) > self.max_items:
                _key, gone = self.items.popitem(last=False)
                self.bytes -= len(gone)


class SubgraphService:
    def __init__(self, sim):
        self.sim = sim
        self.stores = build_stores(sim)
        self.deployment = _deployment_id(sim.chain_id, sim.seed)
        self._docs = _DocCache()
        self._lock = threading.RLock()
        self.states = StateCache()
        self.answers = _AnswerCache()

    # -- public --------------------------------------------------------------------------------
    def warm(self) -> None:
        for name in ("Swap", "PoolHourData", "TokenHourData"):
            self.stores[name].warm()

    def execute(self, query: str, variables: dict | None = None, operation_name: str | None = None,
                lag_blocks: int = 0, price_factor: float = 1.0) -> dict:
        """The answer at the indexed head; `price_factor` (a `revise_prices` fault) multiplies every
        TokenHourData priceUSD served (filters and ordering still see the true prices)."""
        return self._execute(query, variables, operation_name, self.indexed_head(lag_blocks),
                             price_factor=price_factor)

    def execute_json(self, query: str, variables: dict | None = None, operation_name: str | None = None,
                     lag_blocks: int = 0, price_factor: float = 1.0) -> bytes:
        """`execute`'s answer as JSON bytes, from the answer cache when it is final."""
        head = self.indexed_head(lag_blocks)
        key = None
        if isinstance(query, str) and (operation_name is None or isinstance(operation_name, str)):
            try:
                key = (query, orjson.dumps(variables, option=orjson.OPT_SORT_KEYS) if variables else None,
                       operation_name, head, price_factor)
            except TypeError:
                key = None
        if key is not None:
            body = self.answers.get(key)
            if body is not None:
                return body
        blocks: list[int] = []
        result = self._execute(query, variables, operation_name, head, blocks, price_factor)
        body = orjson.dumps(result)
        if key is not None and "errors" not in result and blocks:
            final = hour_start(self.sim.now())
            if all(self.sim.block_ts(b) < final for b in blocks):
                self.answers.put(key, body)
        return body

    def _execute(self, query: str, variables: dict | None, operation_name: str | None, head: int,
                 blocks: list[int] | None = None, price_factor: float = 1.0) -> dict:
        """Answer at the indexed `head`; `blocks` (when given) collects the blocks read, and is
        left empty when what was read cannot be told (introspection)."""
        if not isinstance(query, str) or not query.strip():
            return {"errors": [_err("Must provide a query string.")]}
        # one query at a time: documents from a template are shared and get their literals set
        with self._lock:
            doc, errors, assign = self._docs.get(query)
            if errors:
                return {"errors": [e.formatted for e in errors]}
            if assign:
                for node, value in assign:
                    node.value = value
            return self._execute_doc(query, doc, variables, operation_name, head, blocks, price_factor)

    def _execute_doc(self, query: str, doc, variables: dict | None, operation_name: str | None, head: int,
                     blocks: list[int] | None, price_factor: float = 1.0) -> dict:
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
        if "__schema" in query or "__type" in query:
            return self._execute_slow(doc, op, variables, head, price_factor)
        fragments = {d.name.value: d for d in doc.definitions if isinstance(d, FragmentDefinitionNode)}
        coerced = get_variable_values(SCHEMA, op.variable_definitions or [], variables or {})
        if isinstance(coerced, list):
            return {"errors": [e.formatted for e in coerced]}
        runner = _Runner(self, fragments, coerced, head, blocks, price_factor)
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

    def root(self, name: str, args: dict, head: int, blocks: list[int] | None = None,
             price_factor: float = 1.0) -> tuple[Any, Context | None]:
        block = self.resolve_block(args.get("block"), head)
        if blocks is not None:
            blocks.append(block)
        if name == "_meta":
            return self.meta(block), None
        ctx = Context(self, block)
        entity = _SINGULAR.get(name)
        if entity is not None:
            row = ctx.entity(entity, str(args["id"]).lower())
            if entity == "TokenHourData" and row is not None and price_factor != 1.0:
                row = _revised(row, price_factor)
            return row, ctx
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
            subset = SUBSET_BUILDERS[entity](ctx, pred) if entity in SUBSET_BUILDERS else None
            candidates = ctx.state(entity).values() if subset is None else subset
            rows = page_rows(entity, candidates, pred, order_by, desc, first, skip)
        else:
            rows = self.stores[entity].query(ctx, pred, order_by, desc, first, skip)
            if entity == "TokenHourData" and price_factor != 1.0:
                rows = [_revised(r, price_factor) for r in rows]
        return rows, ctx

    # -- introspection (graphql-core's executor) -------------------------------------------------
    def _execute_slow(self, doc, op, variables, head, price_factor: float = 1.0) -> dict:
        holder = _SlowContext(self, head, price_factor)
        result = gql_execute(SCHEMA, doc, root_value=None, context_value=holder,
                             variable_values=variables, operation_name=op.name.value if op.name else None,
                             field_resolver=_slow_resolver)
        out: dict = {}
        if result.errors:
            out["errors"] = [e.formatted for e in result.errors]
        out["data"] = result.data
        return out


def _revised(row: dict, factor: float) -> dict:
    """A TokenHourData row as a `revise_prices` fault serves it: its priceUSD times `factor`."""
    return {**row, "priceUSD": float(row["priceUSD"]) * factor}


class _SlowContext:
    def __init__(self, svc: SubgraphService, head: int, price_factor: float = 1.0):
        self.svc = svc
        self.head = head
        self.price_factor = price_factor
        self.ctx: Context | None = None


def _slow_resolver(source, info, **args):
    holder: _SlowContext = info.context
    name = info.field_name
    if info.parent_type.name == "Query":
        try:
            value, ctx = holder.svc.root(name, args, holder.head, price_factor=holder.price_factor)
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
    def __init__(self, svc: SubgraphService, fragments, variables, head: int, blocks: list[int] | None = None,
                 price_factor: float = 1.0):
        self.svc = svc
        self.price_factor = price_factor
        self.fragments = fragments
        self.variables = variables
        self.head = head
        self.blocks = blocks
        self._plans: dict[tuple, list] = {}
        self._completers: dict[tuple, Any] = {}

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
            value, ctx = self.svc.root(name, args, self.head, self.blocks, self.price_factor)
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
        return self.completer(gtype, nodes)(value, ctx)

    def completer(self, gtype, nodes):
        """`value, ctx -> answer` for a field of type `gtype` selected by `nodes`, built once per
        query: the plan of every nested selection is resolved up front, not per row."""
        key = (id(gtype), id(nodes[0]))
        fn = self._completers.get(key)
        if fn is None:
            fn = self._completers[key] = self._build_completer(gtype, nodes)
        return fn

    def _build_completer(self, gtype, nodes):
        if isinstance(gtype, GraphQLNonNull):
            gtype = gtype.of_type
        if isinstance(gtype, GraphQLList):
            item = self.completer(gtype.of_type, nodes)

            def complete_list(value, ctx):
                if value is None:
                    return None
                return [item(v, ctx) for v in value]
            return complete_list
        compiled = []
        for rkey, name, mode, extra, fnodes in self.plan(gtype, nodes):
            if mode == _OBJECT:
                extra = (get_named_type(extra).name, self.completer(extra, fnodes))
            compiled.append((rkey, name, mode, extra))

        def complete_object(value, ctx):
            if value is None:
                return None
            out = {}
            get = value.get
            for rkey, name, mode, extra in compiled:
                if mode == _TYPENAME:
                    out[rkey] = extra
                    continue
                v = get(name)
                if v is None:
                    out[rkey] = None
                elif mode == _SCALAR:
                    out[rkey] = v
                elif mode == _BIGDEC:
                    out[rkey] = format_decimal(v)
                elif mode == _BIGINT:
                    out[rkey] = str(v)
                else:
                    entity, sub = extra
                    if isinstance(v, str):
                        v = ctx.entity(entity, v) if ctx is not None else None
                    out[rkey] = sub(v, ctx)
            return out
        return complete_object


__all__ = ["SubgraphService", "ENTITIES", "MAX_FIRST", "MAX_SKIP"]
