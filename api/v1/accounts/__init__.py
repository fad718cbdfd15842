"""/v1/accounts/{address}/...: one wallet's holdings and history across the covered chains (spec
v1-api.md: Accounts; ADR 0020). Reads only: nothing here is authority to sign a transaction."""
