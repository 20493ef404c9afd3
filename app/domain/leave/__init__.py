"""Leave: the law's rules per country (`law.py`), requests and their moves
(`requests.py`), balances as of any date (`balances.py`) and what a month's leave does to
pay (`pay.py`). Between people and payroll: payroll reads leave, never the other way."""
