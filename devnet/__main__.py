"""`ve-devnet` / `python -m devnet`: serve the devnet simulator (settings from DEVNET_* variables, see devnet.config)."""
from __future__ import annotations

import argparse
import os

from devnet.config import CLOCK_OFFSET_ENV
from devnet.server import serve


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="ve-devnet", description="Serve the devnet simulator.")
    ap.add_argument("--host", help="listen address (default DEVNET_HOST)")
    ap.add_argument("--port", type=int, help="listen port (default DEVNET_PORT)")
    ap.add_argument("--seed", type=int, help="simulation seed (default DEVNET_SEED)")
    ap.add_argument("--history-days", type=float,
                    help="days of history before now for every chain (default DEVNET_HISTORY_DAYS, else per chain)")
    ap.add_argument("--scale", type=float, default=1.0, help="activity multiplier (swaps, locks, bribes)")
    ap.add_argument("--pools", type=int, help="pools per chain: synthesize extra ones (default DEVNET_POOLS)")
    ap.add_argument("--tokens", type=int, help="tokens per chain: synthesize extra ones (default DEVNET_TOKENS)")
    ap.add_argument("--chain", type=int, action="append", dest="chains", help="chain id to serve (repeatable)")
    ap.add_argument("--genesis", type=int, help="genesis unix timestamp (default: persisted or now - history)")
    ap.add_argument("--manual-clock", action="store_true", help="freeze time; advance with POST /control/clock")
    ap.add_argument("--now", type=int, help="start time of the manual clock (unix seconds)")
    ap.add_argument("--clock-offset", type=float,
                    help="run the clock this many seconds from the wall clock, e.g. -86400 (default DEVNET_CLOCK_OFFSET)")
    args = ap.parse_args(argv)
    if args.clock_offset is not None:
        os.environ[CLOCK_OFFSET_ENV] = repr(args.clock_offset)  # the running clock reads it (devnet.clock)
    serve(host=args.host, port=args.port, seed=args.seed, history_days=args.history_days, scale=args.scale,
          chains=args.chains, genesis_ts=args.genesis, now=args.now, manual_clock=args.manual_clock,
          pools=args.pools, tokens=args.tokens)


if __name__ == "__main__":
    main()
