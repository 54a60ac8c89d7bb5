"""A small kitchen helper on LangGraph: unit conversions, recipe scaling, oven temperatures."""
