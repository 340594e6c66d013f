-- Shared by the wrk scripts of tools/bench_serve.sh: counts statuses per thread and prints one summary line
-- (requests/s, p50 / p99 latency, errors, statuses) that the script reads back.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    if s then
      for code, n in pairs(s) do counts[code] = (counts[code] or 0) + n end
    end
  end
  local parts = {}
  for code, n in pairs(counts) do table.insert(parts, string.format("%d:%d", code, n)) end
  table.sort(parts)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p99_ms=%.2f socket_errors=%d non2xx=%d statuses=%s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors, summary.errors.status,
    table.concat(parts, ",")))
end
