"""HTTP server for the devnet: per chain a subgraph (GraphQL) and a JSON-RPC endpoint, ground
truth, deployment info, fault injection and (with a manual clock) clock control.

    serve([config])          blocking, for `ve-devnet` (the local stack starts it)
    DevnetServer(...)        background server for tests: .url, .stop()
"""
from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from sanic import Sanic
from sanic.request import Request
from sanic.response import HTTPResponse, raw

from devnet.deployments import DEPLOYMENTS, chain_book
from devnet.timeutil import DAY, hour_start, iso
from devnet.clock import ManualClock, WallClock
from devnet.config import DevnetConfig
from devnet.model import ChainSim
from devnet.params import CHAIN_PARAMS, history_days_for
from devnet.synth import scaled_params
from devnet.sim.bridge import BridgeBook, chain_facts
from devnet.rpc.node import RpcNode
from devnet.subgraph.service import SubgraphService
from devnet import truth_bridge, truth_governance, xcore_service
from devnet.sim import liquidity_truth, rebase_truth
from devnet.sim.xcore import XcoreBook

log = logging.getLogger("devnet")

TARGETS = ("subgraph", "rpc")
MODES = ("ok", "error", "slow", "lag", "revise_prices", "hung")
# "hung": the request is accepted and held unanswered (a stuck provider) until the fault changes;
# then the held requests go on under the new setting (answered, or held again by a new "hung").
# Sanic's response timeout would answer them with a 503 after 60 s, so the app lifts it to
# HOLD_SECONDS, past any client timeout.
HOLD_SECONDS = 3600
# "revise_prices" (subgraph only): every TokenHourData priceUSD served is multiplied by `factor`,
# an upstream that rewrites its price history; the truth routes keep the true prices
SUBGRAPH_ONLY_MODES = ("revise_prices",)
# "vaults": calls to one vault (and its strategy), or every vault, revert ("error") or the RPC
# requests touching them are delayed ("slow"); not part of target "all"
VAULT_TARGET = "vaults"


_ADDRESS = re.compile(r"0[xX][0-9a-fA-F]{40}")


def _positive_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value > 0)


def _json(body: Any, status: int = 200) -> HTTPResponse:
    return raw(orjson.dumps(body), status=status, content_type="application/json")


# -- state ------------------------------------------------------------------------------------------
class ChainRuntime:
    def __init__(self, sim: ChainSim):
        self.sim = sim
        self.subgraph = SubgraphService(sim)
        self.rpc = RpcNode(sim)


@dataclass
class DevnetState:
    clock: Any
    chains: dict[int, ChainRuntime]
    faults: dict[tuple[int, str], dict] = field(default_factory=dict)
    started_at: float = field(default_factory=time.time)
    build_seconds: dict[int, float] = field(default_factory=dict)  # per chain: generation + indexes
    bridge: BridgeBook | None = None  # the cross-chain messages of every chain (sim/bridge.py)
    xcore: XcoreBook | None = None  # the escrow-share token on 56 and its representations (sim/xcore.py)

    # per (chain, target) with a "hung" fault: the event its held requests wait on, and how many
    # wait (both live on the server's event loop: only its handlers touch them)
    holds: dict[tuple[int, str], asyncio.Event] = field(default_factory=dict)
    held: dict[tuple[int, str], int] = field(default_factory=dict)

    def fault(self, chain_id: int, target: str) -> dict | None:
        return self.faults.get((chain_id, target))

    def set_fault(self, key: tuple[int, str], fault: dict | None) -> None:
        """Set (None: clear) a fault; requests held by a "hung" one are released."""
        if fault is None:
            self.faults.pop(key, None)
        else:
            self.faults[key] = fault
        hold = self.holds.pop(key, None)
        if hold is not None:
            hold.set()
        if fault is not None and fault["mode"] == "hung":
            self.holds[key] = asyncio.Event()

    async def hold_while_hung(self, chain_id: int, target: str) -> dict | None:
        """Wait while the target is hung; the fault in force once it is not."""
        key = (chain_id, target)
        while (fault := self.faults.get(key)) is not None and fault["mode"] == "hung":
            self.held[key] = self.held.get(key, 0) + 1
            try:
                await self.holds[key].wait()
            finally:
                self.held[key] -= 1
        return fault


def genesis_path(data_dir: Path, chain_id: int) -> Path:
    return Path(data_dir) / "devnet" / f"genesis-{chain_id}.json"


