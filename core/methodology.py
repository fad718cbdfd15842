"""The methodology version: one constant for every served figure whose meaning is documented in
`docs/methodology/` (KPI classification, gauge APRs). `/api/stats/config` serves it as
`methodologyVersion`; bump it when a served figure changes meaning or shape."""

# 1.1.0: KPI classification v1 and gauge APRs; 1.2.0: per-profile CL emissions APR
# (docs/methodology/cl-emissions-apr.md)
METHODOLOGY_VERSION = "1.2.0"
