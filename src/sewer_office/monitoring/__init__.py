"""Sampling, laboratory results and the findings of every monitoring activity."""
