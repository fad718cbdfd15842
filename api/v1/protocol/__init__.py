"""/v1 protocol figures: /v1/protocol, /history, /daily, /trailing, /volume."""
