"""Route table of the governance routes of /api/stats: bribes, votes, vote escrow, epochs,
gauges and the foundation, with their parameters. Handlers: governance_handlers.py; schemas:
governance_schemas.py."""
from __future__ import annotations

from ..routes import ErrorDoc, Route
from ..schema import array_of, ref
from . import governance_handlers
from .governance_handlers import GAUGE_NOT_FOUND
from .market_routes import POOL_ID
from ..validation import Param
from ...core.epochs import LAST_EPOCH_START, WEEK

EPOCH_TEXT = "an epoch start: Thursday 00:00 UTC"

EPOCH = Param("epoch", "integer", "Epoch start, Unix seconds (a Thursday 00:00 UTC, a multiple of 604800)",
              minimum=0, maximum=LAST_EPOCH_START, multiple_of=WEEK, multiple_text=EPOCH_TEXT)
POOL = Param("pool", "address", "Only this pool")
FOUNDATION_ONLY = Param("foundationOnly", "boolean", "Only deposits funded by the foundation wallet", default=False)
LIMIT_1000 = Param("limit", "integer", "Maximum number of rows", default=100, minimum=1, maximum=1000)
VENFT_ID = Param("venftId", "integer", "Only this veNFT (token id)", minimum=0)
LATEST_ONLY = Param("latestOnly", "boolean", "Only each veNFT's most recent voting epoch (false: full history)",
                    default=True)
GAUGE_ADDRESS = Param("gaugeAddress", "address", "Gauge address", location="path")
REWARDS_LIMIT = Param("limit", "integer", "Number of epochs", default=12, minimum=1, maximum=200)
EPOCH_START = Param("epochStart", "integer", "Epoch start, Unix seconds (a Thursday 00:00 UTC)", location="path",
                    minimum=0, maximum=LAST_EPOCH_START, multiple_of=WEEK, multiple_text=EPOCH_TEXT, code="invalid_epoch")
MIN_USD = Param("minUsd", "number", "Only gauges whose total reward (bribes + fees) is at least this many USD",
                default=0, minimum=0)
LIMIT_500 = Param("limit", "integer", "Maximum number of rows", default=100, minimum=1, maximum=500)
EPOCH_LIMIT = Param("limit", "integer", "Number of epochs", default=12, minimum=1, maximum=52)

TAGS = ("governance",)
BRIBES_DESC = ("Bribe deposits known at the snapshot, newest first (block time, then id). `amountUsd` is the USD "
               "value at deposit time. `epoch` must be an epoch start (else 400 `invalid_epoch`); "
               "`foundationOnly` keeps the foundation wallet's deposits.")

