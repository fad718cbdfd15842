"""The /v1 governance routes (spec v1-api.md: Routes named only, Governance): /v1/bribes.
`ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ..common.epochs import EPOCH_NOT_ALIGNED
from ..common.params import CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS, qualified_param
from . import bribes
from .schemas import SCHEMAS

__all__ = ["ROUTES", "SCHEMAS"]

EPOCH_NOT_ALIGNED_DOC = ErrorDoc(400, EPOCH_NOT_ALIGNED, "The epoch is not an epoch start (Thursday 00:00 UTC); "
                                 "details.epochStart names the start of the epoch holding it.")
CURSOR_EXPIRED_DOC = ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 hours or was issued by an earlier "
                              "release: restart the traversal without it.")
CURSOR = Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit "
               "may change); bound to them and each chain's snapshot; valid 24 hours", max_length=MAX_CURSOR_CHARS)

ROUTES = (
    Route("/bribes", "bribes", bribes.bribes, "Notified funding records", ref("V1BribePage"), params=(
        CHAIN_IDS,
        Param("epoch", "timestamp", "Only deposits funding this epoch: its start (Thursday 00:00 UTC), ISO 8601"),
        qualified_param("pool", "Only deposits to this pool's gauges"),
        qualified_param("gauge", "Only deposits to this gauge"),
        qualified_param("token", "Only deposits of this token"),
        Param("briber", "address", "Only deposits sent by this address"),
        Param("limit", "integer", "Records per page", default=100, minimum=1, maximum=500),
        CURSOR),
        cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="bribes", paginated=True,
        tags=("governance",), errors=(CHAIN_UNAVAILABLE_DOC, EPOCH_NOT_ALIGNED_DOC, CURSOR_EXPIRED_DOC),
        description="The bribes notified to gauges of the covered chains, one record per deposit, newest first: the "
                    "epoch it funds, gauge and pool, the token with its exact raw amount and decimal amount, the USD "
                    "value at deposit time (null when the token had no price then, never zero), the briber, block "
                    "and transaction. Each chain's records are its deposits before its published snapshot's time, as "
                    "far as its governance events are indexed (`coverage`); follow pageInfo.nextCursor with the other "
                    "parameters unchanged: every page reads the first page's snapshots. Notified funding is not "
                    "claimed rewards, trading fees or emissions, and is never added to them."),
)
