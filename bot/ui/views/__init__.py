"""What the features' components share: the game messages' custom_id format, the shutdown check, orphaned clicks."""
