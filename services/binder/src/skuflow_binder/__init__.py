"""Binder service: binds product images to SKUs, dedups images, validates the page."""
