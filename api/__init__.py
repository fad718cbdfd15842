"""HTTP APIs over the warehouse: Sanic app factory, route tables, envelope, validation, SQL loader."""
