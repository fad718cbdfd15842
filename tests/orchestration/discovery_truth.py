"""The discovery tests' independent side: the curation source read as plain JSON (not through the
product's parser), its category rules applied here, and the promised order computed here."""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from orchestration_session import CHAINS


def parse(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def _number(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def expected_order(rows: list[dict], field: str, descending: bool) -> list[dict]:
    """The spec's order: the field (NULL last in both directions), then TVL descending (NULL last),
    then chain ID and address ascending."""
    def key(row: dict):
        value, tvl = _number(row[field]), _number(row["tvlUsd"])
        return (value is None, 0 if value is None else (-value if descending else value),
                tvl is None, 0 if tvl is None else -tvl, row["chainId"], row["address"])

    if field == "symbol":  # a text key: compare the lower-case symbol, reversed when descending
        ordered = sorted(rows, key=lambda r: (_number(r["tvlUsd"]) is None, -(_number(r["tvlUsd"]) or 0),
                                              r["chainId"], r["address"]))
        return sorted(ordered, key=lambda r: r["symbol"].lower(), reverse=descending)
    return sorted(rows, key=key)


class Curated:
    def __init__(self, source: dict):
        self.source = source
        self.version = source["version"]
        self.chains = {int(cid): entry for cid, entry in source["chains"].items() if int(cid) in CHAINS}

    def token(self, chain_id: int, address: str) -> dict:
        for t in self.chains.get(chain_id, {}).get("tokens", ()):
            if t["address"].lower() == address:
                return {**t, "tags": sorted(t.get("tags", []))}
        return {"tags": [], "status": "active"}

    def blocked_token(self, chain_id: int, address: str) -> bool:
        return self.token(chain_id, address).get("status") == "blocked"

    def pools(self, stack, scope: str, status: str) -> set[tuple[int, str]]:
        """The indexed pools of the session's chains that a scope and status select (blocked ones, or
        ones holding a blocked token, never)."""
        out = set()
        for cid in CHAINS:
            listed = {p["address"].lower(): p for p in self.chains.get(cid, {}).get("pools", ())}
            state = stack.truth("state", cid, block=_latest_block(stack, cid))
            for address, pool in state["pools"].items():
                entry = listed.get(address)
                if scope == "curated" and entry is None:
                    continue
                if (entry or {}).get("status", "active") != status:
                    continue
                tokens = _pool_tokens(stack, cid, address)
                if any(self.blocked_token(cid, t) for t in tokens):
                    continue
                out.add((cid, address))
        return out

    def tokens(self, status: str) -> set[tuple[int, str]]:
        return {(cid, t["address"].lower()) for cid, entry in self.chains.items() for t in entry.get("tokens", ())
                if t.get("status", "active") == status}

    def categories_of(self, row: dict) -> list[str]:
        """The categories the source's rules and explicit entries give a pool row."""
        tags = set(row["token0"]["tags"]) | set(row["token1"]["tags"])
        found = set()
        for category in self.source["categories"]:
            rule = category.get("rule")
            if rule is None:  # explicit entries only
                continue
            if rule.get("poolTypes") and row["poolType"] not in rule["poolTypes"]:
                continue
            wanted = set(rule.get("tokenTags") or ())
            if wanted and not (wanted <= tags if rule.get("tokenTagMode") == "all" else wanted & tags):
                continue
            found.add(category["id"])
        for p in self.chains.get(row["chainId"], {}).get("pools", ()):
            if p["address"].lower() == row["address"]:
                found |= set(p.get("categories", ()))
        return sorted(found)


def _latest_block(stack, chain_id: int) -> int:
    return stack.scalar("SELECT block_number FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} AND status = "
                        "'success' ORDER BY snapshot_at DESC LIMIT 1", c=chain_id)


def _pool_tokens(stack, chain_id: int, address: str) -> tuple[str, str]:
    row = stack.query("SELECT token0_address, token1_address FROM pool_snap15m WHERE chain_id = {c:UInt32} AND "
                      "pool_address = {p:String} LIMIT 1", c=chain_id, p=address)[0]
    return row[0], row[1]
