"""xCORE's identities and per-chain ledgers (devnet/sim/xcore.py generates into them): the
contracts' addresses, the ratio's rounding, and one chain's events with every account's balance
history, read at any second (inclusive: what a block at that second shows)."""
from __future__ import annotations

from bisect import bisect_right

from devnet.addresses import label_address, tx_hash
from devnet.sim.bridge import ChainFacts
from devnet.timeutil import epoch_start

CANONICAL = 56
REMOTES = (8453, 4663)
XCORE_CHAINS = (CANONICAL, *REMOTES)  # the order events of one second are applied in
E18 = 10**18


def xcore_address(chain_id: int) -> str:
    return label_address(chain_id, "xcore")


def adapter_address() -> str:
    return label_address(CANONICAL, "xcoreAdapter")


def xcore_contracts(chain_id: int) -> dict[str, str]:
    """The chain book's xCORE contracts: the token, and on 56 the OFT adapter locking bridged shares."""
    if chain_id not in XCORE_CHAINS:
        return {}
    out = {"xcore": xcore_address(chain_id)}
    if chain_id == CANONICAL:
        out["xcoreAdapter"] = adapter_address()
    return out


def ratio_of(backing: int, supply: int) -> int:
    """CORE per xCORE, 1e18-scaled, rounded down (1:1 while there is no supply)."""
    return backing * E18 // supply if supply else E18


class ChainLedger:
    """One chain's xCORE: its events in chain order and every account's balance history."""

    def __init__(self, facts: ChainFacts):
        self.facts = facts
        self.chain_id = facts.chain_id
        self.token = xcore_address(facts.chain_id).lower()
        self.events: list[dict] = []
        self.times: list[int] = []
        self.balances: dict[str, int] = {}
        self.history: dict[str, tuple[list[int], list[int]]] = {}  # account -> (ts, balance)
        self.supply = 0
        self._last_block, self._log_index = -1, 0

    def move(self, account: str, delta: int, ts: int) -> None:
        bal = self.balances.get(account, 0) + delta
        if bal < 0:
            raise RuntimeError(f"xCORE {self.chain_id}: {account} would hold {bal}")
        self.balances[account] = bal
        hts, hbal = self.history.setdefault(account, ([], []))
        if hts and hts[-1] == ts:
            hbal[-1] = bal
        else:
            hts.append(ts)
            hbal.append(bal)

    def append(self, seed: int, ts: int, row: dict) -> dict:
        block = self.facts.block_of(ts)
        self._log_index = self._log_index + 1 if block == self._last_block else 0
        self._last_block = block
        tx = tx_hash(self.chain_id, seed, block, self._log_index, "xcore")
        row.update(id=f"{tx}-{self._log_index}", chainId=self.chain_id, supply=self.supply, epoch=epoch_start(ts),
                   timestamp=ts, blockNumber=block, transactionHash=tx, logIndex=self._log_index)
        self.events.append(row)
        self.times.append(ts)
        return row

    # -- reads at a time (inclusive: what a block at ts shows) ------------------------------------
    def last_event(self, ts: int) -> dict | None:
        i = bisect_right(self.times, ts) - 1
        return self.events[i] if i >= 0 else None

    def supply_at(self, ts: int) -> int:
        ev = self.last_event(ts)
        return ev["supply"] if ev else 0

    def balance_at(self, account: str, ts: int) -> int:
        h = self.history.get(account.lower())
        if h is None:
            return 0
        i = bisect_right(h[0], ts) - 1
        return h[1][i] if i >= 0 else 0

    def accounts_at(self, ts: int) -> dict[str, int]:
        """Every account with a balance change at or before ts (zero balances included)."""
        return {a: self.balance_at(a, ts) for a, (hts, _b) in sorted(self.history.items()) if hts[0] <= ts}


__all__ = ["CANONICAL", "E18", "REMOTES", "XCORE_CHAINS", "ChainLedger", "adapter_address", "ratio_of",
           "xcore_address", "xcore_contracts"]
