"""The real thing: a daphne process serving the site, reached over HTTP and a websocket."""

import asyncio
import urllib.request

import pytest
import websockets

pytestmark = pytest.mark.server


def test_daphne_serves_the_lobby_page_and_its_static_files(daphne_server):
    with urllib.request.urlopen(f"http://{daphne_server}/", timeout=10) as response:
        assert response.status == 200
        page = response.read().decode()
    assert "Kilforth Online" in page
    assert 'ws-connect="/ws/lobby/"' in page
    with urllib.request.urlopen(f"http://{daphne_server}/static/css/kilforth.css") as css:
        assert css.status == 200
    with urllib.request.urlopen(
        f"http://{daphne_server}/static/django_htmx/ext/hx-ws-2.min.js"
    ) as script:
        assert script.status == 200


def test_daphne_accepts_a_lobby_websocket_and_sends_the_table_list(daphne_server):
    async def talk() -> str:
        async with websockets.connect(
            f"ws://{daphne_server}/ws/lobby/", origin=f"http://{daphne_server}"
        ) as ws:
            return await asyncio.wait_for(ws.recv(), timeout=10)

    frame = asyncio.run(talk())
    assert 'id="lobby-tables"' in frame


def test_daphne_refuses_a_websocket_from_a_foreign_origin(daphne_server):
    async def talk() -> None:
        async with websockets.connect(
            f"ws://{daphne_server}/ws/lobby/", origin="http://evil.example"
        ) as ws:
            await asyncio.wait_for(ws.recv(), timeout=10)

    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        asyncio.run(talk())
    assert refused.value.response.status_code == 403


def test_daphne_refuses_a_two_megabyte_frame_and_keeps_serving(daphne_server):
    async def talk() -> int:
        async with websockets.connect(
            f"ws://{daphne_server}/ws/lobby/", origin=f"http://{daphne_server}", max_size=None
        ) as ws:
            await asyncio.wait_for(ws.recv(), timeout=10)
            try:
                # The server may drop the link while the frame is still being sent.
                await ws.send("x" * (2 * 1024 * 1024))
                while True:
                    await asyncio.wait_for(ws.recv(), timeout=10)
            except websockets.exceptions.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else -1

    # The protocol layer fails the connection (1009, or a dropped link) before the app reads it.
    assert asyncio.run(talk()) in {1009, -1}
    with urllib.request.urlopen(f"http://{daphne_server}/healthz", timeout=10) as response:
        assert response.read() == b"ok"
