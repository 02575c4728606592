"""Level 1 quiz modes as pure round generators and judges (Combo 1 games played as quizzes)."""
