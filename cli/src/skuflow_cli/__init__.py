"""skuflow command line."""
