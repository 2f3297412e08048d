"""The benchmark families: one module each (see bench/experiment.py for what a module declares)."""
