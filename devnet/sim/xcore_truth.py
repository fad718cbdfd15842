"""xCORE truth, computed from the book's ledgers and messages (devnet/sim/xcore.py), not from the
served events: the state at per-chain instants with the bridged supply reconciled, the ratio at
any second, per-epoch ratio changes split by cause, and every account's balance on a chain.

Instants are inclusive: what a block at that second shows (every event with timestamp <= it).
Raw integers are decimal strings; ratios are CORE per xCORE scaled by 1e18, rounded down.
"""
from __future__ import annotations

from devnet.sim.xcore import CANONICAL, E18, KINDS, PENALTY_BPS, RATE_KINDS, REMOTES, XCORE_CHAINS, XcoreBook, ratio_of
from devnet.timeutil import HOUR, WEEK, epoch_start, hour_start

MAX_POINTS = 10_000  # a rate series answers at most this many samples


def parse_at(text: str | None) -> dict[int, int]:
    """`<unix>` (every chain) or `<chainId>:<unix>,...` (a chain left out takes chain 56's instant,
    or the first one given) -> {chain: instant} over the xCORE chains; ValueError when malformed."""
    if not text:
        raise ValueError("at is required: <unix> or <chainId>:<unix>[,<chainId>:<unix>...]")
    if ":" not in text:
        t = int(text)
        return {cid: t for cid in XCORE_CHAINS}
    given: dict[int, int] = {}
    for part in text.split(","):
        cid, sep, ts = part.strip().partition(":")
        if not sep:
            raise ValueError(f"bad at entry {part!r}: expected <chainId>:<unix>")
        given[int(cid)] = int(ts)
    unknown = sorted(set(given) - set(XCORE_CHAINS))
    if unknown:
        raise ValueError(f"chains without xCORE in at: {unknown} (xCORE chains: {list(XCORE_CHAINS)})")
    default = given.get(CANONICAL, next(iter(given.values())))
    return {cid: given.get(cid, default) for cid in XCORE_CHAINS}


def _sync(book: XcoreBook, ts: int) -> None:
    book.sync(hour_start(ts) + HOUR)


def rate_at(book: XcoreBook, ts: int) -> dict:
    """The ratio in effect at ts: the newRatio of the last canonical event at or before it (1e18
    before the first), with the supply and backing it came with."""
    _sync(book, ts)
    ev = book.canonical.last_event(ts)
    if ev is None:
        return {"at": ts, "ratio": str(E18), "supply": "0", "backing": "0", "eventId": None, "eventAt": None}
    return {"at": ts, "ratio": str(ev["newRatio"]), "supply": str(ev["supply"]), "backing": str(ev["backing"]),
            "eventId": ev["id"], "eventAt": ev["timestamp"]}


def rate_series(book: XcoreBook, start: int, end: int, step: int) -> dict:
    """The ratio at start, start + step, ... <= end."""
    if step <= 0 or end < start:
        raise ValueError("need step > 0 and from <= to")
    if (end - start) // step + 1 > MAX_POINTS:
        raise ValueError(f"at most {MAX_POINTS} points: raise step")
    _sync(book, end)
    c = book.canonical
    points = []
    for t in range(start, end + 1, step):
        ev = c.last_event(t)
        points.append({"t": t, "ratio": str(ev["newRatio"] if ev else E18)})
    return {"from": start, "to": end, "step": step, "points": points}


