"""JSON-RPC node over the simulation: blocks, balances, code and eth_call with real ABI encoding."""
