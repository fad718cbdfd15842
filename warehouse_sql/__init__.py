"""SQL of the warehouse as package data: migrations/, transforms/ and queries/ (read through
ve_analytics.warehouse.sqlbook)."""
