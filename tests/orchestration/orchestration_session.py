"""The orchestration session's parameters (conftest builds it; the tests read them from here)."""
HISTORY_DAYS = 6
SEED = 2027
CHAINS = (56, 1, 4663, 5042)  # the longest history, no CL pools, young, lagging subgraph (+ vaults on 56/4663/5042)
YOUNG, LAGGING, NO_CL = 4663, 5042, 1
