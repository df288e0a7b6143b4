"""``pip install .`` — a wheel, not the editable install of ``make`` — gives an office that serves.

What a packager or a Python user does: build the wheel, install it in a fresh virtual
environment, run it. The wheel must carry every package and data file (templates, static
files, migrations, fixtures, the law text, the compiled module, a package added under src/
without an edit of pyproject.toml), and the wheel's own metadata (pyproject.toml's
``dependencies``) must bring everything the office loads: nothing else is installed.

Offline, and without downloading the dependencies on every run: the fresh environment takes
them with ``pip install --no-index --find-links WHEELHOUSE``, where the wheelhouse holds a
wheel of each distribution requirements.txt pins, packed again from the files this test's
own environment installed (the versions the other tests pass with). pip resolves the
project's wheel against it exactly as against an index: a dependency pyproject.toml does not
declare is not installed, even though its wheel lies there, and the office then fails to
start; one it declares that requirements.txt does not pin is not found.
"""

from __future__ import annotations

import base64
import hashlib
import http.cookiejar
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.tags import parse_tag
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: Files of the installed distributions that pip writes at install time, not part of a wheel.
INSTALLER_FILES = {"INSTALLER", "REQUESTED", "direct_url.json", "RECORD"}
#: Sources of the compiled module: compiled into the wheel, not shipped as files.
SOURCE_ONLY = {".c", ".h"}

PASSWORD = "packaged-office-Pw-2718"

pytestmark = [pytest.mark.slow, pytest.mark.database_free]


def test_pip_install_of_the_wheel_in_a_fresh_venv_serves_the_office(tmp_path: Path) -> None:
    """One test, in steps (under pytest-xdist the steps stay in one worker and the wheel and
    the environment are built once)."""
    wheel = _build_project_wheel(tmp_path)
    _assert_carries_every_file_of_src(wheel)
    venv = _pip_install(wheel, _wheelhouse(tmp_path / "wheelhouse"), tmp_path / "venv")
    _assert_runs_from_the_venv_with_its_compiled_module(venv)
    _assert_reads_the_law_it_ships(venv)
    with _serving(venv, tmp_path / "data") as office:
        with urllib.request.urlopen(f"{office}/healthz", timeout=10) as response:
            assert response.status == 200
        _assert_signs_in_and_serves_a_page_and_its_static_files(office)


def _build_project_wheel(tmp_path: Path) -> Path:
    """The project's wheel, built from a copy of the working tree (the tree itself is left
    alone: no build/ or egg-info written into it), with its build backend from this
    environment (offline, like ``make``'s in-place install)."""
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT / "src",
        tree / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.egg-info", ".*"),
    )
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, tree / name)
    dist = tmp_path / "dist"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--wheel-dir",
            str(dist),
            str(tree),
        ],
        cwd=tree,
    )
    (wheel,) = dist.glob("sewer_use-*.whl")
    return wheel


def _assert_carries_every_file_of_src(wheel: Path) -> None:
    """Every package and data file under src/ (a new package too: package discovery takes
    every ``sewer_*``), and the compiled module built, not its C source."""
    names = set(zipfile.ZipFile(wheel).namelist())
    src = ROOT / "src"
    packages = {
        p.name
        for p in src.iterdir()
        if p.is_dir() and not p.name.startswith((".", "__")) and not p.name.endswith(".egg-info")
    }
    assert {"sewer_rules", "sewer_engines", "sewer_office", "sewer_cli", "sewer_native"} <= packages
    expected = {
        path
        for p in src.rglob("*")
        if p.is_file()
        and (path := p.relative_to(src).as_posix()).split("/")[0] in packages
        and p.suffix not in SOURCE_ONLY | {".pyc", ".so"}
        and not any(part.startswith((".", "__pycache__")) for part in p.parts)
    }
    missing = sorted(expected - names)
    assert not missing, f"{len(missing)} files of src/ not in the wheel: {missing[:20]}"
    assert [n for n in names if re.fullmatch(r"sewer_native/_kernels\.[^/]*\.so", n)], (
        "the compiled module is not in the wheel (no C compiler? setup.py builds it optionally)"
    )


def _pinned_running() -> list[str]:
    """The distributions requirements.txt pins for this platform, less the Makefile's own
    tools (the ``make`` group: setuptools, uv), which the package does not need to run."""
    make = {
        canonicalize_name(re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0])
        for r in PYPROJECT["dependency-groups"]["make"]
    }
    pins = re.findall(
        r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==[^\s;\\]+(?: ; ([^\\]+))?",
        (ROOT / "requirements.txt").read_text(encoding="utf-8"),
        re.M,
    )
    return [
        name
        for name, marker in pins
        if canonicalize_name(name) not in make and (not marker or Marker(marker).evaluate())
    ]


def _wheelhouse(out: Path) -> Path:
    """A wheel of every distribution requirements.txt pins, from this environment."""
    out.mkdir()
    for name in _pinned_running():
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            pytest.fail(f"{name} is pinned in requirements.txt and not installed here: make venv")
        _repack(dist, out)
    return out


def _wheel_tag(dist: Distribution) -> str:
    """The compressed tag set of the wheel the distribution was installed from (its WHEEL)."""
    tags = [
        t
        for line in (dist.read_text("WHEEL") or "").splitlines()
        if line.startswith("Tag:")
        for t in parse_tag(line.split(":", 1)[1].strip())
    ]
    assert tags, f"{dist.metadata['Name']}: no Tag in its WHEEL file"
    parts = [sorted({getattr(t, a) for t in tags}) for a in ("interpreter", "abi", "platform")]
    return "-".join(".".join(p) for p in parts)


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={digest.decode()}"


