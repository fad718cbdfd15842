"""The curation publication on the session's backfilled devnet: the repository's source lists only
what the devnet indexes, publishing through the Dagster asset writes every entity row and then the
publication row, publishing again writes nothing, and a source naming an address that is not
indexed fails the materialization without writing. Counts and categories are checked against the
devnet (its truth/state and chain parameters), not against the publication code."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from orchestration_session import CHAINS, SEED
from session_curation import REPO_SOURCE, session_source
from ve_analytics.core.curation import CurationInvalid
from ve_analytics.core.epochs import DAY

NOT_INDEXED = "0x" + "ab" * 20


def listed(chain_id: int, kind: str) -> list[dict]:
    return json.loads(REPO_SOURCE.read_text())["chains"][str(chain_id)][kind]


def table_counts(stack) -> tuple[int, int]:
    return (stack.scalar("SELECT count() FROM curation_publications FINAL"),
            stack.scalar("SELECT count() FROM curation_entities FINAL"))


def truth_at_latest(stack, chain_id: int) -> dict:
    latest = stack.latest_success(chain_id)
    return stack.truth("state", chain_id, block=stack.devnet.sim(chain_id).block_at(latest))


def test_the_repository_source_lists_only_what_the_devnet_indexes(stack):
    from devnet.model import ChainSim
    from ve_analytics.orchestration.curation import check_curation

    # the session's chains: every listed token and pool indexed at the chain's latest snapshot
    outcome = check_curation(stack.settings, session_source(Path(stack.settings.data_dir)))
    assert outcome.status == "checked" and sorted(map(int, outcome.publication.document["chains"])) == sorted(CHAINS)
    for cid in CHAINS:
        truth = truth_at_latest(stack, cid)
        assert {p["address"].lower() for p in listed(cid, "pools")} <= set(truth["pools"])
        assert {t["address"].lower() for t in listed(cid, "tokens")} <= set(truth["tokens"])
    # chain 8453, which the session does not run: its entries are that devnet chain's own
    sim = ChainSim(8453, SEED, stack.history_now - DAY, 1)  # addresses depend on chain and label only
    assert {t["address"].lower() for t in listed(8453, "tokens")} <= {t.id for t in sim.tokens}
    assert {p["address"].lower() for p in listed(8453, "pools")} <= {p.id for p in sim.pools}


def test_an_address_that_is_not_indexed_fails_the_materialization_and_writes_nothing(stack, tmp_path):
    from ve_analytics.orchestration.curation import materialize_curation

    before = table_counts(stack)
    bad = session_source(tmp_path, lambda raw: raw["chains"]["56"]["pools"].append({"address": NOT_INDEXED}))
    with pytest.raises(CurationInvalid) as failed:
        materialize_curation(stack.settings, bad)
    index = len(listed(56, "pools"))
    assert f"chains.56.pools[{index}]: pool {NOT_INDEXED} is not indexed on chain 56" in str(failed.value)
    assert table_counts(stack) == before


def test_publishing_writes_the_entities_then_the_publication_and_once_only(stack, tmp_path):
    from ve_analytics.orchestration.curation import materialize_curation

    source = session_source(tmp_path)
    first = materialize_curation(stack.settings, source)
    assert first["status"] == "published" and first["version"] == "1.0.0"
    digest = first["digest"]
    # every indexed pool of every chain, as the devnet's truth lists them; every curated token
    rows = stack.query("SELECT chain_id, kind, address, curated, status, categories FROM curation_entities FINAL "
                       "WHERE digest = {d:String}", d=digest)
    for cid in CHAINS:
        truth = truth_at_latest(stack, cid)
        pools = {r[2]: r for r in rows if r[0] == cid and r[1] == "pool"}
        tokens = {r[2]: r for r in rows if r[0] == cid and r[1] == "token"}
        assert set(pools) == set(truth["pools"])
        assert {a for a, r in pools.items() if r[3]} == {p["address"].lower() for p in listed(cid, "pools")}
        assert set(tokens) == {t["address"].lower() for t in listed(cid, "tokens")}
        # categories from the devnet's own pool kinds and stable tokens: concentrated = CL pools;
        # stable = stable-swap pools of two stables, plus the ones the source lists as stable
        sim = stack.devnet.sim(cid)
        explicit = {p["address"].lower() for p in listed(cid, "pools") if "stable" in p.get("categories", [])}
        for pool in sim.pools:
            if pool.id not in pools:
                continue
            categories = pools[pool.id][5]
            assert ("concentrated" in categories) == (pool.kind == "cl")
            two_stables = pool.token0.spec.stable and pool.token1.spec.stable
            assert ("stable" in categories) == ((pool.kind == "v2-stable" and two_stables) or pool.id in explicit)
    statuses = {r[4] for r in rows if r[0] == 56}
    assert statuses == {"active", "hidden", "deprecated", "blocked"}
    assert first["entities rows"] == len(rows) == first["rows_written"]
    # the publication row came last, and names the snapshot each chain was checked against
    (version, reviewed_by, document, stored), = stack.query(
        "SELECT version, reviewed_by, document, ingested_at FROM curation_publications FINAL WHERE digest = {d:String}",
        d=digest)
    last_entity = stack.scalar("SELECT max(ingested_at) FROM curation_entities WHERE digest = {d:String}", d=digest)
    assert (version, reviewed_by) == ("1.0.0", "curation-council") and last_entity <= stored
    document = json.loads(document)
    for cid in CHAINS:
        snapshot = stack.latest_success(cid)
        assert document["chains"][str(cid)]["snapshotAt"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(snapshot))
    # the token list: the active curated tokens in display order, with the devnet's symbols
    by_address = {t.id: t for t in stack.devnet.sim(56).tokens}
    active = sorted((t for t in listed(56, "tokens") if t["status"] == "active"), key=lambda t: t["displayOrder"])
    token_list = document["tokenLists"]["56"]
    assert [t["symbol"] for t in token_list["tokens"]] == [by_address[t["address"].lower()].symbol for t in active]
    assert [t["address"] for t in token_list["tokens"]] == [by_address[t["address"].lower()].address for t in active]
    # again: the same digest, nothing written
    again = materialize_curation(stack.settings, source)
    assert (again["status"], again["digest"], again["rows_written"]) == ("unchanged", digest, 0)
    assert stack.scalar("SELECT count() FROM curation_publications FINAL") == 1


def test_the_command_checks_and_refuses_an_invalid_source(stack, tmp_path, monkeypatch, capsys):
    from ve_analytics.cli.main import main

    # the command's environment: the stack's settings, its secrets as files (as `up` passes them)
    for name, value in {**stack.settings.to_env(), **stack.settings.secret_env()}.items():
        monkeypatch.setenv(name, value)
    before = table_counts(stack)
    assert main(["curation", "publish", "--check", "--source", str(session_source(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "curation 1.0.0" in out and "chain 56 at snapshot" in out
    bad = session_source(tmp_path, lambda raw: raw["tags"].append({"id": "far_too_long", "name": "x", "description": "y"}))
    assert main(["curation", "publish", "--source", str(bad)]) == 1
    assert "tags[7]: id 'far_too_long'" in capsys.readouterr().err
    assert table_counts(stack) == before
