"""The README tour's pictures, taken from a fresh demo town: a violation, an invoice and acme's
home at 1280, 768 and 375 px, saved as small PNGs beside this file.

    .venv/bin/python docs/tour/make_screenshots.py            # into docs/tour/
    .venv/bin/python docs/tour/make_screenshots.py --out /tmp/shots --keep-data

It starts ``sewer-use demo`` on a free port with its own empty data directory (so the pictures
are the demo's, never a real office's), signs in as each user with the demo password, and
drives headless Chromium (the Debian ``chromium`` package, through playwright, as the browser
tests do). The pictures are reduced to a palette of colours (Pillow), so that each stays under
150 KB and can be committed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
PASSWORD = "demo"  # every demo login's password
WIDTHS = {1280: 800, 768: 1024, 375: 812}  # width -> height of the window (a laptop, tablet, phone)
MAX_BYTES = 150_000
COLOURS = 96  # enough for the office's few colours and anti-aliased text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_up(url: str, server: subprocess.Popen[bytes], seconds: float = 300) -> None:
    """The first run migrates and loads the demo town before it serves: wait for it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"sewer-use demo stopped (exit status {server.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1)
    raise SystemExit(f"the office did not answer at {url} within {seconds:.0f} s")


def _records() -> dict[str, tuple[str, str]]:
    """What to photograph, and who opens it: name -> (username, path). Read from the demo's
    database once the server has loaded it (the same data directory, read only)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sewer_office.config.settings")
    django.setup()
    from django.db.models import Count

    from sewer_office.billing.models import Invoice
    from sewer_office.enforcement.models import Violation

    # the violation with the longest history (notices, costs, referrals): the page at its fullest
    violation = (
        Violation.objects.annotate(
            n=Count("notices", distinct=True)
            + Count("costs", distinct=True)
            + Count("referrals", distinct=True)
        )
        .order_by("-n", "pk")
        .first()
    )
    invoice = Invoice.objects.annotate(n=Count("lines")).order_by("-n", "pk").first()
    if violation is None or invoice is None:
        raise SystemExit("the demo town has no violation or no invoice")
    return {
        "violation": ("superintendent", f"/enforcement/{violation.pk}/"),
        "invoice": ("clerk", f"/billing/invoices/{invoice.pk}/"),
        "acme-home": ("acme", "/"),
    }


def _shrink(path: Path) -> int:
    """A palette PNG (the pictures are flat colours and text): a fifth of the size or less."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)
    return path.stat().st_size


def _photograph(browser: Any, base: str, shots: dict[str, tuple[str, str]], out: Path) -> None:
    for width, height in WIDTHS.items():
        for name, (username, path) in shots.items():
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(f"{base}/")
            answer = page.goto(base + path)
            if answer is None or answer.status != 200:
                raise SystemExit(f"{path} as {username}: {answer and answer.status}")
            target = out / f"{name}-{width}.png"
            page.screenshot(path=str(target))
            size = _shrink(target)
            print(f"{target} ({size // 1024} KB)", flush=True)
            if size > MAX_BYTES:
                print(f"  warning: over {MAX_BYTES // 1000} KB", file=sys.stderr)
            context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where the PNGs go (docs/tour/)")
    parser.add_argument(
        "--keep-data", action="store_true", help="keep the demo's data directory afterwards"
    )
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print("needs the Debian chromium package (apt-get install -y chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    data = Path(tempfile.mkdtemp(prefix="sewer-use-tour-"))
    os.environ["SEWER_USE_DATA_DIR"] = str(data)
    os.environ["SEWER_USE_JURISDICTION"] = "demo"
    port = _free_port()
    command = [str(Path(sys.executable).with_name("sewer-use")), "demo", "--port", str(port)]
    log = (data / "server.log").open("wb")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        print(f"Loading the demo town into {data} ...", flush=True)
        _wait_until_up(f"{base}/accounts/login/", server)
        shots = _records()
        args.out.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
            )
            _photograph(browser, base, shots, args.out)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
        if args.keep_data:
            print(f"The demo's data directory is kept: {data}")
        else:
            shutil.rmtree(data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