def _repack(dist: Distribution, wheelhouse: Path) -> Path:
    """A wheel of an installed distribution, from the files its RECORD lists under
    site-packages (scripts are made again by pip from entry_points.txt; byte code is not
    shipped), with a RECORD of its own."""
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    target = wheelhouse / f"{name}-{dist.version}-{_wheel_tag(dist)}.whl"
    rows: list[str] = []
    info_dir = ""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as wheel:
        for file in dist.files or []:
            path = file.as_posix()
            parts = file.parts
            if parts[0] == ".." or "__pycache__" in parts or path.endswith(".pyc"):
                continue
            if parts[0].endswith(".dist-info"):
                info_dir = parts[0]
                if parts[-1] in INSTALLER_FILES:
                    continue
            data = Path(str(dist.locate_file(file))).read_bytes()
            wheel.writestr(path, data)
            rows.append(f"{path},{_record_hash(data)},{len(data)}")
        assert info_dir, f"{name}: no .dist-info among its files"
        rows.append(f"{info_dir}/RECORD,,")
        wheel.writestr(f"{info_dir}/RECORD", "\n".join(rows) + "\n")
    return target


def _pip_install(wheel: Path, wheelhouse: Path, venv: Path) -> Path:
    """``pip install`` of the wheel in a fresh virtual environment, the dependencies taken by
    pip from the wheel's metadata, offline."""
    _run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(venv)], cwd=ROOT)
    _run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-compile",
            "--find-links",
            str(wheelhouse),
            str(wheel),
        ],
        cwd=venv.parent,
    )
    return venv


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: none of this test run's virtual environment, no
    Django settings of pytest's, no pip configuration of the machine (its extra indexes)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PIP_", "VIRTUAL_ENV", "PYTHON", "DJANGO_", "SEWER_USE_"))
    }
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(str(ROOT))
    )
    env["PIP_CONFIG_FILE"] = os.devnull
    env.update(extra)
    return env


def _run(cmd: list[str], cwd: Path, **extra: str) -> str:
    done = subprocess.run(
        cmd, cwd=cwd, env=_clean_env(**extra), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, (
        f"{' '.join(cmd)}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def _assert_runs_from_the_venv_with_its_compiled_module(venv: Path) -> None:
    out = _run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import sewer_office, sewer_native._kernels as k; "
            "print(sewer_office.__file__); print(k.__file__)",
        ],
        cwd=venv.parent,
    )
    for module in out.split():
        assert Path(module).is_relative_to(venv), module


def _assert_reads_the_law_it_ships(venv: Path) -> None:
    out = _run([str(venv / "bin" / "sewer-use"), "sections", "§ 196-15 SLUG"], cwd=venv.parent)
    assert "more than five times the average twenty-four-hour concentration" in out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serving(venv: Path, data: Path) -> Iterator[str]:
    """The installed office as an operator starts it on a laptop with DEBUG off: migrate, one
    user, ``sewer-use serve`` (gunicorn; the static files collected and served by
    WhiteNoise), in a data directory of its own. Yields its address once /healthz answers."""
    data.mkdir()
    command = str(venv / "bin" / "sewer-use")
    settings = {"SEWER_USE_DATA_DIR": str(data), "SEWER_USE_DEBUG": "0"}
    _run([command, "manage", "migrate", "--verbosity", "0"], cwd=data, **settings)
    _run(
        [
            command,
            "manage",
            "createsuperuser",
            "--noinput",
            "--username",
            "packager",
            "--email",
            "packager@example.org",
        ],
        cwd=data,
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
        **settings,
    )
    port = _free_port()
    server = subprocess.Popen(
        [command, "serve", "--port", str(port), "--workers", "1"],
        cwd=data,
        env=_clean_env(**settings),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            if server.poll() is not None:
                output = server.stdout.read().decode() if server.stdout else ""
                pytest.fail(
                    f"sewer-use serve stopped (exit {server.returncode}):\n{output[-3000:]}"
                )
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=5):
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        yield base
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)  # gunicorn and its workers
            server.wait(timeout=30)


def _assert_signs_in_and_serves_a_page_and_its_static_files(office: str) -> None:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{office}/accounts/login/", timeout=30) as response:
        form = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert token, "the sign-in form's CSRF token"
    fields = {"csrfmiddlewaretoken": token[1], "username": "packager", "password": PASSWORD}
    body = urllib.parse.urlencode(fields).encode()
    with opener.open(f"{office}/accounts/login/", data=body, timeout=30) as response:
        assert response.status == 200
        assert not urllib.parse.urlsplit(response.url).path.startswith("/accounts/login"), (
            "still on the sign-in page: the sign-in failed"
        )
    with opener.open(f"{office}/", timeout=30) as response:
        page = response.read().decode()
        assert response.status == 200
        assert urllib.parse.urlsplit(response.url).path == "/"
    assert "packager" in page
    # the page's own style sheets and scripts, from the wheel's static files
    statics = sorted(set(re.findall(r'(?:href|src)="(/static/[^"?#]+)"', page)))
    assert statics, "the dashboard links no static file"
    for path in statics:
        with opener.open(f"{office}{path}", timeout=30) as response:
            assert response.status == 200, path
