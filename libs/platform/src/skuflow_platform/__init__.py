"""Thin service runtime shared by every skuflow service. No business rules live here."""
