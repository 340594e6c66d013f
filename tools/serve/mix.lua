-- The mixed load: 80% repeats of warm thumbnails (image-cache hits), 15% new views of loaded maps, 5% hostile
-- uploads (a truncated map, a text file, a decompression bomb, a lying zip) from HOSTILE_DIR.
dofile(os.getenv("LUXEL_WRK_DIR") .. "/wrk_report.lua")
local maps = {}
for m in string.gmatch(os.getenv("MAPS") or "oa_dm1", "[^,]+") do table.insert(maps, m) end
local hostile = {}
for _, name in ipairs({"truncated.bsp", "text.bsp", "bomb.pk3", "lying.pk3"}) do
  local f = io.open(os.getenv("HOSTILE_DIR") .. "/" .. name, "rb")
  table.insert(hostile, f:read("*a"))
  f:close()
end
local n = 0
local fov = 0
math.randomseed(7)
request = function()
  n = n + 1
  local r = math.random(100)
  local map = maps[math.random(#maps)]
  if r <= 80 then
    return wrk.format("GET", "/maps/" .. map .. ".jpg?size=320x180")
  elseif r <= 95 then
    fov = fov + 1
    return wrk.format("GET", string.format("/maps/%s.png?size=512x288&mode=lit&fov=%.2f", map, 100 + fov / 100))
  else
    local body = hostile[(n % #hostile) + 1]
    return wrk.format("POST", "/render?size=320x180", {["Content-Type"] = "application/octet-stream"}, body)
  end
end