def resolve_genesis(data_dir: Path | None, chain_id: int, seed: int, history_days: float, block_time: int,
                    now: int) -> int:
    """Genesis of a chain: reused from <data_dir>/devnet/genesis-<chain>.json when the seed, block
    time and history length match, else floor_to_hour(now) - history and written there."""
    genesis = hour_start(now) - int(history_days * DAY)
    if data_dir is None:
        return genesis
    path = genesis_path(data_dir, chain_id)
    try:
        saved = json.loads(path.read_text())
        if (saved.get("seed") == seed and saved.get("blockTime") == block_time
                and saved.get("historyDays") == history_days and saved.get("chainId") == chain_id):
            return int(saved["genesisTimestamp"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({
        "chainId": chain_id, "seed": seed, "blockTime": block_time, "historyDays": history_days,
        "genesisTimestamp": genesis, "genesis": iso(genesis),
        "genesisBlock": CHAIN_PARAMS[chain_id].genesis_block,
    }, indent=2) + "\n")
    return genesis


def build_state(*, seed: int = 56, history_days: float | None = None, chains=None, scale: float = 1.0,
                genesis_ts: int | None = None, now: int | None = None, manual_clock: bool = False,
                data_dir: Path | None = None, contracts: dict[int, dict[str, str]] | None = None,
                pools: int | None = None, tokens: int | None = None) -> DevnetState:
    """Build every chain's simulation and generate its history (logs progress).

    chains: default every chain with parameters. history_days: None = each chain's own length,
    else an override for every chain (the young chain keeps min(override, its own)).
    genesis_ts: the genesis of every chain (single-chain tests); otherwise each chain's genesis
    is hour_start(now) - its history, with `now` the given one (reproducible multi-chain builds:
    `now=T, manual_clock=True`) or the clock's, persisted in data_dir. pools/tokens: grow every
    chain's tables to that many (devnet/synth.py).
    """
    chains = list(CHAIN_PARAMS) if chains is None else list(chains)
    for cid in chains:
        if cid not in CHAIN_PARAMS:
            raise KeyError(f"no devnet parameters for chain {cid}")
    params = {cid: scaled_params(CHAIN_PARAMS[cid], pools, tokens) for cid in chains}
    history = {cid: history_days_for(params[cid], history_days) for cid in chains}
    if manual_clock:
        if now is None:
            now = (genesis_ts + int(max(history.values()) * DAY)) if genesis_ts is not None else int(time.time())
        clock = ManualClock(now)
    else:
        clock = WallClock()
    runtimes: dict[int, ChainRuntime] = {}
    timings: dict[int, float] = {}
    start_now = clock.now() if now is None else now  # unserved chains' geneses (bridge), as at the start
    for cid in chains:
        t0 = time.perf_counter()
        bt = DEPLOYMENTS[cid].block_time_seconds
        days = history[cid]
        g = genesis_ts if genesis_ts is not None else resolve_genesis(
            data_dir, cid, seed, days, bt, clock.now() if now is None else now)
        sim = ChainSim(cid, seed, g, days, scale, clock, (contracts or {}).get(cid), params=params[cid])
        log.info("devnet chain %s: generating history from %s (%s days, %d pools, seed %s, scale %s)",
                 cid, iso(sim.genesis_ts), days, len(sim.pools), seed, scale)
        took = sim.generate_history()
        n = sim.counts()
        runtimes[cid] = rt = ChainRuntime(sim)
        rt.subgraph.warm()
        timings[cid] = time.perf_counter() - t0
        log.info("devnet chain %s: history ready in %.1fs (%.1fs with indexes): %d swaps, %d bribes, %d locks, "
                 "%d votes, %d claims", cid, took, timings[cid], n["swaps"], n["bribes"], n["locks"], n["votes"],
                 n["claims"])
    bridge = _build_bridge(runtimes, seed, history_days, data_dir, start_now)
    xcore = xcore_service.attach(runtimes, seed, bridge.chains, log)
    return DevnetState(clock=clock, chains=runtimes, build_seconds=timings, bridge=bridge, xcore=xcore)


def _build_bridge(runtimes: dict[int, ChainRuntime], seed: int, history_days: float | None, data_dir: Path | None,
                  now: int) -> BridgeBook:
    """The bridge book over every chain with an endpoint: a served chain's genesis is its
    simulation's, an unserved one's is resolved as if it were served (its own history length), so a
    message to or from it still exists on the served side. Generated up to the sims' horizon."""
    facts = {}
    for cid, d in DEPLOYMENTS.items():
        if d.bridge is None:
            continue
        rt = runtimes.get(cid)
        if rt is not None:
            facts[cid] = chain_facts(cid, rt.sim.genesis_ts, rt.sim.core.id)
        else:
            days = history_days_for(CHAIN_PARAMS[cid], history_days)
            facts[cid] = chain_facts(cid, resolve_genesis(data_dir, cid, seed, days, d.block_time_seconds, now))
    book = BridgeBook(seed, facts)
    for cid, rt in runtimes.items():
        if cid in facts:
            rt.sim.bridge = book.view(cid)
    t0 = time.perf_counter()
    for rt in runtimes.values():
        rt.sim.sync()
    log.info("devnet bridge: %d messages in %.1fs", len(book.messages), time.perf_counter() - t0)
    return book


# -- app --------------------------------------------------------------------------------------------
_app_counter = 0


async def _no_signal_handlers() -> None:
    return None


_RESERVED_SIGNAL_PREFIXES = ("http.", "server.")


class _DevnetApp(Sanic):
    """Sanic, minus the cost of lifecycle signals nobody listens to.

    Sanic dispatches about ten `http.*` signals per request; with no handler registered each is a
    failed route lookup (and, when not inline, a task): a good part of a small request's CPU.
    Sanic's TouchUp removes them by rewriting its classes process-wide, which cannot be used with
    several apps in one process (the tests run several devnets and the product's API together),
    so this app answers a reserved-namespace event at once while no signal of that namespace is
    registered (the outcome Sanic reaches after its failed lookup)."""

    __slots__ = ()

    def dispatch(self, event, *, condition=None, context=None, fail_not_found=True, inline=False, reverse=False):
        if type(event) is str and event.startswith(_RESERVED_SIGNAL_PREFIXES) and not self._listened(event):
            return _no_signal_handlers()
        return super().dispatch(event, condition=condition, context=context, fail_not_found=fail_not_found,
                                inline=inline, reverse=reverse)

    def _listened(self, event: str) -> bool:
        """Whether a signal of the event's namespace is registered."""
        index = self.signal_router.name_index
        cached = self.ctx.__dict__.get("_devnet_signal_prefixes")
        if cached is None or cached[0] != len(index):
            cached = (len(index), tuple({str(name).split(".", 1)[0] + "." for name in index}))
            self.ctx._devnet_signal_prefixes = cached
        return event.startswith(cached[1])


def create_app(state: DevnetState, name: str | None = None) -> Sanic:
    global _app_counter
    _app_counter += 1
    # configure_logging=False: Sanic's records go through the root logger (one line each)
    app = _DevnetApp(name or f"devnet_{_app_counter}", configure_logging=False)
    app.config.ACCESS_LOG = False
    app.config.MOTD = False
    app.config.KEEP_ALIVE_TIMEOUT = 30
    app.config.RESPONSE_TIMEOUT = HOLD_SECONDS  # a "hung" fault holds requests past Sanic's 60 s
    # TouchUp rewrites Sanic's protocol classes process-wide and fails when a second app in the
    # same process does it again (tests run several servers, and the API's own app, in one process)
    app.config.TOUCHUP = False
    app.ctx.devnet = state

    def runtime(chain_id: int) -> ChainRuntime | None:
        return state.chains.get(chain_id)

    def unknown(chain_id: int) -> HTTPResponse:
        return _json({"error": f"unknown chain {chain_id}", "chains": sorted(state.chains)}, 404)

    def body_json(request: Request):
        try:
            return orjson.loads(request.body or b"null")
        except orjson.JSONDecodeError:
            return ValueError

    @app.get("/health")
    async def health(request: Request):
        return _json({
            "ok": True,
            "now": state.clock.now(),
            "manualClock": bool(getattr(state.clock, "manual", False)),
            "chains": {str(cid): {"head": rt.sim.head(), "genesis": rt.sim.genesis_ts}
                       for cid, rt in state.chains.items()},
        })

    @app.post("/chains/<chain_id:int>/subgraph")
    async def subgraph(request: Request, chain_id: int):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        fault = await state.hold_while_hung(chain_id, "subgraph")
        lag, price_factor = 0, 1.0
        if fault:
            if fault.get("delayMs"):
                await asyncio.sleep(fault["delayMs"] / 1000)
            if fault["mode"] == "error":
                status = int(fault.get("status") or 500)
                return _json({"errors": [{"message": "devnet fault injection: subgraph error"}]}, status)
            if fault["mode"] == "lag":
                lag = int(fault.get("lagBlocks") or 0)
            if fault["mode"] == "revise_prices":
                price_factor = fault["factor"]
        body = body_json(request)
        if body is ValueError or not isinstance(body, dict):
            return _json({"errors": [{"message": "invalid JSON body: expected {\"query\": ..., \"variables\": ...}"}]}, 400)
        variables = body.get("variables")
        if variables is not None and not isinstance(variables, dict):
            return _json({"errors": [{"message": "variables must be an object"}]}, 400)
        try:
            answer = rt.subgraph.execute_json(body.get("query"), variables, body.get("operationName"), lag_blocks=lag,
                                              price_factor=price_factor)
        except Exception as exc:  # noqa: BLE001 - answer like an indexer would, and log it
            log.exception("subgraph query failed")
            return _json({"errors": [{"message": f"internal error: {exc!r}"}]})
        return raw(answer, content_type="application/json")

    @app.post("/chains/<chain_id:int>/rpc")
    async def rpc(request: Request, chain_id: int):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        fault = await state.hold_while_hung(chain_id, "rpc")
        lag = 0
        body = body_json(request)
        vfault = state.fault(chain_id, VAULT_TARGET)
        if vfault and vfault["mode"] == "slow":
            raw_body = (request.body or b"").lower()
            if any(a[2:].encode() in raw_body for a in vfault["addresses"]):
                await asyncio.sleep(vfault["delayMs"] / 1000)
        if fault:
            if fault.get("delayMs"):
                await asyncio.sleep(fault["delayMs"] / 1000)
            if fault["mode"] == "error":
                status = int(fault.get("status") or 500)
                err = {"code": -32603, "message": "devnet fault injection: internal error"}
                if isinstance(body, list):
                    return _json([{"jsonrpc": "2.0", "id": r.get("id") if isinstance(r, dict) else None,
                                   "error": err} for r in body], status)
                rid = body.get("id") if isinstance(body, dict) else None
                return _json({"jsonrpc": "2.0", "id": rid, "error": err}, status)
            if fault["mode"] == "lag":
                lag = int(fault.get("lagBlocks") or 0)
        if body is ValueError:
            return _json({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
        try:
            return _json(rt.rpc.handle(body, lag_blocks=lag))
        except Exception as exc:  # noqa: BLE001
            log.exception("rpc request failed")
            return _json({"jsonrpc": "2.0", "id": None, "error": {"code": -32603, "message": f"internal error: {exc!r}"}})

    def _int_arg(request: Request, name: str, default=None):
        value = request.args.get(name)
        if value is None or value == "":
            return default
        return int(value)

    def _owner_arg(request: Request) -> str | None:
        """The `owner` argument in lower case, None unless it is an address."""
        owner = (request.args.get("owner") or "").lower()
        return owner if re.fullmatch(r"0x[0-9a-f]{40}", owner) else None

    @app.get("/chains/<chain_id:int>/truth/flows")
    async def truth_flows(request: Request, chain_id: int):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        try:
            start = _int_arg(request, "from")
            end = _int_arg(request, "to")
        except ValueError:
            return _json({"error": "from and to must be integers (unix seconds)"}, 400)
        if start is None or end is None:
            return _json({"error": "from and to are required (unix seconds)"}, 400)
        return _json(rt.sim.flows(start, end, request.args.get("pool") or None))

    @app.get("/chains/<chain_id:int>/truth/state")
    async def truth_state(request: Request, chain_id: int):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        try:
            block = _int_arg(request, "block")
            return _json(rt.sim.state_at_block(block))
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)

    @app.get("/chains/<chain_id:int>/truth/ticks")
    async def truth_ticks(request: Request, chain_id: int):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        pool = request.args.get("pool") or ""
        if not _ADDRESS.fullmatch(pool):
            return _json({"error": "pool must be a 0x address (40 hex digits)"}, 400)
        try:
            block = _int_arg(request, "block")
            return _json(rt.sim.ticks_truth(pool, block))
        except LookupError as exc:
            return _json({"error": str(exc)}, 404)
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)

    @app.get("/chains/<chain_id:int>/truth/bribes")
    async def truth_bribes(request: Request, chain_id: int):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        try:
            epoch = _int_arg(request, "epoch")
        except ValueError:
            return _json({"error": "epoch must be an integer (unix seconds)"}, 400)
        if epoch is None:
            return _json({"epochs": rt.sim.bribe_totals()})
        return _json(rt.sim.bribe_totals(epoch))

    @app.get("/chains/<chain_id:int>/truth/votes")
    async def truth_votes(request: Request, chain_id: int):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        try:
            epoch = _int_arg(request, "epoch")
            block = _int_arg(request, "block")
        except ValueError:
            return _json({"error": "epoch and block must be integers"}, 400)
        if epoch is None:
            return _json({"error": "epoch is required (unix seconds)"}, 400)
        try:
            return _json(rt.sim.vote_totals(epoch, block))
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)

    def _gov_truth(request: Request, chain_id: int, fn, need_epoch: bool = False):
        """A governance truth route (devnet/truth_governance.py): `epoch` (required when asked) and
        `block` (default the head) from the query string."""
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        try:
            epoch = _int_arg(request, "epoch")
            block = _int_arg(request, "block")
        except ValueError:
            return _json({"error": "epoch and block must be integers"}, 400)
        if need_epoch and epoch is None:
            return _json({"error": "epoch is required (unix seconds)"}, 400)
        try:
            _ts, block = rt.sim._truth_ts(block)
            return _json(fn(rt.sim, epoch, block))
        except LookupError as exc:
            return _json({"error": str(exc)}, 404)
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)

    @app.get("/chains/<chain_id:int>/truth/gauge-epochs")
    async def truth_gauge_epochs(request: Request, chain_id: int):
        return _gov_truth(request, chain_id, truth_governance.gauge_epochs, need_epoch=True)

    @app.get("/chains/<chain_id:int>/truth/gauge-timeline")
    async def truth_gauge_timeline(request: Request, chain_id: int):
        return _gov_truth(request, chain_id, lambda sim, _epoch, block: truth_governance.gauge_timeline(sim, block))

    @app.get("/chains/<chain_id:int>/truth/vote-events")
    async def truth_vote_events(request: Request, chain_id: int):
        return _gov_truth(request, chain_id, truth_governance.vote_event_counts, need_epoch=True)

    @app.get("/chains/<chain_id:int>/truth/venft-allocations")
    async def truth_venft_allocations(request: Request, chain_id: int):
        """`tokenId` (optional: every veNFT holding an allocation), at `timestamp` or `block`."""
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        try:
            token = _int_arg(request, "tokenId")
            at = _int_arg(request, "timestamp")
            block = _int_arg(request, "block")
        except ValueError:
            return _json({"error": "tokenId, timestamp and block must be integers"}, 400)
        try:
            head_ts, _block = rt.sim._truth_ts(block)
            if at is not None and at > rt.sim.block_ts(rt.sim.head()):
                return _json({"error": f"timestamp {at} is after the head"}, 400)
            return _json(truth_governance.venft_allocations(rt.sim, head_ts if at is None else at, token))
        except LookupError as exc:
            return _json({"error": str(exc)}, 404)
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)

    @app.get("/chains/<chain_id:int>/truth/account-venfts")
    async def truth_account_venfts(request: Request, chain_id: int):
        """`owner` (required), at `block` (default the head)."""
        owner = _owner_arg(request)
        if owner is None:
            return _json({"error": "owner must be an address"}, 400)
        return _gov_truth(request, chain_id, lambda sim, _epoch, block: truth_governance.account_venfts(sim, owner, block))

    @app.get("/chains/<chain_id:int>/truth/account-rewards")
    async def truth_account_rewards(request: Request, chain_id: int):
        """`owner` (required), at `block` (default the head), with what an index saw before `until`."""
        owner = _owner_arg(request)
        if owner is None:
            return _json({"error": "owner must be an address"}, 400)
        try:
            until = _int_arg(request, "until")
        except ValueError:
            return _json({"error": "until must be an integer (unix seconds)"}, 400)
        return _gov_truth(request, chain_id,
                          lambda sim, _epoch, block: truth_governance.account_rewards(sim, owner, block, until))

    @app.get("/chains/<chain_id:int>/truth/account-liquidity")
    async def truth_account_liquidity(request: Request, chain_id: int):
        """`owner` (required), at `block` (default the head): open positions and liquidity events."""
        owner = _owner_arg(request)
        if owner is None:
            return _json({"error": "owner must be an address"}, 400)
        return _vault_truth(request, chain_id, liquidity_truth.account_liquidity, owner)

    @app.get("/chains/<chain_id:int>/truth/rebases")
    async def truth_rebases(request: Request, chain_id: int):
        """At `block` (default the head): every week's rebase checkpoint (devnet/sim/rebase_truth.py)."""
        return _vault_truth(request, chain_id, rebase_truth.rebases)

    @app.get("/chains/<chain_id:int>/truth/account-rebases")
    async def truth_account_rebases(request: Request, chain_id: int):
        """`owner` (required), at `block` (default the head): its veNFTs' unclaimed rebases and its claims."""
        owner = _owner_arg(request)
        if owner is None:
            return _json({"error": "owner must be an address"}, 400)
        return _vault_truth(request, chain_id, rebase_truth.account_rebases, owner)

    def _vault_truth(request: Request, chain_id: int, fn, *args):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        try:
            block = _int_arg(request, "block")
            return _json(fn(rt.sim, *args, block))
        except LookupError as exc:
            return _json({"error": str(exc)}, 404)
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)

    @app.get("/chains/<chain_id:int>/truth/vaults")
    async def truth_vaults(request: Request, chain_id: int):
        return _vault_truth(request, chain_id, lambda sim, block: sim.vault_truth(block))

    @app.get("/chains/<chain_id:int>/truth/vault-positions")
    async def truth_vault_positions(request: Request, chain_id: int):
        user = request.args.get("user") or ""
        if len(user) != 42 or not user.lower().startswith("0x"):
            return _json({"error": "user must be a 0x address"}, 400)
        return _vault_truth(request, chain_id, lambda sim, u, block: sim.vault_positions(u, block), user)

    @app.get("/chains/<chain_id:int>/truth/vault-events")
    async def truth_vault_events(request: Request, chain_id: int):
        vault = request.args.get("vault") or ""
        if not _ADDRESS.fullmatch(vault):
            return _json({"error": "vault must be a 0x address (40 hex digits)"}, 400)
        return _vault_truth(request, chain_id, lambda sim, v, block: sim.vault_events(v, block), vault)

    @app.get("/chains/<chain_id:int>/truth/vault-users")
    async def truth_vault_users(request: Request, chain_id: int):
        return _vault_truth(request, chain_id, lambda sim, block: sim.vault_users(block))

    @app.get("/chains/<chain_id:int>/truth/bridge")
    async def truth_bridge_messages(request: Request, chain_id: int):
        """`at=<chainId>:<unix>,...`: per chain the exclusive boundary of what is seen (devnet/truth_bridge.py)."""
        if runtime(chain_id) is None:
            return unknown(chain_id)
        if state.bridge is None:
            return _json({"error": "no bridge in this devnet"}, 404)
        try:
            at = truth_bridge.parse_at(request.args.get("at"))
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)
        unknown_ids = sorted(set(at) - set(DEPLOYMENTS))
        if unknown_ids:
            return _json({"error": f"unknown chains in at: {unknown_ids}"}, 400)
        now = state.clock.now()
        if max(at.values()) > now + 1:
            return _json({"error": f"at is after now ({now}): boundaries are at most now + 1"}, 400)
        return _json(truth_bridge.bridge_truth(state.bridge, at))

    xcore_service.add_routes(app, state)

    @app.get("/book")
    async def book(request: Request):
        """The served chains as the product's chain book (its `CHAIN_BOOK` configuration)."""
        base = f"{request.scheme}://{request.host}"
        return _json(chain_book(base, {cid: rt.sim.book_facts() for cid, rt in state.chains.items()}))

    @app.get("/chains/<chain_id:int>/deployment")
    async def deployment(request: Request, chain_id: int):
        rt = runtime(chain_id)
        if rt is None:
            return unknown(chain_id)
        return _json(rt.sim.deployment_info())

    @app.get("/control/faults")
    async def get_faults(request: Request):
        return _json({"faults": [{"chainId": cid, "target": target, **f,
                                  **({"held": state.held.get((cid, target), 0)} if f["mode"] == "hung" else {})}
                                 for (cid, target), f in sorted(state.faults.items())]})

    @app.post("/control/faults")
    async def set_faults(request: Request):
        body = body_json(request)
        if not isinstance(body, dict):
            return _json({"error": "expected a JSON object"}, 400)
        target = body.get("target")
        mode = body.get("mode", "ok")
        if target == VAULT_TARGET or (target in (None, "all") and mode == "ok"):
            err = _set_vault_fault(body, mode)
            if err or target == VAULT_TARGET:
                return _json({"error": err}, 400) if err else await get_faults(request)
        if target not in TARGETS and target not in (None, "all"):
            return _json({"error": f"target must be one of {TARGETS}"}, 400)
        if mode not in MODES:
            return _json({"error": f"mode must be one of {MODES}"}, 400)
        if mode in SUBGRAPH_ONLY_MODES and target != "subgraph":
            return _json({"error": f"mode {mode} applies to target subgraph only"}, 400)
        factor = body.get("factor")
        if mode == "revise_prices" and not _positive_number(factor):
            return _json({"error": "revise_prices needs a factor: a finite number above 0"}, 400)
        chain_ids = [body["chainId"]] if body.get("chainId") is not None else list(state.chains)
        targets = TARGETS if target in (None, "all") else (target,)
        for cid in chain_ids:
            if cid not in state.chains:
                return _json({"error": f"unknown chain {cid}"}, 400)
            for t in targets:
                if mode == "ok":
                    state.set_fault((cid, t), None)
                    continue
                fault = {"mode": mode}
                if mode == "slow":
                    fault["delayMs"] = int(body.get("delayMs") or 2000)
                elif body.get("delayMs"):
                    fault["delayMs"] = int(body["delayMs"])
                if mode == "lag":
                    fault["lagBlocks"] = int(body.get("lagBlocks") or 100)
                if mode == "error":
                    fault["status"] = int(body.get("status") or 500)
                if mode == "revise_prices":
                    fault["factor"] = float(factor)
                state.set_fault((cid, t), fault)
        return await get_faults(request)

    def _set_vault_fault(body: dict, mode: str) -> str | None:
        if mode not in ("ok", "error", "slow"):
            return f"mode for target {VAULT_TARGET} must be ok, error or slow"
        chain_ids = [body["chainId"]] if body.get("chainId") is not None else list(state.chains)
        for cid in chain_ids:
            rt = state.chains.get(cid)
            if rt is None:
                return f"unknown chain {cid}"
            book = rt.sim.vaults
            if mode == "ok":
                state.faults.pop((cid, VAULT_TARGET), None)
                rt.rpc.failing = set()
                continue
            wanted = body.get("vault")
            vaults = [book.vault(wanted)] if wanted else list(book.vaults)
            if None in vaults:
                return f"unknown vault {wanted}"
            addrs = sorted(a for v in vaults for a in (v.id, v.strategy.lower()))
            fault = {"mode": mode, "vault": wanted.lower() if wanted else None, "addresses": addrs}
            if mode == "slow":
                fault["delayMs"] = int(body.get("delayMs") or 2000)
            state.faults[(cid, VAULT_TARGET)] = fault
            rt.rpc.failing = set(addrs) if mode == "error" else set()
        return None

    @app.post("/control/clock")
    async def control_clock(request: Request):
        clock = state.clock
        if not getattr(clock, "manual", False):
            return _json({"error": "the server runs on the wall clock; start it with a manual clock"}, 409)
        body = body_json(request)
        if not isinstance(body, dict):
            return _json({"error": "expected a JSON object"}, 400)
        try:
            if body.get("advanceSeconds") is not None:
                clock.advance(int(body["advanceSeconds"]))
            elif body.get("setTimestamp") is not None:
                clock.set(int(body["setTimestamp"]))
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)
        heads = {str(cid): rt.sim.head() for cid, rt in state.chains.items()}
        return _json({"now": clock.now(), "heads": heads})

    @app.get("/control/clock")
    async def get_clock(request: Request):
        return _json({"now": state.clock.now(), "manual": bool(getattr(state.clock, "manual", False))})

    return app


