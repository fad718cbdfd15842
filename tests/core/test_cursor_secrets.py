"""Where cursor secrets come from (core.cursor_secrets) and that Settings never shows them."""
from __future__ import annotations

import dataclasses
import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from ve_analytics.core.config import Settings
from ve_analytics.core.cursor_secrets import GENERATED_NAME, load_cursor_secrets

A, B = "a" * 24, "b" * 24


def test_environment_list_first_signs(tmp_path):
    assert load_cursor_secrets({"CURSOR_SECRETS": f" {A} , {B},"}, tmp_path) == (A, B)
    assert not (tmp_path / GENERATED_NAME).exists()


def test_secrets_file_one_per_line(tmp_path):
    mounted = tmp_path / "mounted"
    mounted.write_text(f"# rotated 2024-06-01\n{B}\n\n{A}\n")
    assert load_cursor_secrets({"CURSOR_SECRETS_FILE": str(mounted)}, tmp_path / "data") == (B, A)
    # both set is a mistake to correct, not a precedence to guess
    with pytest.raises(ValueError, match="CURSOR_SECRETS and CURSOR_SECRETS_FILE are both set") as caught:
        load_cursor_secrets({"CURSOR_SECRETS": A, "CURSOR_SECRETS_FILE": str(mounted)}, tmp_path)
    assert A not in str(caught.value) and B not in str(caught.value)


def test_errors_name_the_source_not_the_secret(tmp_path):
    with pytest.raises(ValueError, match="CURSOR_SECRETS: cursor secret 2 is shorter") as caught:
        load_cursor_secrets({"CURSOR_SECRETS": f"{A},short-one"}, tmp_path)
    assert "short-one" not in str(caught.value) and A not in str(caught.value)
    with pytest.raises(ValueError, match="cannot be read"):
        load_cursor_secrets({"CURSOR_SECRETS_FILE": str(tmp_path / "missing")}, tmp_path)
    (tmp_path / "empty").write_text("# nothing yet\n")
    with pytest.raises(ValueError, match="holds no cursor secret"):
        load_cursor_secrets({"CURSOR_SECRETS_FILE": str(tmp_path / "empty")}, tmp_path)


def test_generated_once_private_and_reused(tmp_path):
    data = tmp_path / "data"
    first = load_cursor_secrets({}, data)
    assert len(first) == 1 and len(first[0]) >= 32
    path = data / GENERATED_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_cursor_secrets({}, data) == first
    assert [p.name for p in data.iterdir()] == [GENERATED_NAME]  # no temporary file left behind


def _load(data_dir: str, queue) -> None:
    queue.put(load_cursor_secrets({}, Path(data_dir)))


def test_processes_started_together_agree(tmp_path):
    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    queue = ctx.Queue()
    workers = [ctx.Process(target=_load, args=(str(tmp_path), queue)) for _ in range(8)]
    for w in workers:
        w.start()
    got = {queue.get(timeout=60) for _ in workers}
    for w in workers:
        w.join(timeout=60)
    assert len(got) == 1 and got == {load_cursor_secrets({}, tmp_path)}


def test_losing_the_race_takes_the_winners_secret(tmp_path, monkeypatch):
    """Another process links its file between our read and our link: ours is dropped, theirs used."""
    real_link = os.link

    def contested(src, dst):
        Path(dst).write_text(f"{B}\n")  # the competitor wins first
        real_link(src, dst)

    monkeypatch.setattr(os, "link", contested)
    assert load_cursor_secrets({}, tmp_path) == (B,)
    assert [p.name for p in tmp_path.iterdir()] == [GENERATED_NAME]


def test_unwritable_data_folder_leaves_none(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert load_cursor_secrets({}, blocker / "data") == ()  # the API refuses to start then


def test_settings_keep_secrets_out_of_repr_and_env(tmp_path, monkeypatch):
    monkeypatch.setenv("VEA_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CHAIN_BOOK", str(tmp_path / "no-book.json"))
    monkeypatch.setenv("CURSOR_SECRETS", f"{A},{B}")
    settings = Settings.from_env()
    assert settings.cursor_secrets == (A, B)
    assert A not in repr(settings) and A not in str(dataclasses.asdict(settings).get("chains"))
    assert all(A not in value for value in settings.to_env().values())
    monkeypatch.delenv("CURSOR_SECRETS")
    generated = Settings.from_env().cursor_secrets
    assert (tmp_path / GENERATED_NAME).exists() and generated == Settings.from_env().cursor_secrets
