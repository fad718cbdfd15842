"""The integration manifest of one vault (vault API spec, "Integration manifest"): what a client
needs to build deposit, zap and withdraw calls from the API's answer alone."""
from __future__ import annotations

from typing import Any

from . import abi
from .records import checksum, deposits_available, token
from .chain import BookState, VaultState

BPS = 10_000
ZAP_GAS_MULTIPLIER = 2
ZAP_GAS_MINIMUM = 3_000_000

MIN_SHARES_RULE = "minShares = shares * (10000 - state.slippageBps) / 10000 (integer division)"
NOTES = (
    "Deposits need state.depositsAvailable: isCalm() true and neither the global pause (factory.globalPause()) "
    "nor the strategy pause applies; otherwise deposit and the zaps revert (VAULT: global pause, "
    "VAULT: strategy paused, VAULT: not calm). Withdrawals are never gated.",
    "State is read at meta.indexedBlock; re-check isCalm() and the pauses in the same block as the transaction "
    "when in doubt (a static call of the deposit does this).",
    "previewDeposit takes the ratio-limited amounts: the part of one token above the vault's ratio stays with the caller.",
    "Zap shares depend on the swap the zapper makes at the block: always quote by a static call; a naive estimate "
    "(amount x price / share price) must not be used as minShares.",
    "zapInNative wraps msg.value into the chain's wrapped native token, which must be token0 or token1 of the vault.",
)


def _approvals(tokens: list[dict[str, Any]], spender: str | None) -> list[dict[str, Any]]:
    return [{"token": t["address"], "spender": spender, "symbol": t["symbol"]} for t in tokens]


def manifest(vault: VaultState, book: BookState, contracts: dict[str, str], *, with_abi: bool = False) -> dict[str, Any]:
    cfg = vault.config
    address = checksum(cfg.address)
    zapper = checksum(contracts.get("zapper"))
    token0, token1 = token(vault.tokens.get("token0")), token(vault.tokens.get("token1"))
    shares = {"address": address, "symbol": vault.get("symbol"), "decimals": vault.get("decimals")}
    slippage = vault.get("slippageBps")
    slippage_rule = {
        "bps": slippage,
        "denominator": BPS,
        "rule": "apply state.slippageBps below the quoted value: min = quoted * (10000 - slippageBps) / 10000",
    }
    vault_sigs = abi.vault_signatures(cfg.kind)
    out: dict[str, Any] = {
        "kind": cfg.kind,
        "contracts": {
            "vault": address,
            "strategy": checksum(vault.get("strategy")),
            "pool": checksum(vault.get("pool")),
            "gauge": checksum(vault.get("gauge")),
            "zapper": zapper,
            "positionManager": checksum(contracts.get("positionManager")) if cfg.kind == "cl" else None,
            "factory": checksum(contracts.get("vaultFactory")),
        },
        "tokens": {"token0": token0, "token1": token1, "base": token0, "shares": shares},
        "state": {
            "isCalm": vault.get("isCalm"),
            "globalPause": book.global_pause,
            "strategyPaused": vault.get("strategyPaused"),
            "depositsAvailable": deposits_available(vault, book),
            "slippageBps": slippage,
        },
        "deposit": {
            "direct": {
                "approvals": _approvals([token0, token1], address),
                "methods": ["deposit(uint256,uint256,uint256)"],
                "preview": {
                    "method": "previewDeposit(uint256,uint256)",
                    "returns": "shares (uint256) for (amount0, amount1) at the current block",
                    "minShares": MIN_SHARES_RULE,
                },
                "gating": {"requires": "state.depositsAvailable", "checks": ["isCalm()", "factory.globalPause()", "strategy.paused()"]},
                "slippage": slippage_rule,
            },
            "zap": {
                "approvals": _approvals([token0, token1], zapper),
                "methods": {
                    "token": "zapIn(address,address,uint256,uint256)",
                    "dual": "zapInDual(address,uint256,uint256,uint256)",
                    "native": "zapInNative(address,uint256)",
                },
                "quote": {
                    "how": "static call (eth_call) of the same zap method with minShares = 0 at the latest block; "
                    "its return value is the exact shares. quoteZapIn(address,address,uint256) gives the same for zapIn, "
                    "ungated. A naive estimate must not be used.",
                    "method": "quoteZapIn(address,address,uint256)",
                    "minShares": MIN_SHARES_RULE.replace("shares *", "quotedShares *"),
                },
                "gating": {"requires": "isCalm() must be true (and no pause, as for direct deposits)", "checks": ["isCalm()"]},
                "slippage": slippage_rule,
                "gas": {
                    "multiplier": ZAP_GAS_MULTIPLIER,
                    "minimum": ZAP_GAS_MINIMUM,
                    "rule": f"gasLimit = eth_estimateGas(zap call) x {ZAP_GAS_MULTIPLIER}, at least {ZAP_GAS_MINIMUM}",
                },
            },
        },
        "withdraw": {
            "approvals": [],
            "methods": ["withdraw(uint256,uint256,uint256)"],
            "preview": {"method": "previewWithdraw(uint256)", "returns": "(amount0, amount1) for burning shares"},
            "gating": "none",
            "slippage": {**slippage_rule, "rule": "min0/min1 = previewWithdraw amounts * (10000 - slippageBps) / 10000"},
        },
        "abiSignatures": {"vault": list(vault_sigs), "zapper": list(abi.ZAPPER), "erc20": list(abi.ERC20)},
        "notes": list(NOTES),
    }
    if with_abi:
        out["abi"] = {"vault": abi.json_abi(vault_sigs), "zapper": abi.json_abi(abi.ZAPPER), "erc20": abi.json_abi(abi.ERC20)}
    return out
