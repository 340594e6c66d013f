#!/usr/bin/env bash
# Checks the deployment files that can be checked without a cluster or a systemd PID 1:
#   1. tools/systemd/luxel-serve.service: `systemd-analyze verify` on a temporary copy whose ExecStart names
#      LUXEL (verify wants the binary to exist; /usr/local/bin/luxel may not), any warning counts as a failure;
#      its stop timeout and memory limit against tools/systemd/serve.toml's request timeout and memory sum.
#   2. tools/k8s/*.yaml parse (every document); serve.yaml: probes on /healthz:8080, the Service 80 -> 8080,
#      the grace period above the drain time, the memory limit above the caches and limits its flags set.
#   3. `luxel serve --config tools/systemd/serve.toml` on an ephemeral port: GET /healthz answers 200 with
#      status ok, one thumbnail renders, and after SIGTERM it exits 0.
# A piece whose tool is missing prints "skipped: ..." and does not fail the run.
# Usage: tools/check_deploy.sh [LUXEL]      (LUXEL: the luxel binary, default build/luxel)
set -uo pipefail
cd "$(dirname "$0")/.."

luxel=${1:-build/luxel}
[[ "$luxel" = /* ]] || luxel="$PWD/$luxel"
unit=tools/systemd/luxel-serve.service
config=tools/systemd/serve.toml

failed=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failed=1; }
skip() { echo "skipped: $*"; }

tmp=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

have_luxel=1
if [ ! -x "$luxel" ]; then
  fail "no luxel binary at $luxel (build it, or name it: tools/check_deploy.sh PATH)"
  have_luxel=0
fi

# A Python that has tomllib (3.11+) for the numbers in serve.toml.
py=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import tomllib' 2>/dev/null; then py=$p; break; fi
done

# --- 1. systemd unit -------------------------------------------------------------------------------------
echo "== systemd unit ($unit)"
if grep -qx 'ExecStart=/usr/local/bin/luxel serve --config /etc/luxel/serve.toml' "$unit"; then
  ok "ExecStart is /usr/local/bin/luxel serve --config /etc/luxel/serve.toml"
else
  fail "$unit: ExecStart is not '/usr/local/bin/luxel serve --config /etc/luxel/serve.toml'"
fi
if ! command -v systemd-analyze >/dev/null; then
  skip "systemd-analyze verify: systemd-analyze not found"
elif [ "$have_luxel" = 0 ]; then
  skip "systemd-analyze verify: no luxel binary to stand in for /usr/local/bin/luxel"
else
  copy="$tmp/luxel-serve.service"
  sed "s|^ExecStart=/usr/local/bin/luxel |ExecStart=$luxel |" "$unit" >"$copy"
  # verify exits 0 on unknown keys and bad values (it only warns), so any output is a failure
  out=$(systemd-analyze verify "$copy" 2>&1)
  rc=$?
  if [ "$rc" = 0 ] && [ -z "$out" ]; then
    ok "systemd-analyze verify (ExecStart -> $luxel): no warnings"
  else
    fail "systemd-analyze verify (exit $rc):"
    printf '%s\n' "$out" | sed 's/^/    /'
  fi
  exposure=$(systemd-analyze security --offline=yes "$copy" 2>/dev/null | grep -a 'Overall exposure level' | sed 's/^→ *//')
  [ -n "$exposure" ] && echo "    (systemd-analyze security --offline=yes: $exposure)"
fi
if [ -z "$py" ]; then
  skip "unit limits against serve.toml: no python3 with tomllib"
else
  "$py" - "$unit" "$config" <<'EOF'
import re, sys, tomllib
unit = open(sys.argv[1]).read()
cfg = tomllib.load(open(sys.argv[2], "rb"))
def key(name):
    m = re.search(rf"^{name}=(.*)$", unit, re.M)
    return m.group(1).strip() if m else None
bad = []
stop, timeout = key("TimeoutStopSec"), cfg.get("request_timeout", 30)
if stop is None or not stop.isdigit():
    bad.append(f"TimeoutStopSec={stop}: expected whole seconds")
elif int(stop) <= timeout + 5:
    bad.append(f"TimeoutStopSec={stop} is not above request_timeout {timeout} + 5 s (luxel's drain)")
units = {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}
mem = key("MemoryMax")
m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT])", mem or "")
if "workers" not in cfg:
    bad.append("serve.toml sets no workers: the memory a service may take grows with the core count")