ROUTES: tuple[Route, ...] = (
    Route("/gauges", "gauges", governance_handlers.gauges, "Gauges with their pools", array_of("Gauge"),
          description="Every gauge of the snapshot with its pool (type, token symbols, TVL), this epoch's votes, "
          "the foundation's vote share and the APR breakdown (emission, fee, bribe, total); most-voted first.",
          tags=TAGS),
    Route("/gauges/{gaugeAddress}", "gauges_detail", governance_handlers.gauges_detail, "One gauge and its APR history", ref("GaugeDetail"),
          params=(GAUGE_ADDRESS,),
          description="`current`: the gauge in the snapshot; `history`: its APR breakdown at up to the last 672 "
          "successful snapshots, oldest first. 404 `gauge_not_found` when the snapshot has no such gauge.",
          errors=(ErrorDoc(404, GAUGE_NOT_FOUND, "The snapshot has no gauge with this address."),),
          tags=TAGS),
    Route("/gauges/{gaugeAddress}/bribes", "gauges_bribes", governance_handlers.gauges_bribes, "Bribe deposits of one gauge",
          array_of("BribeEvent"), params=(GAUGE_ADDRESS, LIMIT_1000, EPOCH, FOUNDATION_ONLY),
          description=BRIBES_DESC, tags=TAGS),
    Route("/gauges/{gaugeAddress}/kpis", "gauges_kpis", governance_handlers.gauges_kpis, "Foundation KPI snapshots of one gauge",
          array_of("FoundationKpi"), params=(GAUGE_ADDRESS, EPOCH, LIMIT_1000), error_prefix="foundation_kpis",
          description="`/foundation/kpis` for one gauge.", tags=TAGS),
    Route("/gauges/{gaugeAddress}/rewards", "gauges_rewards", governance_handlers.gauges_rewards, "Voter rewards of one gauge per epoch",
          array_of("GaugeEpochReward"), params=(GAUGE_ADDRESS, REWARDS_LIMIT),
          description="The newest `limit` epochs with rewards, newest first: token by token, the bribes deposited "
          "(USD at deposit time) and the fee rewards claimed by the epoch's voters (USD at claim time).",
          tags=TAGS),
    Route("/bribes", "bribes", governance_handlers.bribes, "Bribe deposits", array_of("BribeEvent"),
          params=(POOL, FOUNDATION_ONLY, EPOCH, LIMIT_1000), description=BRIBES_DESC, tags=TAGS),
    Route("/bribes/totals", "bribes_totals", governance_handlers.bribes_totals, "Bribe totals per epoch", array_of("BribeTotal"),
          description="One row per epoch with deposits up to the snapshot, the 52 newest epochs, newest first.",
          tags=TAGS),
    Route("/pools/{poolId}/bribes", "pool_bribes", governance_handlers.pool_bribes, "Bribe deposits of one pool", array_of("BribeEvent"),
          params=(POOL_ID, LIMIT_1000, EPOCH, FOUNDATION_ONLY), error_prefix="bribes",
          description="Alias of `/api/stats/bribes?pool=<poolId>`: the same query, the same rows. " + BRIBES_DESC,
          tags=TAGS),
    Route("/votes", "votes", governance_handlers.votes, "Vote allocations", array_of("VoteSnapshot"),
          params=(EPOCH, VENFT_ID, POOL, LATEST_ONLY),
          description="Vote allocations (veNFT, pool, weight, epoch) cast up to the snapshot, newest epoch first, "
          "then by veNFT id and pool. With `latestOnly` (default true) each veNFT's most recent voting epoch only; "
          "false returns the full history.",
          tags=TAGS),
    Route("/foundation", "foundation", governance_handlers.foundation, "Foundation summary", ref("FoundationSummary"),
          description="The foundation wallet's owned veNFTs, vote escrow held, voting power and current-epoch vote "
          "allocation at the snapshot, with its lifetime and recent (30 days) bribe spend and reward claims.",
          tags=TAGS),
    Route("/foundation/votes", "foundation_votes", governance_handlers.foundation_votes, "Foundation vote snapshots",
          array_of("FoundationVote"), params=(EPOCH, LATEST_ONLY),
          description="The foundation veNFTs' allocations, one representative snapshot per epoch (the latest "
          "successful snapshot inside it); `latestOnly` (default true) keeps the newest epoch only.",
          tags=TAGS),
    Route("/foundation/bribes", "foundation_bribes", governance_handlers.foundation_bribes, "Foundation bribe deposits",
          array_of("BribeEvent"), params=(POOL, EPOCH, LIMIT_1000), error_prefix="bribes",
          description="Bribes funded by the foundation wallet, newest first: `/bribes?foundationOnly=true`.",
          tags=TAGS),
    Route("/foundation/kpis", "foundation_kpis", governance_handlers.foundation_kpis, "Foundation KPI snapshots",
          array_of("FoundationKpi"), params=(EPOCH, POOL, LIMIT_1000),
          description="KPI rows of the gauges the foundation voted for or bribed, one representative snapshot per "
          "epoch (the latest successful one inside it), newest epoch first. Classification method: "
          "docs/methodology/kpi-classification.md, version = `/config` methodologyVersion.",
          tags=TAGS),
    Route("/ve", "ve", governance_handlers.ve, "Vote-escrow statistics", ref("VeStats"),
          description="Total locked, total voting power, permanent vs decaying locks, lock counts and the average "
          "remaining lock duration at the snapshot block.",
          tags=TAGS),
    Route("/epochs", "epochs", governance_handlers.epochs, "Epoch summaries", array_of("EpochSummary"), params=(EPOCH_LIMIT,),
          description="Epochs with bribes or votes up to the snapshot, newest first: bribes deposited, foundation "
          "bribe spend and vote share, gauges voted for and the five most-voted gauges.",
          tags=TAGS),
    Route("/markets/bribes", "markets_bribes", governance_handlers.markets_bribes, "Bribe market of an epoch", array_of("BribeMarketRow"),
          params=(EPOCH, MIN_USD, LIMIT_500),
          description="Per gauge for the epoch (default: the most recent epoch with bribes): bribes deposited, the "
          "pool's fees (voter fee rewards) over the epoch's ended hours, the epoch's votes and dollarPerVote = "
          "(bribes + fees) / votes; sorted by total reward USD descending.",
          tags=TAGS),
    Route("/epochs/{epochStart}", "epochs_detail", governance_handlers.epochs_detail, "One epoch in detail", ref("EpochDetail"),
          params=(EPOCH_START,),
          description="The foundation's votes and KPI rows from one representative snapshot inside the epoch (the "
          "latest successful one), and every bribe deposited in the epoch. A value that is not an epoch start "
          "(Thursday 00:00 UTC, a multiple of 604800) is a 400 `invalid_epoch`.",
          tags=TAGS),
)
