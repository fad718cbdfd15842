"""What every /v1 domain shares, one module each: the chain selection and cache classes of a
route (params.py), the chain of a single-entity route (path_chain.py), anchors and spans
(anchors.py, flows.py), pinned traversals of paginated routes (traversal.py), a token's price at
a boundary and the served price observation (prices.py, observations.py), exact decimals
(decimals.py) and schema pieces (schemas.py)."""