def state(book: XcoreBook, at: dict[int, int], served: set[int]) -> dict:
    """The token at chain 56's instant, each representation's supply at its chain's instant, and
    the transfers in flight between those instants' observers."""
    _sync(book, max(at.values()))
    c = book.canonical
    t56 = at[CANONICAL]
    ev = c.last_event(t56)
    supply, backing = (ev["supply"], ev["backing"]) if ev else (0, 0)
    locked = c.balance_at(book.adapter, t56)
    chains = {str(CANONICAL): {"token": c.token, "served": CANONICAL in served, "deployed": t56 >= book.start,
                               "observedAt": t56, "supply": str(supply), "adapterLocked": str(locked),
                               "circulating": str(supply - locked)}}
    remote = 0
    for d in REMOTES:
        led, td = book.ledgers[d], at[d]
        s = led.supply_at(td)
        remote += s
        chains[str(d)] = {"token": led.token, "served": d in served, "deployed": td >= book.created_at(d),
                          "observedAt": td, "supply": str(s)}
    flight = {"out": 0, "back": 0}
    counts = {"out": 0, "back": 0}
    skew = {"out": 0, "back": 0}
    by_chain = {str(d): {"out": 0, "back": 0, "outCount": 0, "backCount": 0, "skewOut": 0, "skewBack": 0}
                for d in REMOTES}
    for m in book.messages:
        sent_seen, delivered_seen = m.sent <= at[m.src], m.delivered <= at[m.dst]
        mine = by_chain[str(m.dst if m.direction == "out" else m.src)]
        if sent_seen and not delivered_seen:
            flight[m.direction] += m.shares
            counts[m.direction] += 1
            mine[m.direction] += m.shares
            mine[m.direction + "Count"] += 1
        elif delivered_seen and not sent_seen:  # the observers' instants differ by more than the delay
            skew[m.direction] += m.shares
            mine["skew" + m.direction.capitalize()] += m.shares
    if locked != remote + flight["out"] + flight["back"] - skew["out"] - skew["back"]:
        raise RuntimeError("xCORE: the adapter's shares do not reconcile with the bridged supply")
    return {
        "canonicalChainId": CANONICAL, "at": {str(k): v for k, v in at.items()}, "token": c.token,
        "adapter": book.adapter, "exitPenaltyBps": PENALTY_BPS,
        "ratio": str(ev["newRatio"] if ev else E18), "supply": str(supply), "backing": str(backing),
        "lastEventAt": ev["timestamp"] if ev else None, "lastEventId": ev["id"] if ev else None,
        "canonicalSupply": str(supply), "adapterLocked": str(locked), "remoteSupply": str(remote),
        "chains": chains,
        "inFlight": {"out": str(flight["out"]), "back": str(flight["back"]), "outCount": counts["out"],
                     "backCount": counts["back"],
                     "byChain": {d: {k: v if k.endswith("Count") else str(v) for k, v in f.items()}
                                 for d, f in by_chain.items()}},
        "observerSkew": {"out": str(skew["out"]), "back": str(skew["back"])},
        "unreconciled": str(locked - remote), "reconciled": locked == remote,
    }


def epochs(book: XcoreBook, through: int) -> dict:
    """Per epoch from xCORE's first to the one containing `through`: the ratio at its start (after
    every event before it) and at its end (after every event before the next epoch, or at
    `through`), and the change split by cause: per cause the sum of newRatio - oldRatio over the
    epoch's events of that kind. Every other kind leaves the ratio unchanged, so the causes sum
    exactly to end - start."""
    _sync(book, through)
    c = book.canonical
    out = []
    if through < book.start:
        return {"through": through, "epochs": out}
    i, events = 0, c.events
    prev = E18
    for e in range(epoch_start(book.start), epoch_start(through) + WEEK, WEEK):
        end = min(e + WEEK - 1, through)
        causes = dict.fromkeys(RATE_KINDS, 0)
        counts = dict.fromkeys(KINDS, 0)
        amounts = {"deposited": 0, "exitedShares": 0, "exitPaid": 0, "penalties": 0, "compounded": 0,
                   "distributed": 0}
        start_ratio = prev
        while i < len(events) and events[i]["timestamp"] <= end:
            ev = events[i]
            kind, delta = ev["kind"], ev["newRatio"] - ev["oldRatio"]
            if ev["oldRatio"] != prev:
                raise RuntimeError(f"xCORE: event {ev['id']} does not continue the ratio chain")
            if kind in causes:
                causes[kind] += delta
            elif delta:
                raise RuntimeError(f"xCORE: a {kind} moved the ratio")
            counts[kind] += 1
            if kind == "deposit":
                amounts["deposited"] += ev["amount"]
            elif kind == "exit":
                amounts["exitedShares"] += ev["shares"]
                amounts["exitPaid"] += ev["amount"]
                amounts["penalties"] += ev["penalty"]
            elif kind in ("compound", "distribution"):
                amounts["compounded" if kind == "compound" else "distributed"] += ev["amount"]
            prev = ev["newRatio"]
            i += 1
        last = c.last_event(end)
        out.append({
            "epoch": e, "end": e + WEEK, "partial": through < e + WEEK - 1, "rateAtStart": str(start_ratio),
            "rateAtEnd": str(prev), "change": str(prev - start_ratio),
            "causes": {"exitPenalty": str(causes["exit"]), "compound": str(causes["compound"]),
                       "distribution": str(causes["distribution"])},
            "counts": counts, "amounts": {k: str(v) for k, v in amounts.items()},
            "supplyAtEnd": str(last["supply"] if last else 0), "backingAtEnd": str(last["backing"] if last else 0),
        })
    return {"through": through, "epochs": out}


def accounts(book: XcoreBook, chain_id: int, ts: int) -> dict:
    """Every account with a balance change on the chain at or before ts (the adapter on 56 too),
    its balance then; the balances sum to the chain's supply."""
    _sync(book, ts)
    led = book.ledgers[chain_id]
    balances = led.accounts_at(ts)
    supply = led.supply_at(ts)
    if sum(balances.values()) != supply:
        raise RuntimeError(f"xCORE {chain_id}: balances do not sum to the supply")
    return {"chainId": chain_id, "at": ts, "token": led.token, "supply": str(supply),
            "accounts": {a: str(b) for a, b in balances.items()}}


__all__ = ["accounts", "epochs", "parse_at", "rate_at", "rate_series", "ratio_of", "state"]
