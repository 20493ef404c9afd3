"""Business rules of the Partner API.

The rule of this package: no Flask. Nothing here imports Flask or reads `request`,
`current_app` or `g`; the company, the clock and IDs come in as arguments. Functions
here may read and write the models (`app.models`), never the other way round.
"""
