"""The curation publication: the reviewed source (curation/curation.json, CURATION_SOURCE) checked
against each chain's latest published snapshot and written to the warehouse under its digest.

`publish_curation(client, path, chain_ids)` is the one way to publish: the `curation_publication`
asset runs it (and so `ve-analytics curation publish` and the local stack, which materialize the
asset); `check=True` does everything but write (`--check`).

Publication protocol, so that a reader never sees a publication whose entities are not all
stored: every `curation_entities` row of the digest in one insert (its deduplication token derived
from the digest, so a retry is dropped), then the one `curation_publications` row with
published_at = now. The latest publication is the row with the greatest published_at. The same
digest as the latest is not written again; a changed source under the published version is refused
(core.curation_publication.decide). An invalid source fails with every problem and writes nothing.
"""
# No `from __future__ import annotations`: Dagster reads the asset's parameter types (its config
# class) at definition time.
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable

from dagster import AssetExecutionContext, AssetsDefinition, Config, MaterializeResult, MetadataValue, asset
from pydantic import Field

from .resources import ChainsResource, WarehouseResource
from .writers import insert_columns, query_rows
from ..core.config import Settings
from ..core.curation_publication import Publication, decide, publication
from ..core.curation_source import load_source
from ..core.epochs import to_datetime
from ..core.pipeline_names import CURATION_ASSET, CURATION_GROUP
from ..core import clock

ENTITY_COLUMNS = ("chain_id", "kind", "address", "curated", "status", "tags", "categories", "display_order", "featured")


