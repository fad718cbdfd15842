"""Handler of /v1/accounts/{address}/votes: /v1/votes with the address as the voter, in either view.
view=events: the Voter's logs of veNFTs the address owned when they were written (the votes it
cast); view=current: the allocations in effect at each chain's snapshot of the veNFTs it owns
there. One implementation (../governance/votes.py), so the two routes never disagree."""
from __future__ import annotations

from typing import Any

from ...routes import RequestContext, runs
from ..governance.votes import votes


@runs(*votes.sql)
async def account_votes(ctx: RequestContext) -> dict[str, Any]:
    ctx.params["voter"] = ctx.params["address"]  # echoed lower case in filters.voter
    return await votes(ctx)
