-- Every request a view not drawn before of an already loaded map: 512x288 lit PNG, the field of view stepped
-- by 0.01 degrees per request (a new camera, so never an image-cache hit). MAPS: the maps to cycle through;
-- CAMERA: the camera word (default spawn, the map's first spawn point; best searches the map for a view).
-- STEP=styles: the main light style's weight stepped instead (styles=0%3DW, W from 1 down by 0.0001 a request, the
-- field of view fixed): a new picture each time with the same size and field of view, the camera's search kept
-- from the first (a new time= would reload the animated materials as well).
dofile(os.getenv("LUXEL_WRK_DIR") .. "/wrk_report.lua")
local maps = {}
for m in string.gmatch(os.getenv("MAPS") or "oa_dm1", "[^,]+") do table.insert(maps, m) end
local n = 0
local offset = tonumber(os.getenv("FOV_OFFSET") or "0")
local camera = os.getenv("CAMERA") or "spawn"
local stepStyles = os.getenv("STEP") == "styles"
request = function()
  n = n + 1
  local map = maps[(n % #maps) + 1]
  if stepStyles then
    return wrk.format("GET", string.format("/maps/%s.png?size=512x288&mode=lit&camera=%s&fov=%.2f&styles=0%%3D%.4f", map,
                                           camera, 70 + offset, 1 - (n % 5000) / 10000))
  end
  return wrk.format("GET", string.format("/maps/%s.png?size=512x288&mode=lit&camera=%s&fov=%.2f", map, camera,
                                         70 + offset + n / 100))
end
