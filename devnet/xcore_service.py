"""xCORE in the served devnet: the book attached to the served chains (their RPC contracts and
subgraph entities read it) and its truth routes (devnet/sim/xcore_truth.py), kept out of
server.py, which calls `attach` from build_state and `add_routes` from create_app.
"""
from __future__ import annotations

import time
from typing import Any

import orjson
from sanic.request import Request
from sanic.response import HTTPResponse, raw

from devnet.rpc.xcore import xcore_contracts
from devnet.sim import xcore_truth
from devnet.sim.bridge import ChainFacts
from devnet.sim.xcore import XCORE_CHAINS, XcoreBook, XcoreView


def attach(runtimes: dict, seed: int, facts: dict[int, ChainFacts], log) -> XcoreBook:
    """The book over the xCORE chains, served or not (`facts`: every chain's genesis and grid, as
    the bridge resolves them), a view on each served xCORE chain and its contracts on that
    chain's RPC; generated up to the served chains' horizon."""
    book = XcoreBook(seed, {cid: facts[cid] for cid in XCORE_CHAINS})
    for cid, rt in runtimes.items():
        if cid in XCORE_CHAINS:
            rt.sim.xcore = XcoreView(book, cid)
            for contract in xcore_contracts(rt.sim):
                rt.rpc.registry[contract.address.lower()] = contract
    t0 = time.perf_counter()
    for rt in runtimes.values():
        rt.sim.sync()
    log.info("devnet xCORE: %d events on 56, %d transfers in %.1fs", len(book.canonical.events),
             len(book.messages), time.perf_counter() - t0)
    return book


def _json(body: Any, status: int = 200) -> HTTPResponse:
    return raw(orjson.dumps(body), status=status, content_type="application/json")


def _int(request: Request, name: str) -> int | None:
    value = request.args.get(name)
    return None if value in (None, "") else int(value)


def add_routes(app, state) -> None:
    """`GET /chains/{id}/truth/xcore[/epochs|/rate|/accounts]` on a served chain with xCORE (the
    first three answer the canonical token's truth whichever xCORE chain is asked)."""

    def guard(chain_id: int) -> HTTPResponse | None:
        if chain_id not in state.chains:
            return _json({"error": f"unknown chain {chain_id}", "chains": sorted(state.chains)}, 404)
        if state.xcore is None or chain_id not in XCORE_CHAINS:
            return _json({"error": f"no xCORE on chain {chain_id}", "xcoreChains": list(XCORE_CHAINS)}, 404)
        return None

    def not_after_now(*instants: int) -> HTTPResponse | None:
        now = state.clock.now()
        if max(instants) > now:
            return _json({"error": f"instants are at most now ({now})"}, 400)
        return None

    @app.get("/chains/<chain_id:int>/truth/xcore")
    async def truth_xcore(request: Request, chain_id: int):
        """`at=<unix>` or `at=<chainId>:<unix>,...` (inclusive; a chain left out takes 56's)."""
        if (err := guard(chain_id)) is not None:
            return err
        try:
            at = xcore_truth.parse_at(request.args.get("at") or str(state.clock.now()))
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)
        if (err := not_after_now(*at.values())) is not None:
            return err
        return _json(xcore_truth.state(state.xcore, at, set(state.chains)))

    @app.get("/chains/<chain_id:int>/truth/xcore/epochs")
    async def truth_xcore_epochs(request: Request, chain_id: int):
        """`through=<unix>` (default now): every epoch up to the one containing it."""
        if (err := guard(chain_id)) is not None:
            return err
        try:
            through = _int(request, "through")
        except ValueError:
            return _json({"error": "through must be an integer (unix seconds)"}, 400)
        through = state.clock.now() if through is None else through
        if (err := not_after_now(through)) is not None:
            return err
        return _json(xcore_truth.epochs(state.xcore, through))

    @app.get("/chains/<chain_id:int>/truth/xcore/rate")
    async def truth_xcore_rate(request: Request, chain_id: int):
        """`at=<unix>` (default now), or a series `from&to&step` (seconds, at most 10,000 points)."""
        if (err := guard(chain_id)) is not None:
            return err
        try:
            at, start, end, step = (_int(request, n) for n in ("at", "from", "to", "step"))
        except ValueError:
            return _json({"error": "at, from, to and step must be integers (seconds)"}, 400)
        if start is not None or end is not None:
            if start is None or end is None or step is None:
                return _json({"error": "a series needs from, to and step"}, 400)
            if (err := not_after_now(end)) is not None:
                return err
            try:
                return _json(xcore_truth.rate_series(state.xcore, start, end, step))
            except ValueError as exc:
                return _json({"error": str(exc)}, 400)
        at = state.clock.now() if at is None else at
        if (err := not_after_now(at)) is not None:
            return err
        return _json(xcore_truth.rate_at(state.xcore, at))

    @app.get("/chains/<chain_id:int>/truth/xcore/accounts")
    async def truth_xcore_accounts(request: Request, chain_id: int):
        """`at=<unix>` (default now): every account's balance on this chain."""
        if (err := guard(chain_id)) is not None:
            return err
        try:
            at = _int(request, "at")
        except ValueError:
            return _json({"error": "at must be an integer (unix seconds)"}, 400)
        at = state.clock.now() if at is None else at
        if (err := not_after_now(at)) is not None:
            return err
        return _json(xcore_truth.accounts(state.xcore, chain_id, at))


__all__ = ["add_routes", "attach"]
