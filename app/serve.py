"""Run the app under gunicorn from inside the process (the `flask serve` command)."""

from gunicorn.app.base import BaseApplication


class _Gunicorn(BaseApplication):
    def __init__(self, application, options):
        self.application, self.options = application, options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.application


def run_gunicorn(app, host, port, workers):
    _Gunicorn(app, {"bind": f"{host}:{port}", "workers": workers, "accesslog": "-"}).run()
