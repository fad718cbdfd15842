"""Devnet simulator: a deterministic ve(3,3) DEX serving a subgraph and a JSON-RPC node.

    from devnet.model import build_chain, ChainSim        # in-process simulation
    from devnet.server import serve, DevnetServer          # HTTP
"""
