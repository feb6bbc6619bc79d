"""Many games at once (``host/match/workers.py``): in this process, in a pool, and on a real
local Dask cluster, a tournament gives the same schedule and tables; the strength bench runs on
the cluster; an unreachable scheduler is a one-line error."""

import pytest
from distributed import LocalCluster

from fpgatrax.host.bench import strength
from fpgatrax.host.match.players import PlayerOptions
from fpgatrax.host.match.tournament import Entrant, parallel_round_robin
from fpgatrax.host.match.workers import run_unordered
from fpgatrax.host.rules.errors import UserError


def square(n):
    return n * n


@pytest.fixture(scope="module")
def cluster():
    """A cluster per test process: pytest-xdist may start two at once, so the scheduler's HTTP
    server takes a free port (with no address Dask binds 8787, and the second cluster fails)."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address="127.0.0.1:0") as local:
        yield local.scheduler_address


def test_every_way_gives_every_result(cluster):
    work = list(range(12))
    expected = sorted(n * n for n in work)
    assert sorted(run_unordered(square, work)) == expected
    assert sorted(run_unordered(square, work, jobs=2)) == expected
    assert sorted(run_unordered(square, work, cluster=cluster)) == expected


def test_a_tournament_on_the_cluster_is_the_tournament_at_home(cluster):
    """Bots whose seeds fix their games: the same results on the cluster as in one process."""
    entrants = [Entrant(name, name, PlayerOptions(seed=i, depth=1))
                for i, name in enumerate(["greedy", "alphabeta"])]
    home = parallel_round_robin(entrants, 2, 1, time_limit=30.0)
    away = parallel_round_robin(entrants, 2, 1, cluster=cluster, time_limit=30.0)
    assert [(s.name, s.wins, s.draws, s.losses) for s in away[0]] == \
        [(s.name, s.wins, s.draws, s.losses) for s in home[0]]
    assert [(w, b, r.position.moves) for w, b, r in away[1]] == \
        [(w, b, r.position.moves) for w, b, r in home[1]]


def test_the_strength_bench_runs_on_the_cluster(cluster, capsys):
    strength.main(["--quick", "--games", "1", "--opponent", "random", "--cluster", cluster,
                   "--model", "board=hx8k,max_trials=300"])
    out = capsys.readouterr().out
    assert f"the Dask cluster at {cluster}" in out and "random" in out


def test_an_unreachable_scheduler_is_one_line():
    with pytest.raises(UserError, match="cannot reach the Dask scheduler"):
        list(run_unordered(square, [1], cluster="tcp://127.0.0.1:1"))
