"""One gauge as /v1 answers it, from a row of `gauges.sql`: what it is (its kind, target and
pool), its timeline, its Voter weight and share of its chain's, what it emits this epoch (and why
nothing, where it emits nothing), and its APR breakdown; and the detail's epoch (`this_epoch`). Votes, emissions, notified bribes and
trading fees stay separate quantities (spec semantics 3): nothing here adds them up."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ....core.epochs import epoch_start
from ..common.decimals import decimal_text, fraction_text, units_text
from ..common.flows import stamp

WAD = 10**18  # weights, emissions and rates are 1e18-scaled
# why a gauge emits nothing this epoch (emissions.reason)
KILLED = "killed"  # killed: no share of emissions, rewardRate 0
NOT_YET_SPLIT = "awaiting_next_epoch"  # created or revived after this epoch's split: a share from the next one
NO_VOTES = "no_votes"  # alive when the epoch's emissions were split, without Voter weight then
CAPPED = "capped"  # the chain caps the gauge's emissions (no covered chain does today)
REASONS = (KILLED, NOT_YET_SPLIT, NO_VOTES, CAPPED)
APR_PROFILES = {"minimum": "emission_apr_minimum", "five-spacing": "emission_apr_five_spacing",
                "standard": "emission_apr_standard"}


def _int(text: str | None) -> int | None:
    return None if text is None else int(text)


def _wad(raw: int | None) -> str | None:
    return None if raw is None else units_text(raw, 18)


def timeline(r: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"event": kind, "at": stamp(ts), "epochStart": stamp(epoch_start(ts)), "blockNumber": int(block),
             "transactionHash": tx} for kind, ts, block, tx in r["timeline"]]


def reason(r: dict[str, Any], emissions: int | None) -> str | None:
    """Why the gauge emits nothing this epoch; None when it emits (or its emissions are unknown)."""
    if not r["is_alive"]:
        return KILLED
    if emissions is None or emissions > 0:
        return None
    began = [ts for kind, ts, _, _ in r["timeline"] if kind in ("created", "revived")]
    return NOT_YET_SPLIT if began and began[-1] > r["epoch_ts"] else NO_VOTES


def _apr(r: dict[str, Any], profile: str) -> dict[str, str | None]:
    """The APR breakdown: emissions of the profile (V2 pools: every profile is the pool's), fees,
    bribes, and their sum when the three are known."""
    emissions = r[APR_PROFILES[profile]] if r[APR_PROFILES[profile]] is not None else r["emission_apr"]
    parts = (emissions, r["fee_apr"], r["bribe_apr"])
    return {"emissions": decimal_text(emissions), "fees": decimal_text(r["fee_apr"]),
            "bribes": decimal_text(r["bribe_apr"]),
            "total": None if any(v is None for v in parts) else decimal_text(math.fsum(parts))}


def gauge(r: dict[str, Any], profile: str) -> dict[str, Any]:
    weight, total = _int(r["weight_raw"]), _int(r["chain_weight_raw"])
    emissions, rate = _int(r["emissions_raw"]), _int(r["reward_rate_raw"])
    price = r["core_price_usd"]
    events = timeline(r)
    killed = [e for e in events if e["event"] == "killed"]
    system = r["gauge_kind"] == "system"
    pool = None
    if not system:
        pool = {"address": r["pool_address"], "type": r["pool_type"] if r["pool_listed"] else None,
                "tokens": [{"address": r[f"token{i}_address"], "symbol": r[f"token{i}_symbol"]} for i in (0, 1)]
                if r["pool_listed"] else None}
    return {
        "chainId": int(r["chain_id"]),
        "address": r["address"],
        "kind": r["gauge_kind"],
        "target": r["target"],
        "pool": pool,
        "alive": bool(r["is_alive"]),
        "killedAt": killed[-1]["at"] if killed and not r["is_alive"] else None,
        "timeline": events,
        "snapshotAt": stamp(r["snapshot_ts"]),
        "epochStart": stamp(r["epoch_ts"]),
        "votes": {
            "weightRaw": None if weight is None else str(weight),
            "weight": _wad(weight),
            "share": None if weight is None or not total else fraction_text(Fraction(weight, total)),
            "chainWeightRaw": None if total is None else str(total),
            "epochStartWeightRaw": r["votes_at_start_raw"],
        },
        "emissions": {
            "epochRaw": None if emissions is None else str(emissions),
            "epoch": _wad(emissions),
            "ratePerSecondRaw": None if rate is None else str(rate),
            "ratePerSecond": _wad(rate),
            "ratePerSecondUsd": None if rate is None or price is None else decimal_text(rate / WAD * price),
            "coreTokenPriceUsd": decimal_text(price),
            "reason": reason(r, emissions),
        },
        "bribesEpochUsd": decimal_text(r["bribes_epoch_usd"]),
        "feesEpochUsd": decimal_text(r["fees_epoch_usd"]),
        "apr": _apr(r, profile),
    }


def token_amount(token: str, symbol: str | None, decimals: int | None, raw: str) -> dict[str, Any]:
    """An amount of one token: exact raw, and decimal where its decimals are known."""
    return {"token": token, "symbol": symbol, "decimals": decimals, "amountRaw": raw,
            "amount": None if decimals is None else units_text(int(raw), decimals)}


def this_epoch(row: dict[str, Any], epoch: int, snapshot: int) -> dict[str, Any]:
    """The epoch's notified bribes per token (USD at deposit time; the deposits before the
    snapshot's time as far as the chain's governance events are read) and the trading fees accrued
    to the gauge's fee reward per pool token (USD at each swap's time), each with its own total,
    from `gauge_epochs.sql`'s row over that one epoch."""
    until = None if row["events_through"] is None else min(row["events_through"] + 1, snapshot)
    deposits = [b for b in row["bribes"] if int(b[0]) == epoch]
    bribes = [{**token_amount(t, s, d, raw), "amountUsd": None if missing else decimal_text(usd)}
              for _, t, s, d, raw, usd, _, missing in deposits]
    read = next((e for e in row["epochs"] if int(e[0]) == epoch), None)
    return {
        "bribes": bribes,
        "bribesIndexedUntil": None if until is None else stamp(until),
        "bribesUsd": None if any(b[7] for b in deposits) else decimal_text(math.fsum(b[5] for b in deposits)),
        "fees": None if read is None else [{**token_amount(t, s, d, raw), "amountUsd": None} for t, s, d, raw in read[8]],
        "feesUsd": None if read is None else decimal_text(read[9]),
        "feesReadAt": None if read is None else stamp(read[13]),
    }
