"""/v1 token detail and prices: one token's detail, prices, trailing windows, price changes and
price history; /v1/prices. A token's detail is its discovery row and more (discovery.rows)."""
