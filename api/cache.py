"""Per-snapshot response cache.

Key: (route name, normalized parameters, snapshotAt). Value: the encoded body and its headers,
exactly as first sent, so identical requests between two snapshots get identical bytes
(`meta.generatedAt` included). A new snapshot changes every key, so nothing is ever
invalidated by hand; a bounded LRU (settings.response_cache_entries, 0 disables it) drops the
entries of older snapshots. One cache per worker process.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Hashable

DEFAULT_MAX_ENTRIES = 2048

CacheKey = tuple[str, Hashable, str]
CachedResponse = tuple[bytes, dict[str, str]]


class ResponseCache:
    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES):
        self.max_entries = max_entries
        self._entries: OrderedDict[CacheKey, CachedResponse] = OrderedDict()

    def get(self, key: CacheKey) -> CachedResponse | None:
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
        return entry

    def put(self, key: CacheKey, body: bytes, headers: dict[str, str]) -> CachedResponse:
        """Store a response; the first one stored for a key wins and is what every caller sends,
        so two concurrent misses for the same key still answer with the same bytes."""
        entry = self._entries.get(key)
        if entry is not None:
            return entry
        entry = (body, headers)
        if self.max_entries > 0:
            self._entries[key] = entry
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return entry

    def __len__(self) -> int:
        return len(self._entries)
