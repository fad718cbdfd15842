"""AMM math, integer-exact like the contracts: v2 volatile/stable pools and concentrated liquidity."""
