"""The governance events planned at each epoch start from a random stream of their own
(`default_rng([seed, chain, 779, hour])`), after the main plan (sim/governance.py), so that the
main plan's draws, and with them the market's, stay what they were before these existed:

- the system gauge: some planned (non-foundation) votes include it; CORE bribes on it;
- every other holder of an allocation (not re-voting this epoch): a poke or a reset at a random
  time of the epoch, or its allocation carried over (a `Vote` row at the epoch's start). A veNFT
  without voting power at the epoch's start resets; one voting for a gauge killed since resets
  or carries it (Velodrome cannot poke a killed gauge);
- third-party bribes in the chain's token without a price (`ChainParams.unpriced_token`);
- the claims of the previous epoch's rewards by the veNFTs that carried or poked their allocation.
"""
from __future__ import annotations

import math

import numpy as np

from devnet.timeutil import HOUR, WEEK, epoch_start

EXTRA_STREAM = 779


def plan(gov, hour_ts: int, alive_all: list) -> None:
    c, p = gov.chain, gov.params
    rng = np.random.default_rng([c.seed, c.chain_id, EXTRA_STREAM, hour_ts // HOUR])
    epoch = epoch_start(hour_ts)
    end = epoch + WEEK
    bt = c.block_time

    def at(offset: float) -> int:
        t = epoch + int(offset) // bt * bt
        return min(max(t, hour_ts + bt), end - HOUR)

    planned = [e for e in gov._pending if e[2] == "vote"]
    revoting = {e[3][0] for e in planned}
    pools = [g for g in alive_all if g.kind == "pool"]
    system = [g for g in alive_all if g.kind == "system"]
    if system:
        sg = system[0]
        for _ts, _seq, _kind, (tid, gauges, weights) in planned:
            if not gov.lock(tid).foundation and rng.random() < p.system_vote_share:
                gauges.append(sg)
                weights.append(float(rng.random()) + 0.2)
        for _ in range(int(rng.poisson(p.system_bribe_rate * c.scale))):
            usd = math.exp(rng.normal(math.log(p.bribe_median_usd), 1.0))
            sender = gov.voters[int(rng.integers(0, len(gov.voters)))]
            gov.add_extra(at(HOUR + rng.uniform(0, 5.5 * 86400)), "bribe", (sg, c.core, usd, sender, False))
    # holders of an allocation that are not re-voting: poke, reset or carry over
    for tid in gov.book.holders():
        if tid in revoting:
            continue
        alloc = gov.book.alloc[tid]
        stale = any(not gov.gauge_by_target[t].alive_at(hour_ts) for t in alloc)
        power = gov.balance_of_nft(tid, hour_ts)
        u = float(rng.random())
        when = at(HOUR + rng.uniform(0, 6 * 86400))
        if power <= 0 or (stale and u < 0.5):
            gov.add_extra(when, "reset", tid)
        elif not stale and u < p.poke_share:
            gov.add_extra(when, "poke", tid)
        elif not stale and u < p.poke_share + p.reset_share:
            gov.add_extra(when, "reset", tid)
        else:
            gov.add_extra(hour_ts, "carry", tid)
    # bribes in the token without a price (sizes in its own units)
    if pools and p.unpriced_bribes_per_epoch > 0:
        for _ in range(int(rng.poisson(p.unpriced_bribes_per_epoch * c.scale))):
            g = pools[int(rng.integers(0, len(pools)))]
            human = math.exp(rng.normal(math.log(50_000.0), 0.8))
            sender = gov.voters[int(rng.integers(0, len(gov.voters)))]
            gov.add_extra(at(HOUR + rng.uniform(0, 5.5 * 86400)), "bribe", (g, c.unpriced, human, sender, False))
    # claims of the previous epoch by the veNFTs whose allocation carried over or was poked
    prev = epoch - WEEK
    cast = gov.epoch_votes.get(prev)
    alloc_prev = gov.book.epoch_alloc.get(prev, {})
    for tid in sorted(alloc_prev):
        if cast is not None and tid in cast.by_token:
            continue
        if rng.random() >= p.claim_probability:
            continue
        rewards = gov.claim_rewards(prev, tid)
        if rewards:
            gov.add_extra(at(3 * HOUR + rng.uniform(0, 6 * 86400)), "claim", (tid, prev, rewards))
    gov.merge_extra()
