"""Bridge truth: every message as observers bounded per chain would see it, its state computed
from the lifecycle times of the schedule (devnet/sim/bridge.py), not from the served events.

`at` maps a chain to an exclusive boundary: an event of chain c is seen when its timestamp <
at[c]. A chain absent from `at`, or not served (nothing can observe it), sees nothing.
"""
from __future__ import annotations

from bisect import bisect_left

from devnet.sim.bridge import BridgeBook, Message, event_tx
from devnet.timeutil import HOUR, hour_start

TERMINAL = frozenset({"DELIVERED", "FAILED"})
RETRYABLE = frozenset({"PAYLOAD_STORED", "BLOCKED"})


def parse_at(text: str | None) -> dict[int, int]:
    """`<chainId>:<unix>,<chainId>:<unix>,...` -> {chain: boundary}; ValueError when malformed."""
    if not text:
        raise ValueError("at is required: <chainId>:<unix>[,<chainId>:<unix>...]")
    out: dict[int, int] = {}
    for part in text.split(","):
        cid, sep, ts = part.strip().partition(":")
        if not sep:
            raise ValueError(f"bad at entry {part!r}: expected <chainId>:<unix>")
        out[int(cid)] = int(ts)
    return out


def _seen(ts: int | None, bound: int | None) -> bool:
    return ts is not None and bound is not None and ts < bound


def _first_stored(book: BridgeBook, bounds: dict[int, int]) -> dict[tuple[int, int], int]:
    """Per pathway, the lowest nonce whose alert is seen and neither its delivery nor its burn
    (all as of the destination's boundary)."""
    out = {}
    for (src, dst), alerted in book.alerted.items():
        b = bounds.get(dst)
        for m in alerted:  # nonce order
            if _seen(m.alert, b) and not _seen(m.delivered, b) and not _seen(m.burnt, b):
                out[(src, dst)] = m.nonce
                break
    return out


def _state(book: BridgeBook, m: Message, bs: int | None, bd: int | None, first_stored: dict) -> str:
    if _seen(m.delivered, bd):
        return "DELIVERED"
    if _seen(m.burnt, bd):
        return "FAILED"
    if _seen(m.alert, bd):
        return "PAYLOAD_STORED"
    if _seen(m.verified, bd):
        return "BLOCKED" if first_stored.get((m.src, m.dst), m.nonce) < m.nonce else "INFLIGHT"
    return "CONFIRMING" if bs - m.sent < book.chains[m.src].finality else "INFLIGHT"


def bridge_truth(book: BridgeBook, at: dict[int, int]) -> dict:
    """`{"messages": [...]}`, newest first: (sentAt, or the first destination event seen when the
    source side is not, descending; guid)."""
    bounds = {cid: ts for cid, ts in at.items() if cid in book.views}
    if not bounds:
        return {"messages": []}
    last = max(bounds.values())
    until = hour_start(last - 1) + HOUR  # every message sent before the last boundary
    book.sync(until)
    messages = book.messages[: bisect_left(book.messages, until, key=lambda m: m.hour)]
    first_stored = _first_stored(book, bounds)
    out = []
    for m in messages:
        bs, bd = bounds.get(m.src), bounds.get(m.dst)
        sent, verified = _seen(m.sent, bs), _seen(m.verified, bd)
        if not (sent or verified):  # every destination event is at or after the verification
            continue
        src, dst = book.chains[m.src], book.chains[m.dst]
        state = _state(book, m, bs, bd, first_stored)
        out.append({
            "guid": m.guid, "srcChainId": m.src, "dstChainId": m.dst, "srcEid": src.eid, "dstEid": dst.eid,
            "sender": src.oapp, "receiver": dst.oapp, "nonce": m.nonce,
            "fromAddress": m.from_addr, "toAddress": m.to_addr,
            "srcToken": src.core_token if m.oft else None, "dstToken": dst.core_token if m.oft else None,
            "amountRaw": None if m.amount is None else str(m.amount),
            "sentAt": m.sent if sent else None, "sentBlock": src.block_of(m.sent) if sent else None,
            "sentTx": event_tx(m.src, m.guid, "PacketSent", 0) if sent else None,
            "verifiedAt": m.verified if verified else None,
            "deliveredAt": m.delivered if _seen(m.delivered, bd) else None,
            "alertAt": m.alert if _seen(m.alert, bd) else None,
            "burntAt": m.burnt if _seen(m.burnt, bd) else None,
            "state": state, "terminal": state in TERMINAL, "retryable": state in RETRYABLE,
            "missingSide": None if sent and verified else "destination" if sent else "source",
            "_order": m.sent if sent else m.verified,
        })
    out.sort(key=lambda r: (-r["_order"], r["guid"]))
    for r in out:
        del r["_order"]
    return {"messages": out}


__all__ = ["bridge_truth", "parse_at", "TERMINAL", "RETRYABLE"]
