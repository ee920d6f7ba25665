"""Third-party reference solvers used only as benchmark baselines (not part of the package)."""
