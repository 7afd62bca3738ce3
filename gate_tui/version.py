"""The package's version, in a leaf module: the caches stamp their files with it, and
importing the package root for it would draw a circle (the root names every layer)."""

__version__ = "0.1.0"
