"""Many games at once: one function mapped over the games' descriptions, its results taken in
the order they finish.

In this process (one job), in a pool of processes on this machine (``jobs``), or on a Dask
cluster (``cluster``, the address of its scheduler, as ``tcp://HOST:8786``: the optional
``fpgatrax[cluster]``), for self-play runs of thousands of games. The function and the
descriptions must be picklable, and on a cluster every worker must have this package
installed (and see the folder any record files are written to).
"""

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from fpgatrax.host.rules.errors import UserError

__all__ = ["run_unordered"]

# How long to wait for a cluster's scheduler to answer, in seconds.
CONNECT_TIMEOUT = 10


def run_unordered(function: Callable[[Any], Any], work: Sequence[Any], jobs: int = 1,
                  cluster: str | None = None) -> Iterator[Any]:
    """``function(item)`` for every item of ``work``, in the order the results come."""
    if cluster:
        yield from _on_cluster(function, work, cluster)
    elif jobs > 1 and len(work) > 1:
        with multiprocessing.Pool(min(jobs, len(work))) as pool:
            yield from pool.imap_unordered(function, work)
    else:
        yield from map(function, work)


def _on_cluster(function: Callable[[Any], Any], work: Sequence[Any],
                address: str) -> Iterator[Any]:
    try:       # imported on use: the optional fpgatrax[cluster]
        from distributed import Client, as_completed
    except ModuleNotFoundError:
        raise UserError("--cluster needs Dask's distributed: pip install "
                        "'fpgatrax[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as err:
        raise UserError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    with client:
        futures = client.map(function, work, pure=False)
        for future in as_completed(futures):
            yield future.result()
