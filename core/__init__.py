"""Shared building blocks: configuration, chain deployments, epoch and window math, logging."""
