"""Bindery's shared package: the code every function of the SAM application loads from the layer."""