if not m:
    bad.append(f"MemoryMax={mem}: expected a size like 4G")
else:
    limit = float(m.group(1)) * units[m.group(2)]
    caches = cfg.get("map_cache_mb", 1024) + cfg.get("texture_cache_mb", 512) + cfg.get("image_cache_mb", 64)
    renders = cfg.get("workers", 1) * cfg.get("request_memory_mb", 1024)
    uploads = cfg.get("uploads", cfg.get("connections", 32)) * cfg.get("upload_limit_mb", 64)
    connections = cfg.get("max_connections", 10000) * 8 / 1024  # ~6 KB measured per open slow connection
    total = caches + renders + uploads + connections + 384
    line = (f"caches {caches:g} + renders {renders:g} + uploads {uploads:g} + connections {connections:.0f} "
            f"+ overhead 384 = {total:.0f} MiB")
    if total >= limit:
        bad.append(f"MemoryMax={mem} ({limit:g} MiB) is not above {line}")
    else:
        print(f"ok: MemoryMax={mem} ({limit:g} MiB) > {line}")
nofile, want = key("LimitNOFILE"), cfg.get("max_connections", 10000) + 128
if nofile is None or not nofile.isdigit() or int(nofile) < want:
    bad.append(f"LimitNOFILE={nofile} is below max_connections {cfg.get('max_connections', 10000)} + 128 descriptors")
else:
    print(f"ok: LimitNOFILE={nofile} >= max_connections {cfg.get('max_connections', 10000)} + 128")
if key("ExecReload") != "/bin/kill -HUP $MAINPID":
    bad.append("ExecReload is not '/bin/kill -HUP $MAINPID' (systemctl reload: list the roots again)")
if not bad:
    print(f"ok: TimeoutStopSec={stop} > request_timeout {timeout} + 5 s")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
EOF
  [ $? = 0 ] || failed=1
fi

