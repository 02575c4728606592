"""GeoPlunge Trainer: learn the 50 US states by playing the GeoPlunge card games."""
