"""The service's ratings in Redis (briscola.server.ratings): what was acknowledged survives a
kill -9 of the process that wrote it and a restart of Redis, a hand sent again is not rated
twice, and two processes on one Redis share one leaderboard. A real ``redis-server`` runs
on a free loopback port with the append-only file synced at every write
(tests/redishelp.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from redishelp import RedisServer

from briscola.ratings import RatingService
from briscola.server.ratings import RedisStore

# Rates hand after hand between two players and prints "acked ID" once each is stored.
WRITER = textwrap.dedent(
    """
    import sys
    from briscola.ratings import RatingService
    from briscola.server.ratings import RedisStore

    service = RatingService(RedisStore(sys.argv[1]))
    for k in range(100000):
        winner = k % 3 != 0
        service.rate_hand("two", [["ann"], ["bob"]], [90, 30] if winner else [30, 90], f"h{k}")
        print(f"acked h{k}", flush=True)
    """
)


def test_the_store_is_durable_and_survives_a_restart_of_redis(redis_server: RedisServer) -> None:
    store = RedisStore(redis_server.url)
    assert store.durable()
    ratings = RatingService(store, clock=lambda: 42.0)
    ratings.rate_hand("teams4", [["a", "c"], ["b", "d"]], [80, 40], "T:1")
    before = {p: ratings.rating("teams4", p) for p in "abcd"}
    store.close()
    redis_server.restart()
    again = RatingService(RedisStore(redis_server.url), clock=lambda: 0.0)
    assert {p: again.rating("teams4", p) for p in "abcd"} == before
    assert [e.hand_id for e in again.history("teams4", "c")] == ["T:1"]
    assert again.history("teams4", "c")[0].at == 42.0
    assert not again.rate_hand("teams4", [["a", "c"], ["b", "d"]], [80, 40], "T:1").fresh
    assert {p: again.rating("teams4", p) for p in "abcd"} == before
    again.store.close()


def test_nothing_acknowledged_is_lost_to_a_kill_of_the_writer_and_of_redis(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    script = tmp_path / "writer.py"
    script.write_text(WRITER, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}
    proc = subprocess.Popen(
        [sys.executable, str(script), redis_server.url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    acked = []
    try:
        while len(acked) < 25:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else "the writer stopped"
            acked.append(line.split()[1])
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    # Redis killed too, then started again from its append-only file.
    assert redis_server.proc is not None
    redis_server.proc.send_signal(signal.SIGKILL)
    redis_server.proc.wait(10)
    redis_server.start()
    store = RedisStore(redis_server.url)
    ratings = RatingService(store)
    assert all(store.is_rated(hand) for hand in acked)
    games = ratings.rating("two", "ann").games
    assert games >= len(acked)
    assert ratings.rating("two", "bob").games == games  # each hand whole or not at all
    history = [e.hand_id for e in ratings.history("two", "ann", limit=1000)]
    assert history[: len(acked)] == acked
    assert len(history) == len(set(history)) == games
    store.close()


def test_two_processes_on_one_redis_share_the_leaderboard(redis_server: RedisServer) -> None:
    one = RatingService(RedisStore(redis_server.url))
    two = RatingService(RedisStore(redis_server.url))
    one.rate_hand("two", [["a"], ["b"]], [90, 30], "g1")
    two.rate_hand("two", [["a"], ["c"]], [90, 30], "g2")
    one.rate_hand("two", [["b"], ["c"]], [90, 30], "g3")
    assert not two.rate_hand("two", [["a"], ["b"]], [90, 30], "g1").fresh  # rated by one
    for service in (one, two):
        top = service.leaderboard("two", 10)
        assert [s.player for s in top] == ["a", "b", "c"]
        assert [s.rank for s in top] == [1, 2, 3]
        mine = service.standing("two", "b")
        assert mine is not None and mine.rank == 2 and mine.rating.games == 2
        assert service.standing("two", "nobody") is None
        assert service.leaderboard("two", 0) == []
    assert one.rating("two", "a") == two.rating("two", "a")
    assert one.rating("two", "a").games == 2
    assert [e.hand_id for e in two.history("two", "c")] == ["g2", "g3"]


def test_a_commit_computed_from_a_stale_rating_is_refused(redis_server: RedisServer) -> None:
    store = RedisStore(redis_server.url)
    service = RatingService(store)
    service.rate_hand("two", [["a"], ["b"]], [90, 30], "first")
    kept = store.get("two", ["a", "b"])
    assert store.commit("two", "second", {"a": 0, "b": 1}, kept, 0.0) == "stale"
    assert store.commit("two", "first", {"a": 1, "b": 1}, kept, 0.0) == "already"
    assert not store.is_rated("second")
    store.close()
