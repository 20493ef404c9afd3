"""Payroll: the pure rules (components, totals, journals: `rules`), the runs partners may
read (`runs`), and HR's moves of a run from draft to paid, corrected or deleted (`actions`)."""