# --- 2. Kubernetes manifests ----------------------------------------------------------------------------
echo "== Kubernetes manifests (tools/k8s/*.yaml)"
ypy=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import yaml' 2>/dev/null; then ypy=$p; break; fi
done
if [ -n "$ypy" ]; then
  "$ypy" - tools/k8s/*.yaml <<'EOF'
import re, sys, yaml
bad = []
def check(ok, what):
    if not ok: bad.append(what)
docs = {}
for path in sys.argv[1:]:
    try:
        found = [d for d in yaml.safe_load_all(open(path)) if d is not None]
    except yaml.YAMLError as e:
        print(f"FAIL: {path} does not parse: {e}")
        bad.append(path)
        continue
    print(f"ok: {path} parses: " + ", ".join(f"{d.get('kind')}/{d.get('metadata', {}).get('name')}" for d in found))
    for d in found:
        docs[(path.rsplit("/", 1)[-1], d.get("kind"))] = d
dep, svc = docs.get(("serve.yaml", "Deployment")), docs.get(("serve.yaml", "Service"))
check(dep is not None and dep["metadata"]["name"] == "luxel-serve", "serve.yaml: no Deployment luxel-serve")
check(svc is not None and svc["metadata"]["name"] == "luxel-serve", "serve.yaml: no Service luxel-serve")
if dep and svc:
    pod = dep["spec"]["template"]["spec"]
    c = pod["containers"][0]
    args = [str(a) for a in c.get("args", [])]
    flag = lambda name, default: float(args[args.index(name) + 1]) if name in args else default
    check(args[:1] == ["serve"], "serve.yaml: args do not start with serve")
    check("--listen" in args and args[args.index("--listen") + 1] == "0.0.0.0:8080", "serve.yaml: no --listen 0.0.0.0:8080")
    for probe in ("readinessProbe", "livenessProbe"):
        get = c.get(probe, {}).get("httpGet", {})
        check(get.get("path") == "/healthz" and get.get("port") in (8080, "http"), f"serve.yaml: {probe} is not httpGet /healthz on 8080")
    check(any(p.get("containerPort") == 8080 for p in c.get("ports", [])), "serve.yaml: no containerPort 8080")
    sp = svc["spec"]
    check(sp.get("type", "ClusterIP") == "ClusterIP", "serve.yaml: the Service is not ClusterIP")
    check(any(p.get("port") == 80 and p.get("targetPort") in (8080, "http") for p in sp["ports"]), "serve.yaml: the Service does not map 80 -> 8080")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    check(all(labels.get(k) == v for k, v in sp["selector"].items()), "serve.yaml: the Service's selector does not match the pods")
    check(all(labels.get(k) == v for k, v in dep["spec"]["selector"]["matchLabels"].items()), "serve.yaml: the Deployment's selector does not match its pods")
    # grace period: preStop pause + luxel's drain (request timeout + 5 s)
    pre = c.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    pause = float(pre[1]) if pre[:1] == ["sleep"] and len(pre) > 1 else 0
    drain = flag("--request-timeout", 30) + 5
    grace = pod.get("terminationGracePeriodSeconds", 30)
    check(grace > pause + drain, f"serve.yaml: terminationGracePeriodSeconds {grace} is not above preStop {pause:g} + drain {drain:g} s")
    # memory: the limit above what the flags allow
    q = c["resources"]["limits"]["memory"]
    m = re.fullmatch(r"(\d+)(Mi|Gi)", q)
    check(m is not None, f"serve.yaml: memory limit {q}: expected Mi or Gi")
    if m:
        limit = int(m.group(1)) * (1024 if m.group(2) == "Gi" else 1)
        check("--workers" in args, "serve.yaml: no --workers (the memory taken would grow with the node's cores)")
        caches = flag("--map-cache-mb", 1024) + flag("--texture-cache-mb", 512) + flag("--image-cache-mb", 64)
        renders = flag("--workers", 1) * flag("--request-memory-mb", 1024)
        uploads = flag("--uploads", flag("--connections", 32)) * flag("--upload-limit-mb", 64)
        connections = flag("--max-connections", 10000) * 8 / 1024  # ~6 KB measured per open slow connection
        total = caches + renders + uploads + connections + 384
        line = (f"caches {caches:g} + renders {renders:g} + uploads {uploads:g} + connections {connections:.0f} "
                f"+ overhead 384 = {total:.0f} MiB")
        check(total < limit, f"serve.yaml: memory limit {q} is not above {line}")
        if total < limit:
            print(f"ok: serve.yaml memory limit {q} ({limit} MiB) > {line}")
    # probes: each connects anew and sends its whole request at once, so the head deadline never cuts one off;
    # a probe must wait less than the server's head deadline, or a stalled server looks alive to it
    head = flag("--header-timeout", 10)
    for probe in ("readinessProbe", "livenessProbe"):
        t = c.get(probe, {}).get("timeoutSeconds", 1)
        check(t < head, f"serve.yaml: {probe} timeoutSeconds {t} is not below --header-timeout {head:g}")
    if not bad:
        print(f"ok: serve.yaml probes on /healthz:8080 (timeouts below --header-timeout {head:g} s), Service 80 -> 8080, "
              f"grace {grace} s > preStop {pause:g} + drain {drain:g} s")
for b in bad:
    if b.endswith(".yaml"): continue
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
EOF
  [ $? = 0 ] || failed=1
elif command -v ruby >/dev/null && ruby -ryaml -e '' 2>/dev/null; then
  for f in tools/k8s/*.yaml; do
    if ruby -ryaml -e 'n = 0; YAML.load_stream(File.read(ARGV[0])) { n += 1 }; puts "ok: #{ARGV[0]} parses (#{n} documents)"' "$f"; then :
    else fail "$f does not parse"; fi
  done
  skip "serve.yaml probe / port / memory checks: they need python3 with PyYAML"
else
  skip "Kubernetes manifests: no YAML parser (python3 with PyYAML, or ruby)"
fi

# --- 3. the server from the example config --------------------------------------------------------------
echo "== luxel serve --config $config"
root=$(sed -n 's/^roots *= *\["\([^"]*\)".*/\1/p' "$config")
if [ "$have_luxel" = 0 ]; then
  skip "server start / stop: no luxel binary"
