"""Contract interfaces the integration manifest publishes: human-readable signatures (one list
per contract) and the full JSON ABIs generated from them, so the two cannot disagree.

A signature reads `function <name>(<type> <arg>, ...) [view|payable] [returns (<type> <name>, ...)]`
(the ethers human-readable form); `json_abi` turns a list into the Solidity JSON ABI that web3.py
and ethers accept. Only elementary types and their arrays occur here.
"""
from __future__ import annotations

import re
from typing import Any

ERC20 = (
    "function approve(address spender, uint256 amount) returns (bool)",
    "function allowance(address owner, address spender) view returns (uint256)",
    "function balanceOf(address account) view returns (uint256)",
    "function decimals() view returns (uint8)",
    "function symbol() view returns (string)",
)
VAULT = (
    "function name() view returns (string)",
    "function symbol() view returns (string)",
    "function decimals() view returns (uint8)",
    "function totalSupply() view returns (uint256)",
    "function balanceOf(address account) view returns (uint256)",
    "function token0() view returns (address)",
    "function token1() view returns (address)",
    "function pool() view returns (address)",
    "function gauge() view returns (address)",
    "function strategy() view returns (address)",
    "function factory() view returns (address)",
    "function getTotalAmounts() view returns (uint256 total0, uint256 total1)",
    "function isCalm() view returns (bool)",
    "function paused() view returns (bool)",
    "function slippageBps() view returns (uint256)",
    "function lastHarvest() view returns (uint256)",
    "function previewDeposit(uint256 amount0, uint256 amount1) view returns (uint256 shares)",
    "function deposit(uint256 amount0, uint256 amount1, uint256 minShares) returns (uint256 shares)",
    "function previewWithdraw(uint256 shares) view returns (uint256 amount0, uint256 amount1)",
    "function withdraw(uint256 shares, uint256 min0, uint256 min1) returns (uint256 amount0, uint256 amount1)",
)
VAULT_CL = (
    "function tickLower() view returns (int24)",
    "function tickUpper() view returns (int24)",
    "function getPosition() view returns (uint128 liquidity, int24 tickLower, int24 tickUpper)",
    "function positionTokenId() view returns (uint256)",
    "function lastRebalance() view returns (uint256)",
)
ZAPPER = (
    "function zapIn(address vault, address tokenIn, uint256 amountIn, uint256 minShares) returns (uint256 shares)",
    "function zapInDual(address vault, uint256 amount0, uint256 amount1, uint256 minShares) returns (uint256 shares)",
    "function zapInNative(address vault, uint256 minShares) payable returns (uint256 shares)",
    "function quoteZapIn(address vault, address tokenIn, uint256 amountIn) view returns (uint256 shares, uint256 swapIn, uint256 swapOut, bool zeroForOne)",
)

_SIGNATURE = re.compile(
    r"function (?P<name>\w+)\((?P<inputs>[^)]*)\)(?: (?P<mutability>view|pure|payable))?(?: returns \((?P<outputs>[^)]*)\))?"
)


def vault_signatures(kind: str) -> tuple[str, ...]:
    return VAULT + (VAULT_CL if kind == "cl" else ())


def _params(text: str | None) -> list[dict[str, str]]:
    out = []
    for part in filter(None, (p.strip() for p in (text or "").split(","))):
        kind, _, name = part.partition(" ")
        out.append({"name": name, "type": kind, "internalType": kind})
    return out


def selector_form(signature: str) -> str:
    """'function deposit(uint256 amount0, ...) returns (...)' -> 'deposit(uint256,uint256,uint256)'."""
    match = _SIGNATURE.fullmatch(signature)
    if match is None:
        raise ValueError(f"not a function signature: {signature!r}")
    return f"{match['name']}({','.join(p['type'] for p in _params(match['inputs']))})"


def json_abi(signatures: tuple[str, ...]) -> list[dict[str, Any]]:
    abi = []
    for signature in signatures:
        match = _SIGNATURE.fullmatch(signature)
        if match is None:
            raise ValueError(f"not a function signature: {signature!r}")
        abi.append(
            {
                "type": "function",
                "name": match["name"],
                "inputs": _params(match["inputs"]),
                "outputs": _params(match["outputs"]),
                "stateMutability": match["mutability"] or "nonpayable",
            }
        )
    return abi