def read_indexed(client, chain_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Per chain of `chain_ids` with a published snapshot: its latest snapshot's tokens and pools."""
    latest = {int(r["chain_id"]): int(r["snapshot_ts"]) for r in query_rows(client, "curation/latest_snapshots.sql", {})}
    out: dict[int, dict[str, Any]] = {}
    for cid in sorted(set(chain_ids) & set(latest)):
        params = {"chain_id": cid, "snapshot_ts": latest[cid]}
        tokens = {r["address"]: {"symbol": r["symbol"], "name": r["name"], "decimals": int(r["decimals"])}
                  for r in query_rows(client, "curation/indexed_tokens.sql", params)}
        pools = {r["address"]: {"pool_type": r["pool_type"], "token0": r["token0"], "token1": r["token1"]}
                 for r in query_rows(client, "curation/indexed_pools.sql", params)}
        out[cid] = {"snapshot_at": latest[cid], "tokens": tokens, "pools": pools}
    return out


def latest_publication(client) -> dict[str, Any] | None:
    """The latest publication's digest, version, source_digest, document (parsed), published_ms."""
    rows = query_rows(client, "curation/latest_publication.sql", {})
    if not rows:
        return None
    return {**rows[0], "document": json.loads(rows[0]["document"])}


def write_publication(client, pub: Publication, published_at: float) -> int:
    """The entity rows of the digest, then its publication row (the order readers rely on)."""
    rows = pub.entities
    columns: dict[str, list[Any]] = {"digest": [pub.digest] * len(rows)}
    columns.update({name: [r[name] for r in rows] for name in ENTITY_COLUMNS})
    written = insert_columns(client, "curation_entities", columns, asset=CURATION_ASSET, partition_range=pub.digest)
    insert_columns(client, "curation_publications", {
        "digest": [pub.digest],
        "version": [pub.version],
        "source_digest": [pub.source_digest],
        "published_at": [to_datetime(published_at)],
        "reviewed_by": [pub.review["reviewedBy"]],
        "reviewed_at": [datetime.fromisoformat(pub.review["reviewedAt"])],
        "document": [json.dumps(pub.document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)],
    }, asset=CURATION_ASSET, partition_range=pub.digest)  # the token hashes published_at: never dropped
    return written


@dataclass(frozen=True)
class Outcome:
    status: str  # "published", "unchanged" (the latest already) or "checked" (check=True: nothing written)
    publication: Publication
    source: Path
    latest: dict[str, Any] | None
    rows_written: int = 0

    def line(self) -> str:
        """One readable line: what was (or would be) published."""
        pub = self.publication
        counts = pub.counts()
        name = f"curation {pub.version} (digest {pub.digest[:12]}…)"
        if self.status == "unchanged":
            return f"{name} is already published"
        what = (f"{len(pub.document['chains'])} chain(s), {counts['tokens']} tokens, {counts['pools_curated']} of "
                f"{counts['pools_indexed']} indexed pools curated, {len(pub.document['tokenLists'])} token list(s)")
        if self.status == "checked":
            was = f"latest {self.latest['version']} ({self.latest['digest'][:12]}…)" if self.latest else "none published yet"
            return f"{name} from {self.source} is valid and would be published ({what}; {was})"
        return f"{name} published: {what} ({self.rows_written} entity rows)"

    def details(self) -> list[str]:
        """A line per chain: the snapshot it was checked against and what it curates."""
        doc, out = self.publication.document, []
        for cid, chain in doc["chains"].items():
            rows = [r for r in self.publication.entities if str(r["chain_id"]) == cid and r["kind"] == "pool"]
            token_list = doc["tokenLists"].get(cid)
            listed = (f"token list {token_list['name']!r} {token_list['version']} ({len(token_list['tokens'])} tokens)"
                      if token_list else "no token list")
            out.append(f"chain {cid} at snapshot {chain['snapshotAt']}: {chain['tokens']} tokens curated, "
                       f"{chain['pools']} of {len(rows)} indexed pools curated, {listed}")
        return out

    def metadata(self) -> dict[str, Any]:
        pub = self.publication
        chains = {cid: {**summary, "entityRows": sum(1 for r in pub.entities if str(r["chain_id"]) == cid)}
                  for cid, summary in pub.document["chains"].items()}
        return {"summary": self.line(), "status": self.status, "version": pub.version, "digest": pub.digest, "source_digest": pub.source_digest,
                "source": str(self.source), "rows_written": self.rows_written,
                **{f"entities {k}": v for k, v in pub.counts().items()}, "chains": MetadataValue.json(chains)}


def publish_curation(client, path: str | Path, chain_ids: Iterable[int], *, check: bool = False, log=None) -> Outcome:
    """Validate the source at `path` against the chains' latest snapshots and publish it, unless
    it is the latest publication already or `check`. Raises CurationInvalid with every problem."""
    path = Path(path)
    chain_ids = list(chain_ids)
    source = load_source(path)
    pub = publication(source, read_indexed(client, chain_ids), chain_ids)
    latest = latest_publication(client)
    decision = decide(latest, pub)
    if decision == "unchanged":
        outcome = Outcome("unchanged", pub, path, latest)
    elif check:
        outcome = Outcome("checked", pub, path, latest)
    else:
        outcome = Outcome("published", pub, path, latest, write_publication(client, pub, clock.now()))
    if log is not None:
        log.info(outcome.line())
    return outcome


class CurationConfig(Config):
    source: str = Field(default="", description="Path of the curation source; empty: CURATION_SOURCE "
                                                "(default curation/curation.json)")


def build_curation_assets(default_source: Path | None = None) -> list[AssetsDefinition]:
    """The `curation_publication` asset (not partitioned, group `curation`); its source is the run
    config's `source`, else `default_source` (pinned settings), else CURATION_SOURCE at run time."""

    @asset(name=CURATION_ASSET, group_name=CURATION_GROUP, kinds={"clickhouse", "python"},
           metadata={"tables": "curation_entities, curation_publications"},
           description="The reviewed curation (token tags, pool categories, statuses, display order, featured flags, "
                       "token lists), checked against every chain's latest published snapshot and published under its "
                       "digest: its entity rows, then its publication row.")
    def curation_publication(context: AssetExecutionContext, config: CurationConfig, warehouse: WarehouseResource,
                             chains: ChainsResource) -> MaterializeResult:
        path = Path(config.source) if config.source else default_source or Settings.from_env().curation_source
        with warehouse.client() as client:
            outcome = publish_curation(client, path, chains.book(), log=context.log)
        return MaterializeResult(metadata=outcome.metadata())

    return [curation_publication]
