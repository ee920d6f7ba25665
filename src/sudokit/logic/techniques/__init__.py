"""Technique modules: each registers its finders with :func:`sudokit.logic.registry.technique`.

Every module in this package is imported by the registry, so a new technique is one new file.
"""
