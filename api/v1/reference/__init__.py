"""/v1 reference: /v1/chains, /v1/deployments, /v1/health, /v1/health/chains."""
