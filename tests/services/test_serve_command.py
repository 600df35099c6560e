"""`bin/serve`, as a host runs it for friends: production-safe by default."""

import os
import stat
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from tests.conftest import ROOT, free_port

pytestmark = pytest.mark.server


def get(url: str) -> tuple[int, str]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_bin_serve_hides_debug_pages_and_keeps_its_secret_key_outside_the_repo(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        HOME=str(tmp_path),
        PORT=str(port),
        DATABASE_URL=f"sqlite:///{tmp_path / 'serve.sqlite3'}",
    )
    env.pop("XDG_CONFIG_HOME", None)
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [str(ROOT / "bin" / "serve")],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, page = get(f"http://127.0.0.1:{port}/")
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
                assert time.monotonic() < deadline, "bin/serve did not start"
                time.sleep(0.3)
        assert status == 200 and "Kilforth Online" in page
        status, page = get(f"http://127.0.0.1:{port}/no-such-page/")
        assert status == 404
        assert "URLconf" not in page and "DEBUG = True" not in page
        key = tmp_path / ".config" / "kilforth-online" / "secret_key"
        assert len(key.read_text().strip()) >= 50
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
        assert not (ROOT / "secret_key").exists()
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=20)
        log.close()
