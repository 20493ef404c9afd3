"""Employees: the records partners may read (`employees`), HR's changes to them and the
events they announce (`actions`), and the bulk tools with their nightly reconciliation."""
