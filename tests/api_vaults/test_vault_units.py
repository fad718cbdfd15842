"""Pure parts of /api/v1: token bucket, single-flight memo, ABI generation."""
from __future__ import annotations

import asyncio

import pytest
from eth_utils import function_signature_to_4byte_selector

from ve_analytics.api.errors import ApiError
from ve_analytics.api.ratelimit import RateLimiter
from ve_analytics.api.vaults import abi
from ve_analytics.api.cache import Cache as Memo


def test_token_bucket():
    now = [0.0]
    limiter = RateLimiter(rate=2.0, burst=3, clock=lambda: now[0])
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.take("a") == pytest.approx(0.5)
    assert limiter.take("b") == 0.0  # per client
    now[0] += 0.5
    assert limiter.take("a") == 0.0


def test_limiter_check_raises_429():
    limiter = RateLimiter(rate=0.1, burst=1)

    class Request:
        ip = "10.0.0.1"

    limiter.check(Request())
    with pytest.raises(ApiError) as err:
        limiter.check(Request())
    assert err.value.status == 429 and err.value.code == "rate_limited" and err.value.headers["retry-after"] == "10"


def test_memo_single_flight_and_ttl():
    calls = []
    now = [0.0]
    memo = Memo(clock=lambda: now[0])

    async def compute():
        calls.append(1)
        await asyncio.sleep(0.01)
        return len(calls)

    async def scenario():
        first = await asyncio.gather(*(memo.get("k", 10, compute) for _ in range(5)))
        cached = await memo.get("k", 10, compute)
        now[0] += 11
        fresh = await memo.get("k", 10, compute)
        return first, cached, fresh

    first, cached, fresh = asyncio.run(scenario())
    assert first == [1] * 5 and cached == 1 and fresh == 2


def test_memo_does_not_keep_failures():
    memo = Memo()
    attempts = []

    async def compute():
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("upstream")
        return "ok"

    async def scenario():
        with pytest.raises(RuntimeError):
            await memo.get("k", 60, compute)
        return await memo.get("k", 60, compute)

    assert asyncio.run(scenario()) == "ok"


def test_json_abi_matches_signatures():
    for signatures in (abi.vault_signatures("cl"), abi.ZAPPER, abi.ERC20):
        for signature, item in zip(signatures, abi.json_abi(signatures)):
            text = f"{item['name']}({','.join(i['type'] for i in item['inputs'])})"
            assert text == abi.selector_form(signature)
            assert function_signature_to_4byte_selector(text)
    native = {i["name"]: i for i in abi.json_abi(abi.ZAPPER)}["zapInNative"]
    assert native["stateMutability"] == "payable"
    assert "tickLower" not in {i["name"] for i in abi.json_abi(abi.vault_signatures("v2"))}
