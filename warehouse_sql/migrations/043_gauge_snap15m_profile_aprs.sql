-- Emissions APR of a 100 USD deposit per concentrated-liquidity profile (`aprProfile`: minimum,
-- five-spacing, standard), after the deposit dilutes the pool's active liquidity, and the ticks
-- [lower, upper) of the standard profile's range (docs/methodology/cl-emissions-apr.md).
-- Fractions per year like emission_apr; V2 pools carry emission_apr under every profile and no
-- range. NULL when an input is unknown and for rows written before this migration.
ALTER TABLE gauge_snap15m
    ADD COLUMN IF NOT EXISTS emission_apr_minimum       Nullable(Float64),
    ADD COLUMN IF NOT EXISTS emission_apr_five_spacing  Nullable(Float64),
    ADD COLUMN IF NOT EXISTS emission_apr_standard      Nullable(Float64),
    ADD COLUMN IF NOT EXISTS range_tick_lower           Nullable(Int32),
    ADD COLUMN IF NOT EXISTS range_tick_upper           Nullable(Int32)
