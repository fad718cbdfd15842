"""The /v1 governance routes (spec v1-api.md: Routes named only, Governance): /v1/bribes,
/v1/epochs, /v1/epochs/{chainId}/{epochStart}, /v1/markets/bribes and /v1/votes.
`ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ..common.epochs import EPOCH_NOT_ALIGNED
from ..common.params import CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS, PATH_CHAIN_ID, qualified_param
from . import allocations, bribes, epochs, markets, votes
from .schemas import SCHEMAS

__all__ = ["ROUTES", "SCHEMAS"]

EPOCH_NOT_ALIGNED_DOC = ErrorDoc(400, EPOCH_NOT_ALIGNED, "The epoch is not an epoch start (Thursday 00:00 UTC); "
                                 "details.epochStart names the start of the epoch holding it.")
CURSOR_EXPIRED_DOC = ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 hours or was issued by an earlier "
                              "release: restart the traversal without it.")
CURSOR = Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit "
               "may change); bound to them and each chain's snapshot; valid 24 hours", max_length=MAX_CURSOR_CHARS)

VOTE_FILTERS = (
    Param("view", "enum", "events: the Voter's logs (Voted and Abstained of vote, poke and reset transactions); "
          "current: every veNFT's allocation in effect at the snapshot, with its voting power",
          default="events", choices=("events", "current")),
    Param("epoch", "timestamp", "view=events only: logs of this epoch, its start (Thursday 00:00 UTC), ISO 8601"),
    qualified_param("pool", "Only logs on (allocations to) this pool or system gauge's target"),
    qualified_param("gauge", "Only logs on (allocations to) this gauge"),
    Param("tokenId", "integer", "Only this veNFT", minimum=0),
    Param("kind", "enum", "view=events only: logs of this kind of transaction", choices=("vote", "poke", "reset")),
    Param("limit", "integer", "Rows per page", default=100, minimum=1, maximum=500), CURSOR)
VOTE_ERRORS = (CHAIN_UNAVAILABLE_DOC, EPOCH_NOT_ALIGNED_DOC, CURSOR_EXPIRED_DOC,
               ErrorDoc(400, allocations.FILTER_NOT_IN_VIEW, "epoch or kind with view=current: they filter logs, not "
                        "the allocations in effect; details.param names it."))

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
    Route("/epochs", "epochs", epochs.page, "Epochs", ref("V1EpochPage"), params=(
        CHAIN_IDS, Param("limit", "integer", "Epochs per page (one chain's epoch each)", default=100, minimum=1,
                         maximum=500), CURSOR),
        cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="gauges", paginated=True,
        tags=("governance",), errors=(CHAIN_UNAVAILABLE_DOC, CURSOR_EXPIRED_DOC),
        description="Each covered chain's epochs (Thursday 00:00 UTC weeks), newest first, then by chain: from the "
                    "one holding the chain's published snapshot (`partial`: running) back to the one of its "
                    "deployment. Per epoch the sums over the chain's gauges: gauge counts, votes in effect, emissions "
                    "allotted and emitted, notified bribes (USD at deposit time, null when a deposit had no price) and "
                    "the trading fees accrued to the fee rewards; an epoch the governance events have not read is "
                    "`gap: not_indexed`. Epochs of different chains are listed side by side, never added."),
    Route("/epochs/{chainId}/{epochStart}", "epoch", epochs.detail, "One epoch of one chain", ref("V1EpochDetail"),
          params=(PATH_CHAIN_ID, Param("epochStart", "timestamp", "The epoch's start (Thursday 00:00 UTC), ISO 8601",
                                       location="path")),
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="gauges", tags=("governance",),
          errors=(CHAIN_UNAVAILABLE_DOC, EPOCH_NOT_ALIGNED_DOC,
                  ErrorDoc(404, epochs.EPOCH_BEFORE_DEPLOYMENT, "The epoch is before the chain's deployment; "
                           "details.firstEpoch names its first."),
                  ErrorDoc(404, epochs.EPOCH_IN_FUTURE, "The epoch starts after the one holding the chain's published "
                           "snapshot; details.newestEpoch names that one.")),
          description="One epoch of one chain, as in /v1/epochs, with every gauge's figures for it (most votes first)."),
    Route("/markets/bribes", "markets_bribes", markets.bribes, "The vote market of an epoch", ref("V1BribeMarket"),
          params=(CHAIN_IDS,
                  Param("epoch", "timestamp", "The epoch (its start, Thursday 00:00 UTC, ISO 8601); default the one "
                        "holding the newest published snapshot of the covered chains"),
                  Param("limit", "integer", "Rows per page", default=100, minimum=1, maximum=500), CURSOR),
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="bribes", paginated=True,
          tags=("governance",), errors=(CHAIN_UNAVAILABLE_DOC, EPOCH_NOT_ALIGNED_DOC, CURSOR_EXPIRED_DOC,
                                        ErrorDoc(404, epochs.EPOCH_IN_FUTURE, "The epoch starts after the one holding "
                                                 "the covered chains' newest published snapshot.")),
          description="The vote market of one epoch (the same Thursday week on every chain, never mixed): per gauge "
                      "with votes or bribes in it, the rewards on offer to its voters (notified bribes, USD at deposit "
                      "time, plus the trading fees accrued to its fee reward, USD at each swap's time: `rewardsUsd` "
                      "says it sums them), its votes in effect and dollarPerVote = rewardsUsd / votes. A closed epoch "
                      "read after its end is `final`; the running one is `projected`: dollarPerVote so far, and a "
                      "`projection` of the whole week (fees at their rate so far; bribes and votes as they stand). "
                      "`valuedThrough` is when the figures were read up to. Sorted by dollarPerVote, highest first, "
                      "unknown last."),
    Route("/votes", "votes", votes.votes, "Votes", ref("V1VotePage"), params=(
        CHAIN_IDS,
        Param("voter", "address", "Only veNFTs owned by this address: then (view=events), at the snapshot "
              "(view=current)"),
        *VOTE_FILTERS),
        cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="gauges", paginated=True,
        tags=("governance",), errors=VOTE_ERRORS,
        description="Two views, chosen by `view` (the answer's `view` says which; its rows' schema follows it). "
                    "`events` (default): the Voter's logs of the covered chains, newest first: each `Voted` or "
                    "`Abstained` of a `vote` (abstains from the veNFT's previous targets, then votes), `poke` "
                    "(recasts them with its current voting power) or `reset` (abstains from all) transaction, with "
                    "the weight, its signed effect, the target's and the total weight after it, block, time, "
                    "transaction and log index. `current`: every veNFT's allocation in effect at each chain's "
                    "published snapshot, one row per veNFT and target in (chainId, tokenId, target) order: the "
                    "weight it cast, its veNFT's whole allocation, its last action, and its lock with the voting "
                    "power at the snapshot block (which decays from the weight cast until the veNFT pokes or votes "
                    "again). Allocations persist from epoch to epoch until their veNFT votes again, pokes or "
                    "resets, so the current view is the logs replayed in order: it is whole when a chain's events "
                    "are indexed from its deployment to its snapshot (`coverage`), else meta.complete is false. "
                    "Each chain's logs before its published snapshot's time; follow pageInfo.nextCursor with the "
                    "other parameters unchanged."),
)
