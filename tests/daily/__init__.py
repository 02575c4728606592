"""Tests of the daily amount (trainer/daily.py)."""
