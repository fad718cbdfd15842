"""Test harness shared by the suites (importable as `support.*`: pytest puts tests/ on the path)."""
