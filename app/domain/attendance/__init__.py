"""Attendance: storing clock events (`ingest`), pairing one employee's events into
shifts (`pairing`, pure), and the days built from them and their rejections (`days`)."""
