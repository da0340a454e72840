"""The k-in-a-row engines of the m,n,k family."""
