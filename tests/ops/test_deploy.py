"""The deployment files agree with the CLI (Docker is not run here)."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from server.cli import build_parser

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def parses(argv: list[str]) -> None:
    """``umpire ARGV`` is accepted by the CLI and selects ``serve``."""
    args = build_parser().parse_args(argv)
    assert args.command == "serve", argv


def dockerfile_cmd() -> list[str]:
    text = (DEPLOY / "Dockerfile").read_text()
    entry_line = re.search(r"^ENTRYPOINT (\[.*\])$", text, re.M)
    cmd_line = re.search(r"^CMD (\[.*\])$", text, re.M)
    assert entry_line is not None and cmd_line is not None
    entry = json.loads(entry_line.group(1))
    cmd = json.loads(cmd_line.group(1))
    assert entry == ["umpire"]
    return list(cmd)


def test_dockerfile_runs_the_cli_as_a_non_root_user() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    cmd = dockerfile_cmd()
    parses(cmd)
    assert "0.0.0.0" in cmd and "/var/lib/umpire/umpire.db" in cmd
    users = re.findall(r"^USER (\S+)$", text, re.M)
    assert users and users[-1] not in ("root", "0")
    assert "/healthz" in text and "EXPOSE 8765" in text


def test_systemd_unit_runs_the_cli() -> None:
    text = (DEPLOY / "umpire.service").read_text()
    found = re.search(r"^ExecStart=(.*)$", text, re.M)
    assert found is not None
    line = found.group(1)
    argv = shlex.split(line)
    assert argv[0].endswith("/umpire")
    parses(argv[1:])
    assert re.search(r"^User=umpire$", text, re.M)


def test_caddyfile_proxies_to_the_server_and_hides_metrics() -> None:
    text = (DEPLOY / "Caddyfile").read_text()
    assert "reverse_proxy {$UMPIRE_UPSTREAM:127.0.0.1:8765}" in text
    assert "handle /metrics" in text


def test_compose_file() -> None:
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed")
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert services["mosquitto"]["image"].startswith("eclipse-mosquitto")
    umpire = services["umpire"]
    parses([str(a) for a in umpire["command"]])
    assert "mqtt://mosquitto:1883/umpire" in umpire["command"]
    volume = umpire["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]
    assert umpire["build"]["dockerfile"] == "deploy/Dockerfile"


@pytest.mark.parametrize("upstream", ["", "node1:8765 node2:8765"])
def test_caddy_validates_the_caddyfile(upstream: str, tmp_path: Path) -> None:
    """Debian 12's caddy (2.6) accepts the Caddyfile, with one upstream or several."""
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed (apt-get install caddy)")
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    if upstream:
        env["UMPIRE_UPSTREAM"] = upstream
    done = subprocess.run(
        [caddy, "validate", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Valid configuration" in done.stdout + done.stderr


def test_cluster_compose_file() -> None:
    """PostgreSQL, two nodes on it (each reachable by the other), Mosquitto, Caddy."""
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed")
    compose = yaml.safe_load((DEPLOY / "compose.cluster.yaml").read_text())
    services = compose["services"]
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["mosquitto"]["image"].startswith("eclipse-mosquitto")
    upstreams = services["caddy"]["environment"]["UMPIRE_UPSTREAM"].split()
    nodes = [name for name in services if name.startswith("umpire")]
    assert len(nodes) == 2 and sorted(upstreams) == sorted(f"{n}:8765" for n in nodes)
    for name in nodes:
        argv = [str(a) for a in services[name]["command"]]
        parses(argv)
        args = build_parser().parse_args(argv)
        assert args.db.startswith("postgresql://") and "@postgres:5432/" in args.db
        assert args.advertise == f"ws://{name}:8765" and args.node_name == name
        # one key file for the cluster, on a volume every node mounts (issue 32)
        assert args.signing_key == "/var/lib/umpire/cluster.key"
        assert "umpire-key:/var/lib/umpire" in services[name]["volumes"]
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert '".[postgres]"' in (DEPLOY / "Dockerfile").read_text()


def _readme_block(first_line: str) -> str:
    """The fenced block of deploy/README.md that starts with ``first_line``."""
    text = (DEPLOY / "README.md").read_text()
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S):
        if block.startswith(first_line + "\n"):
            return str(block)
    raise AssertionError(f"deploy/README.md has no block starting {first_line!r}")


def test_the_apt_line_installs_the_mosquitto_clients() -> None:
    text = (DEPLOY / "README.md").read_text()
    (line,) = re.findall(r"^sudo apt-get install -y python3-venv .*$", text, re.M)
    assert "mosquitto" in line.split() and "mosquitto-clients" in line.split()


async def test_the_readmes_mosquitto_configuration_starts_debians_mosquitto(
    tmp_path: Path,
) -> None:
    """The broker configuration of "Opening the feed to others", files as written (only
    their folder and the port changed), with a password file made by mosquitto_passwd:
    Debian's mosquitto 2.0 starts, the server's user may publish, a reader may read, and
    a wrong password is refused. (A trailing comment on ``password_file`` used to be read
    as part of its path: the broker did not start.)"""
    aiomqtt = pytest.importorskip("aiomqtt")
    from tests.ops.conftest import MOSQUITTO, Broker

    passwd_tool = shutil.which("mosquitto_passwd")
    if not Path(MOSQUITTO).exists() or passwd_tool is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
    broker = Broker(tmp_path)
    # (started as root, mosquitto drops to its own user: the files go where it may read
    # them, and are its own, as the README's chown makes them)
    etc = Path(tempfile.mkdtemp(prefix="umpire-mosquitto-"))
    conf = _readme_block("# /etc/mosquitto/conf.d/umpire.conf")
    acl = _readme_block("# /etc/mosquitto/acl")
    conf = conf.replace("/etc/mosquitto/", f"{etc}/").replace("1883", str(broker.port))
    broker.conf.write_text(conf)
    (etc / "acl").write_text(acl)
    passwd = str(etc / "passwd")
    for flags, user in ((["-c"], "umpire"), ([], "dashboard")):
        subprocess.run([passwd_tool, "-b", *flags, passwd, user, f"{user}-pw"], check=True)
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("mosquitto")
        except KeyError:
            owner = None
        for path in (etc, etc / "acl", etc / "passwd"):
            if owner is not None:
                os.chown(path, owner.pw_uid, owner.pw_gid)
    try:
        broker.start()

        def client(user: str, password: str) -> Any:
            return aiomqtt.Client("127.0.0.1", broker.port, username=user, password=password)

        async with (
            client("dashboard", "dashboard-pw") as reader,
            client("umpire", "umpire-pw") as server,
        ):
            await reader.subscribe("umpire/#", qos=1)
            await server.publish("umpire/hello", b"hi", qos=1)
            async with asyncio.timeout(10):
                message = await anext(aiter(reader.messages))
            assert message.payload == b"hi"
        with pytest.raises(aiomqtt.MqttError):
            async with client("umpire", "wrong"):
                pass
    finally:
        broker.stop()
        shutil.rmtree(etc, ignore_errors=True)


@pytest.mark.parametrize("path", ["compose.yaml", "compose.cluster.yaml"])
def test_compose_nodes_trust_exactly_their_caddy(path: str) -> None:
    """Behind Caddy every client would count as Caddy's container address (the limits
    per address, issue 34): each node names Caddy's fixed address with
    ``--trusted-proxy``, and only it (not the network's gateway, which the host's own
    published-port clients come from, nor the whole network)."""
    import ipaddress

    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed")
    compose = yaml.safe_load((DEPLOY / path).read_text())
    services = compose["services"]
    subnets = compose["networks"]["default"]["ipam"]["config"]
    assert len(subnets) == 1
    subnet = ipaddress.ip_network(subnets[0]["subnet"])
    caddy = ipaddress.ip_address(services["caddy"]["networks"]["default"]["ipv4_address"])
    assert caddy in subnet and caddy != next(subnet.hosts())  # (.1 is the gateway)
    nodes = [name for name in services if name.startswith("umpire")]
    assert nodes
    for name in nodes:
        args = build_parser().parse_args([str(a) for a in services[name]["command"]])
        assert args.trusted_proxy == [str(caddy)], name
        assert "networks" not in services[name]  # (on the default network, with Caddy)
