"""The vault data API family (/api/v1): live on-chain vault state with integration manifests."""
