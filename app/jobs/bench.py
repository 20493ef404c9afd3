"""For bench/jobs: a job that does nothing, to time the machinery alone."""


def noop():
    return None
