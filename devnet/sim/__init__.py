"""The simulation: prices, markets (pools and swaps) and governance, generated hour by hour."""
