"""The /v1 account routes (spec v1-api.md: Routes named only, Accounts; ADR 0020): one address's
holdings across the chains it selects with `chainIds`, each at that chain's published snapshot.
`ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ..common.params import CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS
from ..governance.routes import CURSOR, CURSOR_EXPIRED_DOC, VOTE_ERRORS, VOTE_FILTERS
from ..xcore.state import TOKEN_NOT_DEPLOYED
from . import (activity, liquidity, liquidity_schemas, portfolio, portfolio_schemas, reward_schemas, rewards, schemas,
               voting, votes, xcore)

__all__ = ["ROUTES", "SCHEMAS"]

SCHEMAS = {**schemas.SCHEMAS, **reward_schemas.SCHEMAS, **liquidity_schemas.SCHEMAS, **portfolio_schemas.SCHEMAS}
ADDRESS = Param("address", "address", "The wallet (or contract) address, either case", location="path")
COMMON = dict(cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, tags=("accounts",))
READS_ONLY = (" Reads only: a published answer is not authority to sign a transaction, and an indexed inventory may "
              "lag a confirmed receipt by up to a snapshot (15 minutes) plus the chain's `coverage` lag.")

ROUTES = (
    Route("/accounts/{address}/portfolio", "account_portfolio", portfolio.portfolio,
          "One address's value per chain and in total, by kind", ref("V1AccountPortfolio"),
          params=(ADDRESS, CHAIN_IDS), rests_on=xcore.canonical_rests_on, curation=True, valuations=True, **COMMON,
          errors=(CHAIN_UNAVAILABLE_DOC,),
          description="Per selected chain (default: all of them), at its published snapshot, the address's value by "
          "kind, each read exactly as its own account route reads it: liquidity (v2 LP in the wallet and staked, CL "
          "NFTs), vaults (what its vault shares hold), liquidityFees and emissions (uncollected fees, unclaimed emissions), locked (core token in its "
          "veNFTs), xcore (its xCORE's worth at the canonical rate) and rewards (its veNFTs' claimable bribe and fee "
          "rewards); each in USD at the tokens' current prices (`prices`), with usdComplete. A kind the chain does "
          "not have is unsupported; one whose state was not read, or that lacks a price, is flagged incomplete rather "
          "than counted as zero. `totals` sum each kind across the chains, never kinds together; `holdings` sums what "
          "the address holds (liquidity, vaults, locked, xcore), not what it has earned, and names those kinds. The answer "
          "rests on the canonical xCORE chain, which values the others' shares. An address with nothing is 200 with "
          "zero values." + READS_ONLY),
    Route("/accounts/{address}/activity", "account_activity", activity.activity,
          "One address's activity: votes, claims, vault deposits and redemptions, xCORE moves, liquidity",
          ref("V1AccountActivityPage"), params=(
              ADDRESS, CHAIN_IDS,
              Param("kinds", "string", "Comma-separated kinds to show (default all): " + ", ".join(activity.KINDS),
                    pattern=activity.KINDS_PATTERN, max_length=400,
                    rule="one or more of the kinds listed, separated by commas"),
              Param("limit", "integer", "Records per page", default=100, minimum=1, maximum=500), CURSOR),
          paginated=True, **COMMON, errors=(CHAIN_UNAVAILABLE_DOC, CURSOR_EXPIRED_DOC),
          description="One chronological feed of what the address did on the selected chains (default: all), newest "
          "first, in pages: its Voter transactions (vote, poke, reset: one record per transaction with its Voted and "
          "Abstained logs, attributed to the veNFT's owner when it was sent), its VotingEscrow logs (lock created, "
          "increased, extended, made permanent, withdrawn; veNFT transferred in or out, merged), the rewards paid to it (claim: the "
          "veNFT, bribe or fee reward, epoch, token, exact amount, USD at the claim's time or null), its vault "
          "deposits and redemptions (shares and both token amounts, exact), and its xCORE deposits, exits and "
          "bridge moves, and its liquidity (lpAdd: v2 LP added or a CL position minted; lpRemove: removed or burnt; "
          "lpStake and lpUnstake in the gauge; lpCollect: CL fees collected; lpClaim: gauge emissions claimed; each "
          "with the chain's own event name, the position as /liquidity-positions names it, and the exact amounts it "
          "moved or paid). Each chain's records are those before its published snapshot's time, as far as its events "
          "of each domain are indexed (`coverage`; a domain behind its snapshot makes meta.complete false). An address "
          "with nothing is "
          "200 with no rows; follow pageInfo.nextCursor with the other parameters unchanged." + READS_ONLY),
    Route("/accounts/{address}/liquidity-positions", "account_liquidity_positions", liquidity.liquidity_positions,
          "One address's liquidity positions: v2 LP in the wallet and staked, CL NFTs, with fees and emissions",
          ref("V1AccountLiquidityPositions"),
          params=(ADDRESS, CHAIN_IDS,
                  Param("kind", "enum", "Only v2, only CL or only vault positions (default all)",
                        choices=liquidity.KINDS),
                  Param("limit", "integer", "Positions per page", default=100, minimum=1, maximum=500), CURSOR),
          feature="liquidityPositions", paginated=True, curation=True, valuations=True, **COMMON,
          errors=(CHAIN_UNAVAILABLE_DOC, CURSOR_EXPIRED_DOC),
          description="Per selected chain whose positions are indexed (default: all of them), the address's open "
          "liquidity positions at the chain's published snapshot block, as the chain's LpSugar (Velodrome's Sugar) "
          "answered there, in (chainId, positionId) pages: a v2 pool's LP tokens in the wallet and staked in the "
          "gauge (one position, two legs kept apart), a CL NFT staked or not with its range (ticks, prices, in range "
          "or not), and its shares of auto-managed vaults (the sum of its indexed deposits and withdrawals, known where "
          "the chain's vault events are indexed from its deployment on, and their part of the vault's totals); the token "
          "amounts at the block, the trading fees not yet collected (wallet LP and unstaked NFTs) "
          "and the gauge emissions not yet claimed (staked liquidity), each valued at the token's current price at "
          "the snapshot as /v1/prices gives it (`prices` lists every one with its observation, or the reason it has "
          "none: a value needing a missing price is null, the amounts stay). Staked values are those at the "
          "snapshot block, not as of the address's last action; paging runs over positions, not pools. `chains` "
          "sums every position of the address per part (unstaked, staked, vaults, fees, emissions) and token, and per part "
          "in USD with usdComplete; parts are never added together. A chain whose positions were not read at its "
          "snapshot is `not_read` (unknown, not none). An address with nothing is 200 with no rows." + READS_ONLY),
    Route("/accounts/{address}/xcore", "account_xcore", xcore.account_xcore,
          "One address's escrow-share token per chain and its worth at the current rate", ref("V1AccountXcore"),
          params=(ADDRESS, CHAIN_IDS), feature="xcore", rests_on=xcore.canonical_rests_on, **COMMON,
          errors=(CHAIN_UNAVAILABLE_DOC, ErrorDoc(404, TOKEN_NOT_DEPLOYED, "No chain of the chain book holds the token.")),
          description="Per selected chain with xCORE (default: all of them), the address's shares at the chain's "
          "published snapshot: the sum of its indexed moves up to the snapshot (deposits and bridged-in shares add, "
          "exits and bridged-out shares take), with the count and the last move; null where the chain's events are "
          "not indexed from its deployment on. `worth` converts shares to core token at the canonical chain's rate "
          "at its snapshot (before any exit penalty); the answer always rests on the canonical chain, which "
          "meta.chains lists even when chainIds leaves it out. An address that never held xCORE is 200 with zero "
          "balances." + READS_ONLY),
    Route("/accounts/{address}/voting-positions", "account_voting_positions", voting.voting_positions,
          "The veNFTs one address owns, with their locks, voting power and allocations", ref("V1AccountVotingPositions"),
          params=(ADDRESS, CHAIN_IDS, Param("limit", "integer", "veNFTs per page", default=100, minimum=1, maximum=500),
                  CURSOR), feature="gauges", paginated=True, **COMMON, errors=(CHAIN_UNAVAILABLE_DOC, CURSOR_EXPIRED_DOC),
          description="Per selected chain with gauges (default: all of them), the veNFTs the address owns at the "
          "chain's published snapshot block, as its VotingEscrow held them there (so ownership follows every "
          "transfer, merge or split before it), in (chainId, tokenId) pages: the lock (amount, unlock time, "
          "permanent, decaying or expired), its voting power at the block, the allocation in effect (the Voter's "
          "logs before the snapshot replayed, as /v1/votes?view=current: allocations persist across epochs until "
          "the veNFT votes again, pokes or resets), its last Voter transaction and its last vote with that vote's "
          "epoch. `chains` sums each chain's veNFTs over every page; voting power is a chain's own and is never "
          "added across chains. A chain whose locks were not read at its snapshot is `not_read` (positions "
          "unknown, not none); allocations are whole only where the chain's governance events are indexed from its "
          "deployment (`coverage`). An address that owns nothing is 200 with no rows." + READS_ONLY),
    Route("/accounts/{address}/votes", "account_votes", votes.account_votes, "One address's votes",
          ref("V1VotePage"), params=(ADDRESS, CHAIN_IDS, *VOTE_FILTERS), feature="gauges", paginated=True, **COMMON,
          errors=VOTE_ERRORS,
          description="/v1/votes with the address as its voter (filters.voter echoes it), in either view: "
          "`events` (default), the Voter's logs of the veNFTs the address owned when they were written, newest "
          "first, per chain and epoch (`epoch`); `current`, the allocations in effect at each chain's published "
          "snapshot of the veNFTs it owns there, with their voting power. Rows, coverage, order and cursors are "
          "/v1/votes' own." + READS_ONLY),
    Route("/accounts/{address}/rewards", "account_rewards", rewards.account_rewards,
          "One address's rewards (its veNFTs' and its liquidity positions'): claimable and claimed, by kind, token and epoch", ref("V1AccountRewards"),
          params=(ADDRESS, CHAIN_IDS,
                  Param("status", "enum", "Only claimable or only claimed rewards (default both)", choices=rewards.STATUSES),
                  Param("kind", "enum", "Only one kind of reward (default every kind)", choices=rewards.KINDS),
                  Param("limit", "integer", "Rewards per page", default=100, minimum=1, maximum=500), CURSOR),
          feature="gauges", paginated=True, curation=True, valuations=True, **COMMON,
          errors=(CHAIN_UNAVAILABLE_DOC, CURSOR_EXPIRED_DOC),
          description="Per selected chain with gauges (default: all of them), at its published snapshot and as far as "
          "its governance events are indexed (`coverage.indexedUntil`), in pages: `claimable`, every reward the veNFTs "
          "the address owns at the snapshot block earned in an epoch ended by then that no indexed claim took, valued "
          "at the token's current price at the snapshot as /v1/prices gives it (with the observation; none for a token "
          "the curation blocks or a price past its age limit); `claimed`, every indexed claim paid to the address (the "
          "veNFT's owner at the claim), valued at the claim's time. A veNFT earns what Velodrome's reward contracts "
          "checkpoint: per gauge it voted for, its votes at the epoch's last second over the gauge's votes then, times "
          "the epoch's bribes per token (kind bribe) or the pool's trading fees of the epoch (kind fee), rounded down; "
          "and from the rewards distributor (kind rebase, no gauge) its voting power at each ended epoch's start over "
          "the escrow's total then, times the epoch's rebase, rounded down: one claim takes every epoch since the last, "
          "and is listed per epoch it took. Emissions (kind emission, no veNFT: `positionId`) are a gauge's to the "
          "address's liquidity positions staked in it: claimable, what the gauge holds for each open position at the "
          "snapshot block (in the snapshot's epoch), as /liquidity-positions shows it; claimed, each indexed claim (a "
          "claim, or an unstake that claims), valued at the token's hourly close of the claim's hour. "
          "A reward is either claimable or claimed, never both (a claim sent after indexedUntil still shows as "
          "claimable); a veNFT's rewards of the epoch in progress are not listed until it ends. `chains` sums each chain's "
          "rewards per kind, status and token over every page (and per kind in USD, with usdComplete); kinds are never "
          "added together. Claimable rewards are known where the chain's locks (and its liquidity positions, "
          "`emissions`) were read at its snapshot and its governance (and liquidity) events are indexed from its "
          "deployment (`complete`). An address with nothing is 200 with no rows." + READS_ONLY),
)
