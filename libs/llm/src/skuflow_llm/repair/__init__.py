"""Turning a model's text into a validated answer: four repair levels, then schema and anomaly checks."""
