"""Parser service: turns each page of a routed PDF into the ParsedPage IR (the only AGPL importer)."""
