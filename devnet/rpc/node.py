"""The JSON-RPC node: what web3.py's HTTPProvider talks to (single and batch requests)."""
from __future__ import annotations

from typing import Any

from devnet.rpc.abi import Revert
from devnet.rpc.contracts import CallCtx, add_gauges, build_registry
from devnet.rpc.vaults import FAULT_REASON, gas_estimate

EMPTY_UNCLES = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347"
EMPTY_TRIE = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
ZERO32 = "0x" + "00" * 32
GAS_LIMIT = 140_000_000
GAS_PRICE = 1_000_000_000


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def _hex(n: int) -> str:
    return hex(n)


def _parse_int(value) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return int(value, 16) if value.lower().startswith("0x") else int(value)
    raise RpcError(-32602, f"invalid number: {value!r}")


class RpcNode:
    def __init__(self, sim):
        self.sim = sim
        self.registry = build_registry(sim)
        self.miner = sim.label_address("validator")
        self._gauge_count = -1
        # addresses (lower-case) whose calls revert: the "vaults" fault target of /control/faults
        self.failing: set[str] = set()
        self.methods = {
            "eth_chainId": self.eth_chain_id,
            "net_version": lambda p, head: str(self.sim.chain_id),
            "net_listening": lambda p, head: True,
            "net_peerCount": lambda p, head: "0x0",
            "web3_clientVersion": lambda p, head: "devnet/0.1.0",
            "eth_syncing": lambda p, head: False,
            "eth_accounts": lambda p, head: [],
            "eth_blockNumber": lambda p, head: _hex(head),
            "eth_getBlockByNumber": self.eth_get_block_by_number,
            "eth_getBlockByHash": self.eth_get_block_by_hash,
            "eth_call": self.eth_call,
            "eth_getCode": self.eth_get_code,
            "eth_getBalance": self.eth_get_balance,
            "eth_getTransactionCount": lambda p, head: "0x0",
            "eth_gasPrice": lambda p, head: _hex(GAS_PRICE),
            "eth_maxPriorityFeePerGas": lambda p, head: "0x0",
            "eth_estimateGas": self.eth_estimate_gas,
            "eth_feeHistory": self.eth_fee_history,
        }

    # -- dispatch -----------------------------------------------------------------------------
    def handle(self, payload: Any, lag_blocks: int = 0) -> Any:
        """A JSON-RPC request object or batch (list) -> response object or list."""
        head = max(self.sim.head() - max(int(lag_blocks), 0), 0)
        if len(self.sim.gov.gauges) != self._gauge_count:
            add_gauges(self.sim, self.registry)
            self._gauge_count = len(self.sim.gov.gauges)
        if isinstance(payload, list):
            if not payload:
                return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "empty batch"}}
            return [self._one(p, head) for p in payload]
        return self._one(payload, head)

    def _one(self, req: Any, head: int) -> dict:
        if not isinstance(req, dict) or "method" not in req:
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "invalid request"}}
        rid = req.get("id")
        fn = self.methods.get(req["method"])
        if fn is None:
            return {"jsonrpc": "2.0", "id": rid,
                    "error": {"code": -32601, "message": f"the method {req['method']} does not exist/is not available"}}
        params = req.get("params") or []
        try:
            result = fn(params, head)
        except RpcError as exc:
            err = {"code": exc.code, "message": exc.message}
            if exc.data is not None:
                err["data"] = exc.data
            return {"jsonrpc": "2.0", "id": rid, "error": err}
        except (IndexError, KeyError, TypeError, ValueError, AttributeError) as exc:
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": f"invalid params: {exc!r}"}}
        return {"jsonrpc": "2.0", "id": rid, "result": result}

    # -- blocks -------------------------------------------------------------------------------
    def block_number(self, tag: Any, head: int) -> int:
        if tag is None or tag in ("latest", "pending"):
            return head
        if tag in ("safe", "finalized"):
            return max(head - 2, 0)
        if tag == "earliest":
            return 0
        if isinstance(tag, dict):
            if "blockNumber" in tag:
                return self.block_number(tag["blockNumber"], head)
            if "blockHash" in tag:
                from devnet.addresses import block_number_from_hash
                n = block_number_from_hash(self.sim.chain_id, self.sim.seed, tag["blockHash"])
                if n is None or n > head:
                    raise RpcError(-32000, "header for hash not found")
                return n
            raise RpcError(-32602, "invalid block parameter")
        return _parse_int(tag)

    def block(self, n: int, head: int) -> dict | None:
        if n < 0 or n > head:
            return None
        sim = self.sim
        return {
            "number": _hex(n),
            "hash": sim.block_hash(n),
            "parentHash": sim.block_hash(n - 1) if n > 0 else ZERO32,
            "nonce": "0x0000000000000000",
            "sha3Uncles": EMPTY_UNCLES,
            "logsBloom": "0x" + "00" * 256,
            "transactionsRoot": EMPTY_TRIE,
            "stateRoot": "0x" + sim.block_hash(n)[2:34] + "00" * 16,
            "receiptsRoot": EMPTY_TRIE,
            "miner": self.miner.lower(),
            "difficulty": "0x2",
            "totalDifficulty": _hex(2 * n + 1),
            "extraData": "0x",
            "size": "0x220",
            "gasLimit": _hex(GAS_LIMIT),
            "gasUsed": "0x0",
            "timestamp": _hex(sim.block_ts(n)),
            "transactions": [],
            "uncles": [],
            "baseFeePerGas": "0x0",
            "mixHash": ZERO32,
        }

    def eth_chain_id(self, params, head):
        return _hex(self.sim.chain_id)

    def eth_get_block_by_number(self, params, head):
        return self.block(self.block_number(params[0], head), head)

    def eth_get_block_by_hash(self, params, head):
        from devnet.addresses import block_number_from_hash
        n = block_number_from_hash(self.sim.chain_id, self.sim.seed, params[0])
        return None if n is None else self.block(n, head)

    # -- state --------------------------------------------------------------------------------
    def _state_block(self, params, index: int, head: int) -> int:
        tag = params[index] if len(params) > index else "latest"
        n = self.block_number(tag, head)
        if n > head or n < 0:
            raise RpcError(-32000, "header not found")
        return n

    def native_balance(self, address: str, ts: int) -> int:
        if address.lower() == self.sim.foundation_wallet.lower():
            return 250 * 10**18
        return 0

    def eth_get_balance(self, params, head):
        n = self._state_block(params, 1, head)
        return _hex(self.native_balance(params[0], self.sim.block_ts(n)))

    def eth_get_code(self, params, head):
        n = self._state_block(params, 1, head)
        c = self.registry.get(params[0].lower())
        if c is None or not c.exists_at(self.sim.block_ts(n)):
            return "0x"
        return "0x" + c.bytecode().hex()

    def internal_call(self, ctx: CallCtx, target: str, data: bytes) -> bytes:
        key = target.lower()
        c = self.registry.get(key)
        if c is None or not c.exists_at(ctx.ts):
            raise Revert()
        if key in self.failing:
            raise Revert(FAULT_REASON)
        return c.call(ctx, data)

    def _call(self, tx: dict, n: int) -> bytes:
        to = tx.get("to")
        if not to:
            raise RpcError(-32602, "missing 'to'")
        data = tx.get("data") or tx.get("input") or "0x"
        try:
            raw = bytes.fromhex(data[2:] if data.startswith("0x") else data)
        except ValueError:
            raise RpcError(-32602, "invalid data") from None
        sender = tx.get("from") or "0x" + "00" * 20
        ctx = CallCtx(self.sim, self, n, sender, _parse_int(tx.get("value") or 0))
        try:
            return self.internal_call(ctx, to, raw)
        except Revert as exc:
            if exc.reason:
                raise RpcError(3, f"execution reverted: {exc.reason}", "0x" + exc.data.hex()) from None
            raise RpcError(3, "execution reverted", "0x") from None

    def eth_call(self, params, head):
        n = self._state_block(params, 1, head)
        return "0x" + self._call(params[0], n).hex()

    def eth_estimate_gas(self, params, head):
        tx = params[0] if params else {}
        data = tx.get("data") or tx.get("input") or "0x"
        if len(data) <= 2:
            return _hex(21_000)
        raw = bytes.fromhex(data[2:] if data.startswith("0x") else data)
        gas = gas_estimate(self.sim, tx.get("to") or "", raw)
        if gas is not None:
            # vault and zapper calls: a reverting call cannot be estimated (as on a real node)
            self._call(tx, self._state_block(params, 1, head))
            return _hex(gas)
        return _hex(60_000 + 16 * (len(data) - 2) // 2)

    def eth_fee_history(self, params, head):
        count = min(_parse_int(params[0]) if params else 1, 1024)
        newest = self.block_number(params[1] if len(params) > 1 else "latest", head)
        oldest = max(newest - count + 1, 0)
        k = newest - oldest + 1
        percentiles = params[2] if len(params) > 2 else []
        return {
            "oldestBlock": _hex(oldest),
            "baseFeePerGas": ["0x0"] * (k + 1),
            "gasUsedRatio": [0.0] * k,
            "reward": [["0x0" for _ in percentiles] for _ in range(k)] if percentiles else None,
        }
