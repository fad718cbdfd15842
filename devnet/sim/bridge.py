"""Cross-chain messages of the core token's OFT bridge (LayerZero V2 style) between the chains.

One `BridgeBook` for the whole devnet knows every chain's genesis, genesis block and block time,
served or not, so a message exists whatever is served; each served chain reads its own side
through a `BridgeView`. Generated hour by hour in absolute hours (every source chain of an hour,
in chain order), a pure function of the seed and the geneses. Rules: devnet/README.md (Bridge).
"""
from __future__ import annotations

import hashlib
import heapq
import random
import threading
from dataclasses import dataclass

from eth_abi import encode
from eth_utils import keccak

from devnet.addresses import shared_label_address
from devnet.chains import CHAIN_PARAMS, DEPLOYMENTS
from devnet.timeutil import HOUR

ORDER = tuple(DEPLOYMENTS)  # 56, 4663, 8453, 1, 5042: the order sources are generated in
WALLETS = tuple(shared_label_address(f"bridge:user:{i}").lower() for i in range(12))
KINDS = ("PacketSent", "PacketVerified", "LzReceiveAlert", "PacketDelivered", "PacketBurnt")
_RANK = {k: i for i, k in enumerate(KINDS)}
BOUNDARY_BEFORE_END = 30  # the boundary message: the last block at or before H + 3600 - 30 s
MESSAGES_PER_HOUR = ((0.5, 0), (0.85, 1), (1.0, 2))  # cumulative probability -> random messages
GENERIC_SHARE = 0.1
RANDOM_RETRY, RANDOM_BURN = 0.01, 0.005  # random messages: alert then retry / alert then burn
WAIT_STEP = 10  # ordered execution: the n-th message waiting on a stored payload, resolution + n x 10 s
# Scheduled failures of boundary messages: (src, dst) -> (hour index modulus, residue, outcome,
# seconds from the alert to the retry or burn). With every chain live the plain destination cycle
# never lands on these pathways in these hours (parity), so in them the boundary message takes it.
SCHEDULED = {(56, 8453): (6, 0, "retry", 7 * HOUR), (8453, 1): (24, 12, "burn", 3 * HOUR)}


def _revert(text: str) -> str:
    return "0x08c379a0" + encode(["string"], [text]).hex()  # Error(string), as the executor reports it


REASONS = ("out of gas", _revert("OFT: rate limit exceeded"), _revert("OApp: receiver paused"))
BURN_REASON = _revert("OFT: recipient blocked")


@dataclass(frozen=True)
class ChainFacts:
    chain_id: int
    genesis_ts: int  # hour-aligned, so block timestamps are multiples of the block time
    genesis_block: int
    block_time: int
    eid: int
    confirmations: int
    oapp: str  # lower-case
    core_token: str  # lower-case

    @property
    def finality(self) -> int:
        return self.confirmations * self.block_time

    def floor_ts(self, ts: int) -> int:
        """The last block at or before ts (its timestamp)."""
        return ts - (ts - self.genesis_ts) % self.block_time

    def ceil_ts(self, ts: int) -> int:
        """The first block at or after ts (its timestamp)."""
        return ts + (-(ts - self.genesis_ts)) % self.block_time

    def block_of(self, ts: int) -> int:
        return self.genesis_block + (ts - self.genesis_ts) // self.block_time


def chain_facts(chain_id: int, genesis_ts: int, core_token: str | None = None) -> ChainFacts:
    d = DEPLOYMENTS[chain_id]
    core = core_token or d.contracts["coreToken"]
    return ChainFacts(chain_id, genesis_ts, CHAIN_PARAMS[chain_id].genesis_block, d.block_time_seconds,
                      d.bridge.eid, d.bridge.confirmations, d.bridge.oapp.lower(), core.lower())


def guid_of(nonce: int, src_eid: int, sender: str, dst_eid: int, receiver: str) -> str:
    """keccak256(abi.encodePacked(uint64 nonce, uint32 srcEid, bytes32 sender, uint32 dstEid, bytes32 receiver))."""
    packed = (nonce.to_bytes(8, "big") + src_eid.to_bytes(4, "big") + bytes.fromhex(sender[2:]).rjust(32, b"\0")
              + dst_eid.to_bytes(4, "big") + bytes.fromhex(receiver[2:]).rjust(32, b"\0"))
    return "0x" + keccak(packed).hex()


def event_tx(chain_id: int, guid: str, kind: str, attempt: int) -> str:
    """The event's transaction: a digest of (bridge, chain, guid, kind, attempt); blake2b like
    addresses.tx_hash (a keccak per event would cost more than the rest of the generation)."""
    return "0x" + hashlib.blake2b(f"bridge:{chain_id}:{guid}:{kind}:{attempt}".encode(), digest_size=32).hexdigest()


