-- Every request a view not drawn before of an already loaded map: 512x288 lit PNG, the field of view stepped
-- by 0.01 degrees per request (a new camera, so never an image-cache hit). MAPS: the maps to cycle through;
-- CAMERA: the camera word (default spawn, the map's first spawn point; best searches the map for a view).
-- STEP=size: the size stepped instead (16:9, 16x9 pixels per request from 512x288, the field of view fixed): a
-- new picture each time with the same aspect and field of view, as a site asking a map at several sizes.
dofile(os.getenv("LUXEL_WRK_DIR") .. "/wrk_report.lua")
local maps = {}
for m in string.gmatch(os.getenv("MAPS") or "oa_dm1", "[^,]+") do table.insert(maps, m) end
local n = 0
local offset = tonumber(os.getenv("FOV_OFFSET") or "0")
local camera = os.getenv("CAMERA") or "spawn"
local stepSize = os.getenv("STEP") == "size"
request = function()
  n = n + 1
  local map = maps[(n % #maps) + 1]
  if stepSize then
    local k = math.floor(n / #maps) % 64
    return wrk.format("GET", string.format("/maps/%s.png?size=%dx%d&mode=lit&camera=%s&fov=%.2f", map, 512 + 16 * k,
                                           288 + 9 * k, camera, 70 + offset))
  end
  return wrk.format("GET", string.format("/maps/%s.png?size=512x288&mode=lit&camera=%s&fov=%.2f", map, camera,
                                         70 + offset + n / 100))
end
