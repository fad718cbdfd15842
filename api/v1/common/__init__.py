"""What every /v1 domain shares, one module each: the chain selection and cache classes of a
route (params.py), anchors and spans (anchors.py, flows.py), pinned traversals of paginated
routes (traversal.py), exact decimals (decimals.py) and schema pieces (schemas.py)."""
