"""account_events (migration 080): every account's records, account first, derived from the event
tables by the history asset that wrote them, for the range it wrote (one INSERT ... SELECT,
transforms/accounts/account_events.sql). Re-deriving a range writes the same keys again, and
readers use FINAL, so a rerun replaces rather than duplicates."""
from __future__ import annotations

from .writers import run_transform

GOVERNANCE, VAULTS, XCORE, LIQUIDITY = "governance", "vaults", "xcore", "liquidity"  # the domains the transform reads


def derive_account_events(client, chain_id: int, start: int, end: int, domain: str) -> int:
    """Writes the account_events of the chain's `domain` records with start <= time < end; returns
    the rows written."""
    summary = run_transform(client, "accounts/account_events.sql",
                            {"chain_id": chain_id, "from_ts": start, "to_ts": end, "domains": [domain]})
    return int(getattr(summary, "written_rows", 0) or 0)
