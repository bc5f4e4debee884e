"""Gateway service: the public REST API (upload, job status, result) and the jobs read model."""
