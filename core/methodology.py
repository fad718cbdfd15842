"""The methodology version: one constant for every served figure whose meaning is documented in
`docs/methodology/` (KPI classification, gauge APRs). `/api/stats/config` serves it as
`methodologyVersion`; bump it when a served figure changes meaning or shape."""

METHODOLOGY_VERSION = "1.1.0"  # 1.1.0: KPI classification v1 and gauge APRs
