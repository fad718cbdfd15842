"""The reviewed curation publication an API worker serves (issue 12; ADR 0010).

Curation (token tags, pool categories, statuses, display order, featured flags, token lists) is
published into the warehouse by `ve-analytics curation publish` or its Dagster asset: entity
rows first, then one publication row. Each worker's snapshot pointer also follows the newest
publication (`latest_curation.sql`, in the same background refresh) and reads its document once
per new digest (`curation_document.sql`), so a curation-backed answer costs no extra query. The
publication joins the coverage of the routes that need it: their cache key, their ETag and the
`X-Curation-Version` header; without one they answer 503 `curation_unavailable`.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timezone
from typing import Any

import orjson

from .errors import ApiError
from ..core.epochs import iso
from ..warehouse.sqlbook import SqlFile

log = logging.getLogger("api")

CURATION_UNAVAILABLE = "curation_unavailable"  # 503: no reviewed curation publication yet
LATEST_CURATION, CURATION_DOCUMENT = "latest_curation", "curation_document"  # queries/common/


@dataclass(frozen=True, slots=True)
class Curation:
    digest: str  # sha256 of the publication's document: what cursors and ETags bind to
    version: str  # the publication's semantic version (X-Curation-Version)
    published_at: str  # ISO
    document: dict[str, Any] = field(compare=False, hash=False, repr=False)

    def meta(self) -> dict[str, str]:
        """`meta.curation` of a curation-backed answer."""
        return {"version": self.version, "digest": self.digest, "publishedAt": self.published_at}


def unavailable() -> ApiError:
    return ApiError(503, CURATION_UNAVAILABLE, "no reviewed curation publication is available yet; retry later "
                    "(it is published with `ve-analytics curation publish` or its Dagster asset)")


class CurationFollower:
    """The newest publication, refreshed with the snapshot pointer (api/snapshots.py)."""

    def __init__(self, latest: SqlFile, document: SqlFile):
        self.latest_query = latest
        self.document_query = document
        self.current: Curation | None = None
        self._failing = False

    async def refresh(self, client: Any) -> bool:
        """Read the newest publication; True when it changed. A failed read keeps the last one
        (logged once per outage): curation must not stop the snapshots from moving."""
        try:
            rows = (await client.query(self.latest_query.text)).result_rows
            if not rows:
                return False
            digest, version, published_at = rows[0]
            if self.current is not None and self.current.digest == digest:
                return False
            found = await client.query(self.document_query.text, parameters={"digest": digest})
            document = orjson.loads(found.result_rows[0][0])
        except Exception as exc:  # noqa: BLE001 - retried at the next refresh
            if not self._failing:
                log.warning("curation refresh failed (%s: %s); serving the last known publication",
                            type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "")
            self._failing = True
            return False
        self._failing = False
        at = published_at if published_at.tzinfo else published_at.replace(tzinfo=timezone.utc)
        self.current = Curation(str(digest), str(version), iso(at.astimezone(timezone.utc)), document)
        log.info("serving curation %s (digest %s…, published %s)", self.current.version, self.current.digest[:12],
                 self.current.published_at)
        return True