def _rng(seed: int, chain_id: int, hour: int) -> random.Random:
    # a stable hash (Python's hash() of a str is salted per process)
    digest = hashlib.sha256(f"{seed}:bridge:{chain_id}:{hour}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class Message:
    """One message and its lifecycle (unix seconds, each on its chain's block grid)."""

    __slots__ = ("index", "guid", "src", "dst", "nonce", "hour", "oft", "from_addr", "to_addr", "amount", "sent",
                 "verified", "alert", "delivered", "burnt", "reason")

    def events(self) -> list[tuple[int, str, int, int]]:
        """(chain, kind, attempt, timestamp) of every event; a retried delivery is attempt 1."""
        out = [(self.src, "PacketSent", 0, self.sent), (self.dst, "PacketVerified", 0, self.verified)]
        if self.alert is not None:
            out.append((self.dst, "LzReceiveAlert", 0, self.alert))
        if self.delivered is not None:
            out.append((self.dst, "PacketDelivered", int(self.alert is not None), self.delivered))
        if self.burnt is not None:
            out.append((self.dst, "PacketBurnt", 0, self.burnt))
        return out


class _Stored:
    """A stored payload (alerted message) of a pathway, while it can still hold later nonces."""

    __slots__ = ("alert", "resolution", "waiting")

    def __init__(self, alert: int, resolution: int):
        self.alert, self.resolution, self.waiting = alert, resolution, 0


class BridgeBook:
    def __init__(self, seed: int, chains: dict[int, ChainFacts]):
        self.seed = int(seed)
        self.chains = {cid: chains[cid] for cid in ORDER if cid in chains}
        self.generated_until = min(f.genesis_ts for f in self.chains.values())
        self.messages: list[Message] = []
        self.views: dict[int, BridgeView] = {}
        self.alerted: dict[tuple[int, int], list[Message]] = {}  # per pathway, in nonce order
        self._nonces: dict[tuple[int, int], int] = {}
        self._stored: dict[tuple[int, int], list[_Stored]] = {}
        self._lock = threading.RLock()

    def view(self, chain_id: int) -> "BridgeView":
        """The chain's side; every view is taken before generation starts (events go to views as made)."""
        if self.messages:
            raise RuntimeError("bridge views are taken before the first message")
        return self.views.setdefault(chain_id, BridgeView(self, self.chains[chain_id]))

    def sync(self, until: int) -> None:
        """Generate every hour before `until`, then release each view's events before it."""
        if self.generated_until >= until:
            return
        with self._lock:
            while self.generated_until < until:
                self._run_hour(self.generated_until)
                self.generated_until += HOUR
            for v in self.views.values():
                v.release(self.generated_until)

    # -- generation -----------------------------------------------------------------------------
    def _run_hour(self, h: int) -> None:
        live = [cid for cid, f in self.chains.items() if f.genesis_ts <= h]
        if len(live) < 2:
            return
        idx = h // HOUR
        for src in live:
            others = [c for c in live if c != src]
            rng = _rng(self.seed, src, h)
            f = self.chains[src]
            dst = others[idx % len(others)]
            outcome = None
            for (s, d), (mod, residue, kind, delay) in SCHEDULED.items():
                if s == src and d in others and idx % mod == residue:
                    reason = BURN_REASON if kind == "burn" else REASONS[idx // mod % len(REASONS)]
                    dst, outcome = d, (kind, delay, reason)
            plans = [self._draw(rng, f.floor_ts(h + HOUR - BOUNDARY_BEFORE_END), dst, True)]
            plans[0]["outcome"] = outcome
            u = rng.random()
            n = next(k for p, k in MESSAGES_PER_HOUR if u < p)
            for _ in range(n):
                t = f.floor_ts(h + rng.randrange(HOUR))
                plans.append(self._draw(rng, t, rng.choice(others), rng.random() >= GENERIC_SHARE))
            plans.sort(key=lambda p: p["sent"])  # stable: the boundary message first on a tie
            for p in plans:
                self._send(src, h, p)

    def _draw(self, rng: random.Random, sent: int, dst: int, oft: bool) -> dict:
        """One message's draws, always the same ones in the same order."""
        p = {"sent": sent, "dst": dst, "oft": oft, "from": WALLETS[rng.randrange(12)],
             "to": WALLETS[rng.randrange(12)], "amount": rng.randint(1, 5000) * 10**18 + rng.randrange(10**6) * 10**12,
             "verify": rng.randint(20, 90), "deliver": rng.randint(5, 40)}
        u, recover, reason = rng.random(), rng.randint(HOUR, 5 * HOUR), REASONS[rng.randrange(len(REASONS))]
        p["outcome"] = (("retry", recover, reason) if u < RANDOM_RETRY else
                        ("burn", recover, reason) if u < RANDOM_RETRY + RANDOM_BURN else None)
        return p

    def _send(self, src: int, hour: int, p: dict) -> None:
        dst = p["dst"]
        fs, fd = self.chains[src], self.chains[dst]
        key = (src, dst)
        nonce = self._nonces[key] = self._nonces.get(key, 0) + 1
        m = Message()
        m.index, m.src, m.dst, m.nonce, m.hour = len(self.messages), src, dst, nonce, hour
        m.sent, m.oft = p["sent"], p["oft"]
        m.guid = guid_of(nonce, fs.eid, fs.oapp, fd.eid, fd.oapp)
        m.from_addr, m.to_addr, m.amount = (p["from"], p["to"], p["amount"]) if m.oft else (None, None, None)
        m.verified = fd.ceil_ts(m.sent + fs.finality + p["verify"])
        planned = fd.ceil_ts(m.verified + p["deliver"])
        t = self._after_stored(key, fd, planned, m.sent)
        m.alert = m.burnt = m.reason = None
        m.delivered = t
        # a failure hits the planned execution; a message held behind a stored payload is executed
        # at its release instead (else, with an alert every 6 h retried after 7 h, a pathway's
        # backlog would grow without end)
        if p["outcome"] is not None and t == planned:
            kind, delay, m.reason = p["outcome"]
            m.alert, end = t, fd.ceil_ts(t + delay)
            m.delivered, m.burnt = (end, None) if kind == "retry" else (None, end)
            self._stored.setdefault(key, []).append(_Stored(t, end))
            self.alerted.setdefault(key, []).append(m)
        self.messages.append(m)
        order = (ORDER.index(src), ORDER.index(dst), nonce)  # unique per chain and timestamp with the kind
        for chain, kind, attempt, ts in m.events():
            view = self.views.get(chain)
            if view is not None:
                heapq.heappush(view.pending, (ts, *order, _RANK[kind], m.index, attempt))

    def _after_stored(self, key: tuple[int, int], fd: ChainFacts, t: int, sent: int) -> int:
        """Ordered execution: a delivery due at or after an earlier nonce's alert and before its
        resolution waits for it, then goes at resolution + WAIT_STEP x its rank among the waiting."""
        stored = self._stored.get(key)
        if not stored:
            return t
        stored[:] = [s for s in stored if s.resolution > sent]  # the rest can hold nothing sent later
        while True:
            holding = [s for s in stored if s.alert <= t < s.resolution]
            if not holding:
                return t
            s = max(holding, key=lambda x: x.resolution)
            s.waiting += 1
            t = fd.ceil_ts(s.resolution + WAIT_STEP * s.waiting)


class BridgeView:
    """One chain's bridge events as the subgraph serves them: an append-only, time-ordered list,
    fed from a heap of pending events as generation passes them (everything before the book's
    horizon is final: an event is never before its message's send)."""

    def __init__(self, book: BridgeBook, facts: ChainFacts):
        self.book = book
        self.facts = facts
        self.pending: list[tuple] = []
        self.events: list[dict] = []
        self._last_block = -1
        self._log_index = 0

    def sync(self, until: int) -> None:
        self.book.sync(until)

    def release(self, until: int) -> None:
        f, messages = self.facts, self.book.messages
        while self.pending and self.pending[0][0] < until:
            ts, _s, _d, _n, rank, i, attempt = heapq.heappop(self.pending)
            m, kind = messages[i], KINDS[rank]
            block = f.block_of(ts)
            self._log_index = self._log_index + 1 if block == self._last_block else 0
            self._last_block = block
            tx = event_tx(f.chain_id, m.guid, kind, attempt)
            src, dst = self.book.chains[m.src], self.book.chains[m.dst]
            self.events.append({
                "id": f"{tx}-{self._log_index}", "kind": kind, "guid": m.guid, "nonce": m.nonce,
                "srcEid": src.eid, "dstEid": dst.eid, "srcChainId": m.src, "dstChainId": m.dst,
                "sender": src.oapp, "receiver": dst.oapp, "fromAddress": m.from_addr, "toAddress": m.to_addr,
                "token": f.core_token if m.oft else None, "amountRaw": m.amount,
                "reason": m.reason if kind == "LzReceiveAlert" else None, "timestamp": ts, "blockNumber": block,
                "transactionHash": tx, "logIndex": self._log_index,
            })


__all__ = ["BridgeBook", "BridgeView", "ChainFacts", "Message", "chain_facts", "event_tx", "guid_of", "WALLETS"]
