"""Donguri to Yamaneko (Acorns and the Wildcat): majority decides whether high or low wins."""