def _summary(state: DevnetState, url: str) -> str:
    parts = []
    for cid, rt in state.chains.items():
        sim = rt.sim
        parts.append(f"chain {cid} genesis {iso(sim.genesis_ts)} (block {sim.genesis_block}) head {sim.head()} "
                     f"history {sim.history_days}d seed {sim.seed}")
    clock = "manual clock" if getattr(state.clock, "manual", False) else "wall clock"
    return f"devnet listening on {url}: " + "; ".join(parts) + f"; {clock}"


def serve(config: DevnetConfig | None = None, host: str | None = None, port: int | None = None, *,
          seed: int | None = None, history_days: float | None = None, scale: float = 1.0, chains=None,
          genesis_ts: int | None = None, now: int | None = None, manual_clock: bool = False,
          pools: int | None = None, tokens: int | None = None) -> None:
    """Build the simulation and serve it (blocking); unset arguments come from DEVNET_* variables."""
    config = config or DevnetConfig.from_env()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    host = host or config.host
    port = port if port is not None else config.port
    state = build_state(
        seed=config.seed if seed is None else seed,
        history_days=config.history_days if history_days is None else history_days,
        chains=list(chains) if chains else list(config.chains), scale=scale, genesis_ts=genesis_ts, now=now,
        manual_clock=manual_clock, data_dir=config.data_dir,
        pools=config.pools if pools is None else pools, tokens=config.tokens if tokens is None else tokens,
    )
    app = create_app(state, "devnet")
    log.info(_summary(state, f"http://{host}:{port}"))
    if config.workers <= 1:
        app.run(host=host, port=port, single_process=True, access_log=False, motd=False)
        return
    # Several processes on one listening socket (the kernel spreads connections): forked after the
    # history is built, so they share it copy-on-write and generate later hours identically.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    for _ in range(config.workers - 1):
        if os.fork() == 0:
            break  # a worker: serve like the parent
    app.run(sock=sock, single_process=True, access_log=False, motd=False)


