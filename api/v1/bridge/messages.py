"""Handlers of /v1/bridge and /v1/bridge/{guid}: the core token's cross-chain messages as the
events of both chains show them (bridge_messages.sql derives each state, in LayerZero Scan's words).

Each chain's side is read up to its observation boundary: its published snapshot's time, or the
end of its indexed bridge events when earlier (`coverage`). A message seen on one side only is
not lost: it is in flight (or its source is not indexed yet), and `missingSide` says which side
has shown nothing. A traversal pins the first page's boundaries in its cursor, so later
publications and later indexing do not move its pages.
"""
from __future__ import annotations

from typing import Any

from ...errors import ApiError
from ...cursors import filters_digest
from ...routes import RequestContext, runs
from ..common.decimals import units_text
from ..common.events_coverage import mark_incomplete, read_coverage
from ..common.flows import stamp
from ..common.traversal import chains_traversal, one_page

CURSOR_FORMAT = 1
BRIDGE_EVENTS = "bridge"  # their chain_coverage dataset (assets/bridge_events.py)
STATES = ("INFLIGHT", "CONFIRMING", "DELIVERED", "FAILED", "BLOCKED", "PAYLOAD_STORED")
TERMINAL = frozenset({"DELIVERED", "FAILED"})
RETRYABLE = frozenset({"PAYLOAD_STORED", "BLOCKED"})
MESSAGE_NOT_FOUND = "bridge_message_not_found"


def _iso_ms(ms: int | None) -> str | None:
    return None if ms is None else stamp(ms // 1000)


async def _coverage(ctx: RequestContext, chains, pinned: list | None) -> list[dict[str, Any]]:
    if pinned is not None:  # a later page: the first page's boundaries
        mark_incomplete(ctx, pinned)
        return pinned
    return (await read_coverage(ctx, chains, BRIDGE_EVENTS))[0]


def _finality(ctx: RequestContext) -> dict[int, int]:
    """Each chain's source finality (its confirmations x block time: the chain book's `bridge`)."""
    return {cid: chain.finality_seconds for cid, chain in ctx.app.ctx.settings.chains.items()}


def _query_values(covered: list[dict[str, Any]], finality: dict[int, int]) -> dict[str, list]:
    """The query's per-chain arrays; a chain never indexed shows nothing (its boundary at 0)."""
    return {"chain_ids": [c["chainId"] for c in covered],
            "bounds": [(c["indexedUntil"] or "1970-01-01T00:00:00Z").replace("T", " ").rstrip("Z") for c in covered],
            "finality": [finality.get(c["chainId"], 0) for c in covered]}


def record(r: dict[str, Any], finality: dict[int, int]) -> dict[str, Any]:
    state = r["state"]
    sent = r["sent_ms"] is not None
    seen_dst = bool(r["destination_seen"])
    transfer = None
    if r["src_amount_raw"] or r["dst_amount_raw"]:
        raw = r["src_amount_raw"] or r["dst_amount_raw"]
        decimals = r["src_token_decimals"] if r["src_token_decimals"] is not None else r["dst_token_decimals"]
        transfer = {
            "from": r["from_address"] or None, "to": r["to_address"] or None, "amountRaw": raw,
            "amount": None if decimals is None else units_text(int(raw), int(decimals)),
            "sourceToken": {"address": r["src_token"], "symbol": r["src_token_symbol"],
                            "decimals": r["src_token_decimals"]} if r["src_token"] else None,
            "destinationToken": {"address": r["dst_token"], "symbol": r["dst_token_symbol"],
                                 "decimals": r["dst_token_decimals"]} if r["dst_token"] else None,
        }
    src, dst = int(r["src_chain_id"]), int(r["dst_chain_id"])
    return {
        "guid": r["guid"],
        "state": state,
        "terminal": state in TERMINAL,
        "retryable": state in RETRYABLE,
        "missingSide": "destination" if sent and not seen_dst else ("source" if not sent else None),
        "nonce": int(r["nonce"]),
        "source": {"chainId": src, "eid": int(r["src_eid"]), "application": r["sender"],
                   "sentAt": _iso_ms(r["sent_ms"]), "blockNumber": int(r["sent_block"]) if sent else None,
                   "transactionHash": r["sent_tx"] if sent else None,
                   "finalitySeconds": finality.get(src)},
        "destination": {"chainId": dst, "eid": int(r["dst_eid"]), "application": r["receiver"],
                        "verifiedAt": _iso_ms(r["verified_ms"]),
                        "payloadStoredAt": _iso_ms(r["alert_ms"]),
                        "failedAt": _iso_ms(r["burnt_ms"]),
                        "deliveredAt": _iso_ms(r["delivered_ms"]),
                        "transactionHash": (r["delivered_tx"] if r["delivered_ms"] is not None
                                            else r["burnt_tx"] if r["burnt_ms"] is not None
                                            else r["alert_tx"] if r["alert_ms"] is not None
                                            else r["verified_tx"] if r["verified_ms"] is not None else None),
                        "executionAttemptsFailed": int(r["alerts"]),
                        "lastFailureReason": r["alert_reason"] or None},
        "transfer": transfer,
        "orderedAt": _iso_ms(r["order_at"]),
    }


def filters(ctx: RequestContext) -> dict[str, Any]:
    """The normalized filters: what the cursor binds to and the query takes."""
    p = ctx.params
    states = sorted(set(p["state"].split(","))) if p["state"] else []
    return {"srcChainId": p["srcChainId"] or 0, "dstChainId": p["dstChainId"] or 0,
            "address": (p["address"] or "").lower(), "states": states}


@runs("events_coverage", "bridge_messages")
async def messages(ctx: RequestContext) -> dict[str, Any]:
    f = filters(ctx)
    digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    c_at, c_guid = payload["key"] if payload else (0, "")
    covered = await _coverage(ctx, chains, payload["bounds"] if payload else None)
    finality = _finality(ctx)
    rows = await ctx.rows("bridge_messages", **_query_values(covered, finality), guid="", src_chain=f["srcChainId"],
                          dst_chain=f["dstChainId"], address=f["address"], states=f["states"],
                          after=int(payload is not None), c_at=c_at, c_guid=c_guid, limit=ctx.params["limit"] + 1)
    rows = one_page(ctx, rows, digest, CURSOR_FORMAT, tuple(chains), lambda last: [int(last["order_at"]), last["guid"]],
                    bounds=covered)
    return {"rows": [record(r, finality) for r in rows], "coverage": covered,
            "filters": {**f, "srcChainId": f["srcChainId"] or None, "dstChainId": f["dstChainId"] or None,
                        "address": f["address"] or None}}


@runs("events_coverage", "bridge_messages")
async def message(ctx: RequestContext) -> dict[str, Any]:
    guid = ctx.params["guid"].lower()
    chains = ctx.coverage.require_usable()
    covered = await _coverage(ctx, chains, None)
    finality = _finality(ctx)
    rows = await ctx.rows("bridge_messages", **_query_values(covered, finality), guid=guid, src_chain=0, dst_chain=0,
                          address="", states=[], after=0, c_at=0, c_guid="", limit=1)
    if not rows:
        raise ApiError(404, MESSAGE_NOT_FOUND, f"no indexed bridge message has guid {guid} (GET /v1/bridge lists them)",
                       details={"guid": guid})
    return {**record(rows[0], finality), "coverage": covered}
