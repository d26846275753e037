"""Leagues in and out: the versioned league file, the spreadsheet on-ramp, calendar and results exports.

`registry` finds every table that belongs to a league from SQLModel's metadata; `cells` turns column values into
CSV text and back; `league_file` exports and imports a whole league; `onramp` reads roster and machine CSVs;
`calendar` and `reports` write iCalendar and CSV files people take elsewhere.
"""