class DevnetServer:
    """A devnet on a free local port, served from a background thread (for tests).

        with DevnetServer(seed=1, history_days=7, genesis_ts=..., manual_clock=True) as dn:
            Web3(Web3.HTTPProvider(dn.rpc_url(56)))
    """

    def __init__(self, *, seed: int = 56, history_days: float = 10, chains=(56,), scale: float = 1.0,
                 genesis_ts: int | None = None, now: int | None = None, manual_clock: bool = True,
                 host: str = "127.0.0.1", port: int = 0, data_dir: Path | None = None,
                 state: DevnetState | None = None, pools: int | None = None, tokens: int | None = None):
        self.host = host
        self._port = port
        self.state = state or build_state(seed=seed, history_days=history_days, chains=chains, scale=scale,
                                          genesis_ts=genesis_ts, now=now, manual_clock=manual_clock,
                                          data_dir=data_dir, pools=pools, tokens=tokens)
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.url = ""

    # convenience
    def sim(self, chain_id: int = 56) -> ChainSim:
        return self.state.chains[chain_id].sim

    def subgraph_url(self, chain_id: int = 56) -> str:
        return f"{self.url}/chains/{chain_id}/subgraph"

    def rpc_url(self, chain_id: int = 56) -> str:
        return f"{self.url}/chains/{chain_id}/rpc"

    def start(self) -> "DevnetServer":
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self._port))
        sock.listen(128)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        self.url = f"http://{self.host}:{self.port}"
        app = create_app(self.state)

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                server = loop.run_until_complete(app.create_server(
                    sock=sock, return_asyncio_server=True, access_log=False))
                loop.run_until_complete(server.startup())
                loop.run_until_complete(server.before_start())
                loop.run_until_complete(server.after_start())
                self._server = server
            except BaseException as exc:  # surface startup errors to the caller
                self._error = exc
                self._ready.set()
                return
            self._ready.set()
            try:
                loop.run_forever()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="devnet-server", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise RuntimeError(f"devnet server failed to start: {self._error}") from self._error
        log.info(_summary(self.state, self.url))
        return self

    async def _shutdown(self) -> None:
        server = self._server
        try:
            await server.before_stop()
            server.server.close()
            for conn in list(server.connections):
                conn.close_if_idle()
            await asyncio.sleep(0.02)
            for conn in list(server.connections):
                conn.close()
            await server.after_stop()
        finally:
            me = asyncio.current_task()
            tasks = [t for t in asyncio.all_tasks() if t is not me]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(10)
            except Exception:  # noqa: BLE001 - best-effort shutdown
                log.debug("devnet shutdown", exc_info=True)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(10)
        self._thread = None
        self._loop = None

    def __enter__(self) -> "DevnetServer":
        return self.start() if self._thread is None else self

    def __exit__(self, *exc) -> None:
        self.stop()