elif ! command -v curl >/dev/null; then
  skip "server start / stop: curl not found"
elif [ -n "$root" ] && [ ! -e "$root" ]; then
  skip "server start / stop: $root (the root in $config) is missing; tools/setup.sh installs openarena-data"
else
  "$luxel" serve --config "$config" --listen 127.0.0.1:0 --port-file "$tmp/port" 2>"$tmp/serve.log" &
  server=$!
  for _ in $(seq 300); do
    [ -s "$tmp/port" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  if [ ! -s "$tmp/port" ]; then
    if kill -0 "$server" 2>/dev/null; then fail "luxel serve did not start listening in 30 s:"
    else fail "luxel serve exited before listening:"; fi
    sed 's/^/    /' "$tmp/serve.log"
  else
    port=$(cat "$tmp/port")
    base="http://127.0.0.1:$port"
    health=$(curl -s -m 10 -w ' %{http_code}' "$base/healthz" | tr -d '\n')
    if [[ "$health" == *'"status":"ok"'*' 200' ]]; then ok "GET /healthz on port $port: $health"
    else fail "GET /healthz on port $port: '$health'"; fi
    name=$(curl -s -m 10 "$base/maps" | sed -n 's/^ *"name": *"\([^"]*\)".*/\1/p' | head -1)
    if [ -z "$name" ]; then
      fail "GET /maps lists no map"
    else
      code=$(curl -s -m 60 -o "$tmp/thumb.png" -w '%{http_code}' "$base/maps/$name.png")
      if [ "$code" = 200 ] && [ "$(head -c 4 "$tmp/thumb.png" | od -An -c | tr -d ' ')" = '211PNG' ]; then
        ok "GET /maps/$name.png: 200, $(wc -c <"$tmp/thumb.png") bytes of PNG"
      else
        fail "GET /maps/$name.png: $code"
      fi
    fi
    t0=$EPOCHREALTIME
    kill -TERM "$server"
    # as systemd would (TimeoutStopSec): SIGKILL if it has not stopped in time. A child that has exited
    # stays a zombie (state Z) until waited for.
    limit=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)$/\1/p' "$unit")
    for ((i = 0; i < ${limit:-45} * 10; i++)); do
      state=$(awk '{print $3}' "/proc/$server/stat" 2>/dev/null)
      [ -z "$state" ] || [ "$state" = Z ] && break
      sleep 0.1
    done
    [ -n "$state" ] && [ "$state" != Z ] && kill -KILL "$server" 2>/dev/null
    wait "$server"
    rc=$?
    server=""
    took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
    if [ "$rc" = 0 ]; then ok "SIGTERM: exit status 0 after ${took} s"
    else
      fail "SIGTERM: exit status $rc"
      tail -5 "$tmp/serve.log" | sed 's/^/    /'
    fi
  fi
fi

if [ "$failed" = 0 ]; then echo "check_deploy: all checks that could run passed"; else echo "check_deploy: FAILED"; fi
exit "$failed"
