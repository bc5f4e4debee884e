"""Output service: aggregates page results, delivers SKUs downstream and completes jobs."""
